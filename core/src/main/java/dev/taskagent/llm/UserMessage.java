package dev.taskagent.llm;

import java.util.Objects;

/**
 * A message from the user (or from the application speaking for the user).
 *
 * @param text the message
 */
public record UserMessage(String text) implements ChatMessage {
    /**
     * Checks the invariants.
     *
     * @param text the message; not null
     */
    public UserMessage {
        Objects.requireNonNull(text, "text");
    }
}
