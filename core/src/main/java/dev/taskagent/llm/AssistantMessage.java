package dev.taskagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * What the model said: text, tool calls, or both. Sent back to the model as history.
 *
 * @param text the text, empty when the model only called tools; never null
 * @param toolCalls the tool calls, in the order the model made them
 */
public record AssistantMessage(String text, List<ToolCall> toolCalls) implements ChatMessage {
    /**
     * Checks the invariants and copies the list.
     *
     * @param text the text, empty when the model only called tools; not null
     * @param toolCalls the tool calls, in the order the model made them; not null, copied
     */
    public AssistantMessage {
        Objects.requireNonNull(text, "text");
        toolCalls = List.copyOf(toolCalls);
    }

    /**
     * The assistant message a response stands for in the history.
     *
     * @param response the model's response
     * @return the message
     */
    public static AssistantMessage of(ChatResponse response) {
        return new AssistantMessage(response.text(), response.toolCalls());
    }
}
