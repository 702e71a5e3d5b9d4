package dev.taskagent.extraction;

import dev.taskagent.task.Task;
import dev.taskagent.task.TextLimits;
import java.util.List;
import java.util.Objects;

/**
 * One message of the host application's conversation, as handed to {@link TaskAgent#run(String, List)}.
 *
 * <p>The {@link #id()} is the host's own message id; it is what the agent links to tasks and to the
 * planning section. Immutable and thread-safe.
 *
 * <pre>{@code
 * List<ConversationMessage> batch = List.of(
 *         ConversationMessage.user("m-17", "Book a table for two at 7pm"),
 *         ConversationMessage.assistant("m-18", "Booked at Luigi's."));
 * }</pre>
 *
 * @param id the host application's message id; not blank, at most {@link Task#MAX_ID_LENGTH} chars, without a
 *     NUL character or an unpaired surrogate
 * @param role who wrote the message
 * @param parts the content, in order; at least one
 */
public record ConversationMessage(String id, Role role, List<MessagePart> parts) {

    /** Who wrote a message. */
    public enum Role {
        /** The person using the host application. */
        USER("user"),
        /** The host's agent (the assistant); shown to the model as {@code agent}. */
        ASSISTANT("agent"),
        /** A tool the host's agent ran. */
        TOOL("tool");

        private final String label;

        Role(String label) {
            this.label = label;
        }

        /**
         * Returns the name the extraction model sees.
         *
         * @return {@code user}, {@code agent} or {@code tool}
         */
        public String label() {
            return label;
        }
    }

    /**
     * Checks the invariants and copies the parts.
     *
     * @param id the host application's message id; not blank, at most {@link Task#MAX_ID_LENGTH} chars, without a NUL
     *     character or an unpaired surrogate
     * @param role who wrote the message; not null
     * @param parts the content, in order; at least one; copied
     */
    public ConversationMessage {
        Objects.requireNonNull(id, "id");
        TextLimits.checkName(id, "message id");
        Objects.requireNonNull(role, "role");
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("message " + id + " has no parts; give it at least one");
        }
    }

    /**
     * A message with parts.
     *
     * @param id the host's message id
     * @param role who wrote it
     * @param parts the content
     * @return the message
     */
    public static ConversationMessage of(String id, Role role, MessagePart... parts) {
        return new ConversationMessage(id, role, List.of(parts));
    }

    /**
     * A text message from the user.
     *
     * @param id the host's message id
     * @param text the text
     * @return the message
     */
    public static ConversationMessage user(String id, String text) {
        return of(id, Role.USER, MessagePart.text(text));
    }

    /**
     * A text message from the host's agent.
     *
     * @param id the host's message id
     * @param text the text
     * @return the message
     */
    public static ConversationMessage assistant(String id, String text) {
        return of(id, Role.ASSISTANT, MessagePart.text(text));
    }
}
