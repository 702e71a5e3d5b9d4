package dev.taskagent.llm;

import java.util.Objects;

/**
 * A tool as the model sees it: name, description and a JSON schema of its parameters.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the tool's name, as the model will call it
 * @param description what the tool does and when to call it, written for the model
 * @param parametersSchemaJson a JSON schema (an object schema) of the arguments
 */
public record ToolDefinition(String name, String description, String parametersSchemaJson) {
    /**
     * Checks the invariants.
     *
     * @param name the tool's name: 1 to 64 letters, digits, {@code _} or {@code -}, the characters model APIs accept
     * @param description what the tool does and when to call it, written for the model; not null
     * @param parametersSchemaJson a JSON schema (an object schema) of the arguments; not null
     */
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException(
                    "Tool name '" + name + "' is not accepted by model APIs; use 1-64 letters, digits, '_' or '-'");
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchemaJson, "parametersSchemaJson");
    }
}
