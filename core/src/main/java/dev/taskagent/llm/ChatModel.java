package dev.taskagent.llm;

/**
 * A large language model that answers chat requests and calls tools: the model SPI.
 *
 * <p>The library ships an OpenAI adapter ({@code taskagent-llm-openai}); the testkit ships {@code
 * ScriptedChatModel}. Find one on the class path with {@link ChatModels#discover()} or construct one
 * directly.
 *
 * <p>Implementations are thread-safe: one model serves concurrent agent runs.
 */
public interface ChatModel {

    /**
     * Sends one request and waits for the whole response.
     *
     * @param request the request
     * @return the response
     * @throws ChatModelException if the model's service fails, refuses the request or answers something
     *     that is not a valid response
     */
    ChatResponse chat(ChatRequest request);

    /**
     * Sends one request and hands text to the listener as it arrives, then returns the whole response
     * (text, the accumulated tool calls, finish reason and usage).
     *
     * <p>The default calls {@link #chat(ChatRequest)} and hands over the whole text at once; models that
     * can stream override it.
     *
     * @param request the request
     * @param listener receives text deltas in order, on the calling thread
     * @return the complete response
     * @throws ChatModelException as for {@link #chat(ChatRequest)}
     */
    default ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
        ChatResponse response = chat(request);
        if (!response.text().isEmpty()) {
            listener.onTextDelta(response.text());
        }
        return response;
    }

    /**
     * Names the model's provider for observations, in the OpenTelemetry GenAI vocabulary where it has a
     * name ({@code openai}, {@code anthropic}, {@code azure.ai.openai}...). The default says {@code
     * unknown}; adapters override it.
     *
     * @return the provider's name; not null
     */
    default String providerName() {
        return "unknown";
    }

    /**
     * Names the model that requests ask for, for observations ({@code gpt-4o-mini}). The default says
     * {@code unknown}; adapters override it.
     *
     * @return the model's name; not null
     */
    default String modelName() {
        return "unknown";
    }
}
