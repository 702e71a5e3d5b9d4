package dev.taskagent.extraction;

import java.util.Objects;

/**
 * One part of a {@link ConversationMessage}: text, a tool call, a tool result, or a file or image.
 *
 * <p>The agent shows each part to the model on a line of its own, cut at the configured length ({@link
 * TaskAgent.Builder#partTruncationLength(int)}). Immutable and thread-safe.
 */
public sealed interface MessagePart
        permits MessagePart.TextPart, MessagePart.ToolCallPart, MessagePart.ToolResultPart, MessagePart.FilePart {

    /**
     * A text part.
     *
     * @param text the text, shown as is
     * @return the part
     */
    static MessagePart text(String text) {
        return new TextPart(text);
    }

    /**
     * A tool call the host's agent made.
     *
     * @param callId the call's id, which a later {@link #toolResult(String, String)} refers to
     * @param toolName the tool called
     * @param argumentsJson the arguments, normally a JSON object; shown as JSON when they parse
     * @return the part
     */
    static MessagePart toolCall(String callId, String toolName, String argumentsJson) {
        return new ToolCallPart(callId, toolName, argumentsJson);
    }

    /**
     * The result of a tool call.
     *
     * @param callId the id of the call this answers; the tool's name is looked up by it within the batch
     * @param result the result text
     * @return the part
     */
    static MessagePart toolResult(String callId, String result) {
        return new ToolResultPart(callId, result);
    }

    /**
     * A file or image; only its name is shown to the model.
     *
     * @param name the file's name
     * @return the part
     */
    static MessagePart file(String name) {
        return new FilePart(name);
    }

    /**
     * Text.
     *
     * @param text the text; not null
     */
    record TextPart(String text) implements MessagePart {
        /**
         * Checks the invariants.
         *
         * @param text the text; not null
         */
        public TextPart {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A tool call.
     *
     * @param callId the call's id; not null
     * @param toolName the tool's name; not null
     * @param argumentsJson the arguments as written; not null
     */
    record ToolCallPart(String callId, String toolName, String argumentsJson) implements MessagePart {
        /**
         * Checks the invariants.
         *
         * @param callId the call's id; not null
         * @param toolName the tool's name; not null
         * @param argumentsJson the arguments as written; not null
         */
        public ToolCallPart {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
        }
    }

    /**
     * A tool result.
     *
     * @param callId the id of the call it answers; not null
     * @param result the result text; not null
     */
    record ToolResultPart(String callId, String result) implements MessagePart {
        /**
         * Checks the invariants.
         *
         * @param callId the id of the call it answers; not null
         * @param result the result text; not null
         */
        public ToolResultPart {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(result, "result");
        }
    }

    /**
     * A file or image, shown as {@code [file: name]}.
     *
     * @param name the file's name; not null
     */
    record FilePart(String name) implements MessagePart {
        /**
         * Checks the invariants.
         *
         * @param name the file's name; not null
         */
        public FilePart {
            Objects.requireNonNull(name, "name");
        }
    }
}
