package dev.taskagent.observe;

import dev.taskagent.llm.ChatRequest;
import java.util.Objects;

/**
 * One request to a model, as an observer sees it before it is sent.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operationName what is asked, in the OpenTelemetry GenAI vocabulary: {@value #CHAT}
 * @param providerName the model's provider, {@link dev.taskagent.llm.ChatModel#providerName()}
 * @param requestModel the model asked for, {@link dev.taskagent.llm.ChatModel#modelName()}
 * @param streaming true when the answer streams in
 * @param request the request itself: prompts, history and tool definitions (content; record it only when
 *     asked to)
 */
public record ModelCall(
        String operationName, String providerName, String requestModel, boolean streaming, ChatRequest request) {

    /** The operation name of a chat completion. */
    public static final String CHAT = "chat";

    /**
     * Checks that nothing is null.
     *
     * @param operationName not null
     * @param providerName not null
     * @param requestModel not null
     * @param streaming whether the answer streams in
     * @param request not null
     */
    public ModelCall {
        Objects.requireNonNull(operationName, "operationName");
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(requestModel, "requestModel");
        Objects.requireNonNull(request, "request");
    }
}
