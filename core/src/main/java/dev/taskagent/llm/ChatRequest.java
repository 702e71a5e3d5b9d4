package dev.taskagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * One call to a model: system prompt, history, tools and options.
 *
 * <p>Immutable and thread-safe.
 *
 * @param systemPrompt the instructions; may be empty, never null
 * @param messages the conversation so far, oldest first
 * @param tools the tools the model may call; empty for none
 * @param options per-request options
 */
public record ChatRequest(
        String systemPrompt, List<ChatMessage> messages, List<ToolDefinition> tools, ChatOptions options) {

    /**
     * Checks the invariants and copies the lists.
     *
     * @param systemPrompt the instructions; may be empty, not null
     * @param messages the conversation so far, oldest first; not null, copied
     * @param tools the tools the model may call; empty for none, not null, copied
     * @param options per-request options; not null
     */
    public ChatRequest {
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(options, "options");
    }

    /**
     * A request with default options.
     *
     * @param systemPrompt the instructions
     * @param messages the conversation
     * @param tools the tools
     * @return the request
     */
    public static ChatRequest of(String systemPrompt, List<ChatMessage> messages, List<ToolDefinition> tools) {
        return new ChatRequest(systemPrompt, messages, tools, ChatOptions.defaults());
    }
}
