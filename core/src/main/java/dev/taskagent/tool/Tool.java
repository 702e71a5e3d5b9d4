package dev.taskagent.tool;

import dev.taskagent.llm.ToolDefinition;

/**
 * A tool a model can call: a name, a description, a JSON schema of its parameters and a handler.
 *
 * <p>Implement it to give an agent your own capabilities, and put it in a {@link Toolbox}. Bad
 * arguments are reported by throwing {@link ToolArgumentException} (the {@code ToolArguments} getters
 * do that) or by returning {@link ToolResult#error(String)}; both reach the model as a soft error. Any
 * other exception is a hard error that ends the run.
 *
 * <p>Implementations must be thread-safe if the toolbox is shared by concurrent runs.
 */
public interface Tool {

    /**
     * Names the tool, as the model calls it.
     *
     * @return 1-64 letters, digits, {@code _} or {@code -}
     */
    String name();

    /**
     * Describes what the tool does and when to call it, for the model.
     *
     * @return the description
     */
    String description();

    /**
     * Describes the parameters as a JSON schema of an object; see {@link JsonSchema}.
     *
     * @return the schema as JSON text
     */
    String parametersSchema();

    /**
     * Runs the tool.
     *
     * @param arguments the arguments the model sent, parsed
     * @return the result; an error result for input the model can fix
     * @throws ToolArgumentException for a missing or mistyped argument (reported to the model)
     */
    ToolResult call(ToolArguments arguments);

    /**
     * Returns the definition a model sees.
     *
     * @return name, description and parameter schema
     */
    default ToolDefinition definition() {
        return new ToolDefinition(name(), description(), parametersSchema());
    }
}
