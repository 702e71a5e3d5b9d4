package dev.taskagent.tool;

import dev.taskagent.llm.ToolDefinition;
import java.util.Objects;
import java.util.Optional;

/**
 * A tool a model can call: a name, a description, a JSON schema of its parameters and a handler.
 *
 * <p>Build one with {@link #of(String, String, JsonSchema, ToolHandler)} and put it in a {@link Toolbox}:
 *
 * <pre>{@code
 * Tool sendWhatsApp = Tool.of(
 *         "send_whatsapp",
 *         "Send a WhatsApp message to a contact.",
 *         JsonSchema.object()
 *                 .requiredString("to", "The contact's name")
 *                 .requiredString("text", "The message"),
 *         arguments -> {
 *             String to = arguments.requiredName("to");
 *             String text = arguments.requiredText("text");
 *             return ToolResult.ok(whatsApp.send(to, text));
 *         })
 *         .withHints(ToolHints.writing("Send a WhatsApp message").openWorld());
 * }</pre>
 *
 * <p>A tool carries its own metadata: its {@linkplain #hints() hints} (read-only, destructive, idempotent,
 * open world), the {@linkplain #outputSchema() schema of its structured results} and the {@linkplain
 * #resultBudget() budget} its results are cut to. Clients such as the
 * MCP server read them from the tool.
 *
 * <p>Bad arguments are reported by throwing {@link ToolArgumentException} (the {@link ToolArguments}
 * getters do that) or by returning {@link ToolResult#error(String)}; both reach the model as a soft
 * error. Any other exception is a hard error that ends the run. Every tool of this library is built this
 * way.
 *
 * <p>Implementations must be thread-safe if the toolbox is shared by concurrent runs; those built by
 * {@code of} are when their handler is.
 */
public interface Tool {
    /** The smallest {@linkplain #withResultBudget(int) result budget}, in tokens. */
    int MIN_RESULT_BUDGET = 100;

    /**
     * Builds a tool from its definition and a handler.
     *
     * @param name the name the model calls it by: 1-64 letters, digits, {@code _} or {@code -}
     * @param description what the tool does and when to call it, written for the model
     * @param parameters the schema of its arguments
     * @param handler what it does
     * @return the tool, immutable
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the name is not accepted by model APIs
     */
    static Tool of(String name, String description, JsonSchema parameters, ToolHandler handler) {
        Objects.requireNonNull(parameters, "parameters");
        return of(new ToolDefinition(name, description, parameters.toJson()), handler);
    }

    /**
     * Builds a tool whose successful results also carry structured content (see {@link
     * ToolResult#structuredContent()}) that conforms to an output schema.
     *
     * @param name the name the model calls it by: 1-64 letters, digits, {@code _} or {@code -}
     * @param description what the tool does and when to call it, written for the model
     * @param parameters the schema of its arguments
     * @param outputSchema the JSON schema (an object schema, as JSON text) of the structured content of
     *     every successful result
     * @param handler what it does; its successful results must carry structured content
     * @return the tool, immutable
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the name is not accepted by model APIs, or the output schema is
     *     not a JSON object
     */
    static Tool of(String name, String description, JsonSchema parameters, String outputSchema, ToolHandler handler) {
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(outputSchema, "outputSchema");
        return new DefinedTool(new ToolDefinition(name, description, parameters.toJson()), outputSchema, handler);
    }

    /**
     * Builds a tool from a definition made earlier and a handler, for toolsets that bind the same
     * definitions to new handlers often.
     *
     * @param definition the name, description and parameter schema
     * @param handler what it does
     * @return the tool, immutable
     * @throws NullPointerException if an argument is null
     */
    static Tool of(ToolDefinition definition, ToolHandler handler) {
        return new DefinedTool(definition, handler);
    }

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
     * Describes the structured content of the tool's successful results, for clients that read results
     * as data (MCP's {@code outputSchema}). A tool that has one returns structured content with every
     * successful result; most tools have none.
     *
     * @return the JSON schema of an object, as JSON text, or empty when results are text only
     */
    default Optional<String> outputSchema() {
        return Optional.empty();
    }

    /**
     * Says what the tool does to the world, for clients that show or act on it (MCP's {@code annotations}).
     * Every tool of this library declares its hints; the MCP server refuses to serve a tool without them.
     *
     * @return the hints, or empty when the tool declares none
     */
    default Optional<ToolHints> hints() {
        return Optional.empty();
    }

    /**
     * Returns this tool with hints: the same name, description, schemas and behaviour.
     *
     * @param hints what the tool does to the world
     * @return a new tool, immutable
     * @throws NullPointerException if hints is null
     */
    default Tool withHints(ToolHints hints) {
        Objects.requireNonNull(hints, "hints");
        return new DefinedTool(definition(), outputSchema().orElse(null), hints, this::call);
    }

    /**
     * Returns the most tokens a result of this tool may take, if it has a budget.
     *
     * @return the budget in tokens, estimated as UTF-8 bytes / 3; empty when results are not cut
     */
    default Optional<Integer> resultBudget() {
        return Optional.empty();
    }

    /**
     * Returns this tool with a budget for its results: a result whose text would take more tokens (estimated
     * as UTF-8 bytes / 3, an upper estimate for English text with the GPT-4o family's encoding) is cut, at a
     * line's end where one is near, and ends with a note that says how much was left out and how to ask
     * for less. Structured content is left whole. A tool that has a budget gets this one in its place.
     *
     * @param tokens the most tokens a result's text may take; at least {@value #MIN_RESULT_BUDGET}
     * @return a new tool, immutable
     * @throws IllegalArgumentException if {@code tokens} is below {@value #MIN_RESULT_BUDGET}
     */
    default Tool withResultBudget(int tokens) {
        return BudgetedTool.of(this, tokens);
    }

    /**
     * Returns the definition a model sees.
     *
     * @return name, description and parameter schema
     */
    default ToolDefinition definition() {
        return new ToolDefinition(name(), description(), parametersSchema());
    }
}
