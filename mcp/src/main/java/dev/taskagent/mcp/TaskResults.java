package dev.taskagent.mcp;

import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import java.util.Optional;
import java.util.Set;

/**
 * Structured content for the queue tools whose result is a task ({@code signup_for_task}, {@code
 * move_task}, {@code get_task}): besides the text a model reads, an MCP client gets the task as data,
 * {@code {"task": {...}}} ({@code {}} when {@code signup_for_task} finds no idle task), described by an
 * output schema it validates.
 *
 * <p>The queue's tools write their task as one line of compact JSON, after a one-line headline ({@code
 * Task #7 claimed and set to working status}) or alone ({@code get_task}); that JSON is the structured
 * content. The SDK checks it against {@link #TASK_RESULT_SCHEMA} on every call and answers with an error
 * result if it ever stopped matching, so a change of the text format cannot go unnoticed.
 *
 * <p>Thread-safe (stateless).
 */
final class TaskResults {
    static final Set<String> TOOLS_THAT_RETURN_A_TASK = Set.of("signup_for_task", "move_task", "get_task");

    /** The schema of the task JSON the queue tools write (fields that are empty are left out). */
    static final String TASK_RESULT_SCHEMA = """
            {"type":"object","properties":{"task":{"type":"object","properties":{\
            "id":{"type":"integer","minimum":1},\
            "status":{"type":"string","enum":["pending","running","success","failed"]},\
            "priority":{"type":"integer"},\
            "assignee":{"type":"string"},\
            "previous_assignee":{"type":"string"},\
            "created_by":{"type":"string"},\
            "attempt":{"type":"integer","minimum":1},\
            "lease_until":{"type":"string"},\
            "description":{"type":"string"},\
            "steps":{"type":"string"},\
            "current_step":{"type":"integer","minimum":1},\
            "progress":{"type":"array","items":{"type":"string"}},\
            "preference":{"type":"string"},\
            "comments":{"type":"array","items":{"type":"string"}},\
            "links":{"type":"array","items":{"type":"string"}},\
            "archived":{"type":"boolean"}},\
            "required":["id","status","priority","description"]}}}""";

    private TaskResults() {}

    /**
     * Returns the tool with structured task results if it is one of {@link #TOOLS_THAT_RETURN_A_TASK},
     * else the tool itself.
     */
    static Tool structured(Tool tool) {
        return TOOLS_THAT_RETURN_A_TASK.contains(tool.name()) ? new StructuredTaskTool(tool) : tool;
    }

    /**
     * Extracts the structured content from a successful result's text.
     *
     * @param text the headline and the task's JSON, the JSON alone, or a headline alone (no task)
     * @return {@code {"task": <json>}}, or {@code {}} when the text carries no task
     */
    static String structuredContent(String text) {
        if (text.startsWith("{")) {
            return "{\"task\":" + text + "}";
        }
        int newline = text.indexOf('\n');
        if (newline >= 0 && text.startsWith("{", newline + 1)) {
            return "{\"task\":" + text.substring(newline + 1) + "}";
        }
        return "{}";
    }

    private static final class StructuredTaskTool implements Tool {
        private final Tool tool;

        StructuredTaskTool(Tool tool) {
            this.tool = tool;
        }

        @Override
        public String name() {
            return tool.name();
        }

        @Override
        public String description() {
            return tool.description();
        }

        @Override
        public String parametersSchema() {
            return tool.parametersSchema();
        }

        @Override
        public ToolDefinition definition() {
            return tool.definition();
        }

        @Override
        public Optional<String> outputSchema() {
            return Optional.of(TASK_RESULT_SCHEMA);
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            ToolResult result = tool.call(arguments);
            if (result.isError() || result.hasStructuredContent()) {
                return result;
            }
            return new ToolResult(result.text(), false, structuredContent(result.text()));
        }
    }
}
