package dev.taskagent.spring.ai;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.Toolbox;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One taskagent tool as a Spring AI {@link ToolCallback}: its call goes through the toolbox, so that bad
 * arguments and the like come back as soft errors for the model to read, as in taskagent's own loop.
 *
 * <p>Immutable; thread-safe when the toolbox is.
 */
final class ToolboxToolCallback implements ToolCallback {
    /** Spring AI does not hand the model's call id to a callback; the toolbox does not need it. */
    static final String CALL_ID = "spring-ai";

    private final Toolbox toolbox;
    private final ToolDefinition definition;

    ToolboxToolCallback(Toolbox toolbox, Tool tool) {
        this.toolbox = toolbox;
        // The builder fills an empty description from the name: Spring AI refuses blank descriptions.
        this.definition = ToolDefinition.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(tool.parametersSchema())
                .build();
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /**
     * Runs the tool through the toolbox and returns the result's text, an error result's text included.
     *
     * @throws org.springframework.ai.tool.execution.ToolExecutionException if the tool failed unexpectedly (a
     *     taskagent hard error); Spring AI's {@code ToolExecutionExceptionProcessor} decides whether the model
     *     reads its message or the call fails
     */
    @Override
    public String call(String toolInput) {
        ToolCall call = new ToolCall(CALL_ID, definition.name(), toolInput == null ? "" : toolInput);
        try {
            return toolbox.call(call).text();
        } catch (ToolExecutionException e) {
            throw new org.springframework.ai.tool.execution.ToolExecutionException(definition, e);
        }
    }

    @Override
    public String toString() {
        return "ToolboxToolCallback[" + definition.name() + "]";
    }
}
