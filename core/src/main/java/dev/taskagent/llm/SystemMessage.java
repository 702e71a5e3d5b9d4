package dev.taskagent.llm;

import java.util.Objects;

/**
 * Instructions from the application to the model.
 *
 * @param text the instructions
 */
public record SystemMessage(String text) implements ChatMessage {
    /**
     * Checks the invariants.
     *
     * @param text the instructions; not null
     */
    public SystemMessage {
        Objects.requireNonNull(text, "text");
    }
}
