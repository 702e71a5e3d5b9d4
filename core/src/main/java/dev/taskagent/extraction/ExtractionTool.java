package dev.taskagent.extraction;

import dev.taskagent.internal.Texts;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.util.Objects;

/**
 * One tool of the extraction toolset: its definition (fixed, sent to the model before any transaction
 * exists), whether it writes tasks, and what it does inside an iteration. {@link #boundTo(IterationScope)}
 * turns it into a {@link Tool} of one iteration attempt, so no tool holds mutable state.
 *
 * @param definition the name, description and schema the model sees
 * @param hints what the tool does to the world
 * @param changesTasks true when a call writes tasks: the run then reads the task list again inside the
 *     transaction, so that the next call sees new orders and statuses
 * @param action what a call does in an iteration
 */
record ExtractionTool(ToolDefinition definition, ToolHints hints, boolean changesTasks, Action action) {
    static final String TASK_ORDER = "task_order";
    static final String MESSAGE_IDS = "message_ids";

    private static final int LABEL_LENGTH = 60;

    /** What a call of the tool does within one iteration attempt. */
    @FunctionalInterface
    interface Action {
        ToolResult execute(ToolArguments arguments, IterationScope scope);
    }

    ExtractionTool {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(hints, "hints");
        Objects.requireNonNull(action, "action");
    }

    /** A tool that writes tasks: after each call the run reads the task list again. */
    static ExtractionTool changingTasks(
            String name, ToolHints hints, String description, JsonSchema parameters, Action action) {
        return new ExtractionTool(new ToolDefinition(name, description, parameters.toJson()), hints, true, action);
    }

    /** A tool that writes no task (thinking, finish, the planning section): the task list stays as read. */
    static ExtractionTool leavingTasksAlone(
            String name, ToolHints hints, String description, JsonSchema parameters, Action action) {
        return new ExtractionTool(new ToolDefinition(name, description, parameters.toJson()), hints, false, action);
    }

    String name() {
        return definition.name();
    }

    /** The tool as the model calls it during one iteration attempt. */
    Tool boundTo(IterationScope scope) {
        return Tool.of(definition, arguments -> action.execute(arguments, scope))
                .withHints(hints);
    }

    /** Names a task for a tool result: its order and the start of its description. */
    static String label(Task task) {
        return "task " + task.order() + " \"" + Texts.abbreviate(Texts.oneLine(task.description()), LABEL_LENGTH + 1)
                + "\"";
    }
}
