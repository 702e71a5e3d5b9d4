package dev.taskagent.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.llm.ToolDefinition;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The tool {@link Tool#of(ToolDefinition, ToolHandler)} builds. Immutable. */
final class DefinedTool implements Tool {
    private final ToolDefinition definition;
    private final ToolHandler handler;
    private final Set<String> parameters;
    private final String outputSchema;
    private final ToolHints hints;

    DefinedTool(ToolDefinition definition, ToolHandler handler) {
        this(definition, null, null, handler);
    }

    DefinedTool(ToolDefinition definition, String outputSchema, ToolHandler handler) {
        this(definition, outputSchema, null, handler);
    }

    /** A tool with an optional output schema and optional hints (each null when absent). */
    DefinedTool(ToolDefinition definition, String outputSchema, ToolHints hints, ToolHandler handler) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.hints = hints;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.parameters = parameterNames(definition);
        if (outputSchema == null) {
            this.outputSchema = null;
        } else {
            String schema = outputSchema.strip();
            if (!schema.startsWith("{") || !schema.endsWith("}")) {
                throw new IllegalArgumentException("The output schema of tool '" + definition.name()
                        + "' must be a JSON object schema, was: "
                        + schema.substring(0, Math.min(schema.length(), 40)));
            }
            this.outputSchema = schema;
        }
    }

    /** A copy with other hints; the schemas were checked and parsed already. */
    private DefinedTool(DefinedTool tool, ToolHints hints) {
        this.definition = tool.definition;
        this.handler = tool.handler;
        this.parameters = tool.parameters;
        this.outputSchema = tool.outputSchema;
        this.hints = hints;
    }

    /** The declared parameters, or null when the schema declares any (no closed list of properties). */
    private static Set<String> parameterNames(ToolDefinition definition) {
        JsonNode schema;
        try {
            schema = Json.mapper().readTree(definition.parametersSchemaJson());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "The parameter schema of tool '" + definition.name() + "' is not JSON: " + e.getOriginalMessage());
        }
        if (!schema.path("additionalProperties").isBoolean()
                || schema.path("additionalProperties").booleanValue()) {
            return null;
        }
        Set<String> names = new LinkedHashSet<>();
        schema.path("properties").fieldNames().forEachRemaining(names::add);
        return Collections.unmodifiableSet(names);
    }

    @Override
    public String name() {
        return definition.name();
    }

    @Override
    public String description() {
        return definition.description();
    }

    @Override
    public String parametersSchema() {
        return definition.parametersSchemaJson();
    }

    @Override
    public Optional<String> outputSchema() {
        return Optional.ofNullable(outputSchema);
    }

    @Override
    public Optional<ToolHints> hints() {
        return Optional.ofNullable(hints);
    }

    @Override
    public Tool withHints(ToolHints hints) {
        return new DefinedTool(this, Objects.requireNonNull(hints, "hints"));
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    /**
     * Runs the handler; an argument the schema does not declare is refused first, since the schema
     * forbids it and a misspelt optional argument would otherwise be dropped without a word.
     */
    @Override
    public ToolResult call(ToolArguments arguments) {
        if (parameters != null) {
            for (String name : arguments.names()) {
                if (!parameters.contains(name)) {
                    return ToolResult.error("Unknown argument '" + Texts.abbreviate(name, 64) + "' for "
                            + definition.name()
                            + (parameters.isEmpty()
                                    ? ", which takes no arguments; send {}."
                                    : "; its arguments are " + String.join(", ", parameters) + "."));
                }
            }
        }
        return handler.call(arguments);
    }

    @Override
    public String toString() {
        return "Tool[" + definition.name() + "]";
    }
}
