package dev.taskagent.llm;

import java.util.Objects;

/**
 * The result of one tool call, sent back to the model. Every tool call of an assistant message needs
 * exactly one of these, with the same call id.
 *
 * @param toolCallId the id of the call this answers
 * @param toolName the tool that ran
 * @param text the result text
 * @param isError true when the call failed and the text says how to fix it
 */
public record ToolResultMessage(String toolCallId, String toolName, String text, boolean isError)
        implements ChatMessage {
    /**
     * Checks the invariants.
     *
     * @param toolCallId the id of the call this answers; not null
     * @param toolName the tool that ran; not null
     * @param text the result text; not null
     * @param isError true when the call failed and the text says how to fix it
     */
    public ToolResultMessage {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(text, "text");
    }
}
