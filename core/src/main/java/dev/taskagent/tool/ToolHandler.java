package dev.taskagent.tool;

/**
 * What a tool does when a model calls it: reads the arguments and returns a result. Given to {@link
 * Tool#of(String, String, JsonSchema, ToolHandler)}.
 *
 * <p>Report input the model can fix by throwing {@link ToolArgumentException} (the {@link ToolArguments}
 * getters do) or by returning {@link ToolResult#error(String)}; both reach the model as a soft error.
 * Anything else thrown is a hard error.
 */
@FunctionalInterface
public interface ToolHandler {
    /**
     * Runs the tool.
     *
     * @param arguments the arguments the model sent, parsed
     * @return the result; an error result for input the model can fix
     * @throws ToolArgumentException for a missing or mistyped argument (reported to the model)
     */
    ToolResult call(ToolArguments arguments);
}
