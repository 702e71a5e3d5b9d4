package dev.taskagent.llm;

import java.util.Objects;

/**
 * A model's request to run a tool.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id the call id chosen by the model's API; results refer to it
 * @param name the tool's name
 * @param argumentsJson the arguments exactly as the model wrote them (normally a JSON object, but a
 *     model can send anything; the {@code Toolbox} reports malformed JSON back to the model)
 */
public record ToolCall(String id, String name, String argumentsJson) {
    /**
     * Checks the invariants.
     *
     * @param id the call id chosen by the model's API; not null
     * @param name the tool's name; not null
     * @param argumentsJson the arguments exactly as the model wrote them, valid JSON or not; not null
     */
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argumentsJson, "argumentsJson");
    }
}
