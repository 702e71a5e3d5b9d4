package dev.taskagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * What a model answered to one request.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the text, empty when the model only called tools; never null
 * @param toolCalls the tool calls in the order the model made them; empty for none
 * @param finishReason why the model stopped
 * @param usage the tokens this call consumed
 */
public record ChatResponse(String text, List<ToolCall> toolCalls, FinishReason finishReason, TokenUsage usage) {

    /**
     * Checks the invariants and copies the list.
     *
     * @param text the text, empty when the model only called tools; not null
     * @param toolCalls the tool calls in the order the model made them; empty for none, not null, copied
     * @param finishReason why the model stopped; not null
     * @param usage the tokens this call consumed; not null
     */
    public ChatResponse {
        Objects.requireNonNull(text, "text");
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(usage, "usage");
    }

    /** @return true when the model asked for at least one tool call */
    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
