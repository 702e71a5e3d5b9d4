package dev.taskagent.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TextDeltaListener;
import java.time.Duration;
import java.util.Objects;

/**
 * A taskagent {@link ChatModel} over any LangChain4j chat model: {@code OpenAiChatModel}, {@code
 * AnthropicChatModel}, {@code GoogleAiGeminiChatModel}, {@code OllamaChatModel} and every other, configured
 * the way you already configure them. taskagent's extraction agent, step executor and tools then run on that
 * model; taskagent runs the tools itself, so LangChain4j only carries the calls.
 *
 * <pre>{@code
 * var openAi = OpenAiChatModel.builder().apiKey(key).modelName("gpt-4o-mini").build();
 * var streaming = OpenAiStreamingChatModel.builder().apiKey(key).modelName("gpt-4o-mini").build();
 * TaskAgent agent = TaskAgent.builder(store, LangChain4jChatModel.of(openAi, streaming)).build();
 * }</pre>
 *
 * <p>What is carried: the system prompt, user, assistant and tool-result messages, tool calls with their ids
 * and arguments verbatim, the tools' JSON schemas, temperature, the output-token limit, the finish reason and
 * the token usage. Not carried: {@code ChatOptions.parallelToolCalls} (LangChain4j has no such parameter; the
 * provider's default applies). Without a streaming model, {@link #chatStreaming} hands over the whole text at
 * the end, so step ticks come when the answer is complete rather than live.
 *
 * <p>Thread-safe when the LangChain4j models are (theirs are).
 */
public final class LangChain4jChatModel implements ChatModel {
    /** How long a streamed answer may take in all before the call fails. */
    public static final Duration STREAM_TIMEOUT = Duration.ofMinutes(10);

    private final dev.langchain4j.model.chat.ChatModel chatModel;
    private final StreamingChatModel streamingModel;
    private final RequestMapping requests = new RequestMapping();
    private final String providerName;
    private final String modelName;

    private LangChain4jChatModel(
            dev.langchain4j.model.chat.ChatModel chatModel,
            StreamingChatModel streamingModel,
            ModelProvider provider,
            ChatRequestParameters defaults) {
        this.chatModel = chatModel;
        this.streamingModel = streamingModel;
        this.providerName = providerName(provider);
        this.modelName = defaults == null || defaults.modelName() == null ? "unknown" : defaults.modelName();
    }

    /**
     * A model over a LangChain4j chat model; streamed calls get the whole text at the end.
     *
     * @param chatModel the LangChain4j model
     * @return the bridge
     */
    public static LangChain4jChatModel of(dev.langchain4j.model.chat.ChatModel chatModel) {
        Objects.requireNonNull(chatModel, "chatModel");
        return new LangChain4jChatModel(chatModel, null, chatModel.provider(), chatModel.defaultRequestParameters());
    }

    /**
     * A model over a LangChain4j streaming chat model; plain calls collect the stream.
     *
     * @param streamingModel the LangChain4j streaming model
     * @return the bridge
     */
    public static LangChain4jChatModel of(StreamingChatModel streamingModel) {
        Objects.requireNonNull(streamingModel, "streamingModel");
        return new LangChain4jChatModel(
                null, streamingModel, streamingModel.provider(), streamingModel.defaultRequestParameters());
    }

    /**
     * A model over a LangChain4j chat model for plain calls and a streaming one for streamed calls (usually
     * the same provider and model, built twice, as LangChain4j has a class for each).
     *
     * @param chatModel the LangChain4j model for {@link #chat}
     * @param streamingModel the LangChain4j streaming model for {@link #chatStreaming}
     * @return the bridge
     */
    public static LangChain4jChatModel of(
            dev.langchain4j.model.chat.ChatModel chatModel, StreamingChatModel streamingModel) {
        Objects.requireNonNull(chatModel, "chatModel");
        Objects.requireNonNull(streamingModel, "streamingModel");
        return new LangChain4jChatModel(
                chatModel, streamingModel, chatModel.provider(), chatModel.defaultRequestParameters());
    }

    /**
     * Sends the request through the LangChain4j model and waits for the whole answer.
     *
     * @param request the request
     * @return the answer
     * @throws ChatModelException if the LangChain4j model fails
     * @throws IllegalArgumentException if a tool's parameters schema uses JSON Schema that LangChain4j cannot
     *     carry (the message names the tool and where)
     */
    @Override
    public ChatResponse chat(ChatRequest request) {
        if (chatModel == null) {
            return chatStreaming(request, delta -> {});
        }
        dev.langchain4j.model.chat.request.ChatRequest mapped = requests.toLangChain4j(request);
        try {
            return ResponseMapping.toTaskagent(chatModel.chat(mapped));
        } catch (RuntimeException e) {
            throw FrameworkErrors.translate(describe(), e);
        }
    }

    /**
     * Streams the answer through the LangChain4j streaming model, handing text to the listener on the calling
     * thread as it arrives; without a streaming model, calls {@link #chat} and hands over the whole text.
     *
     * @param request the request
     * @param listener receives text deltas in order, on the calling thread
     * @return the whole answer
     * @throws ChatModelException if the model fails, or the stream does not end within {@link #STREAM_TIMEOUT}
     * @throws IllegalArgumentException as for {@link #chat}
     */
    @Override
    public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (streamingModel == null) {
            return ChatModel.super.chatStreaming(request, listener);
        }
        dev.langchain4j.model.chat.request.ChatRequest mapped = requests.toLangChain4j(request);
        StreamBridge stream = new StreamBridge();
        try {
            streamingModel.chat(mapped, stream);
            return ResponseMapping.toTaskagent(stream.await(listener, STREAM_TIMEOUT, describe()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChatModelException("Interrupted while waiting for the LangChain4j model " + describe(), e);
        } catch (Throwable e) {
            if (e instanceof Error error) {
                throw error;
            }
            throw FrameworkErrors.translate(describe(), e);
        }
    }

    /**
     * Names the provider in the OpenTelemetry GenAI vocabulary, from what the LangChain4j model says it is.
     *
     * @return for example {@code openai}, {@code anthropic}, {@code gcp.gemini}; {@code unknown} otherwise
     */
    @Override
    public String providerName() {
        return providerName;
    }

    /**
     * Names the model that the LangChain4j model's default parameters ask for.
     *
     * @return for example {@code gpt-4o-mini}; {@code unknown} when it does not say
     */
    @Override
    public String modelName() {
        return modelName;
    }

    @Override
    public String toString() {
        return "LangChain4jChatModel[" + describe() + (streamingModel != null ? ", streaming" : "") + "]";
    }

    private String describe() {
        return providerName + "/" + modelName;
    }

    private static String providerName(ModelProvider provider) {
        if (provider == null) {
            return "unknown";
        }
        return switch (provider) {
            case OPEN_AI -> "openai";
            case ANTHROPIC -> "anthropic";
            case AZURE_OPEN_AI -> "azure.ai.openai";
            case GOOGLE_AI_GEMINI, GOOGLE_GENAI -> "gcp.gemini";
            case GOOGLE_VERTEX_AI_GEMINI, GOOGLE_VERTEX_AI_ANTHROPIC -> "gcp.vertex_ai";
            case AMAZON_BEDROCK -> "aws.bedrock";
            case MISTRAL_AI -> "mistral_ai";
            case OLLAMA -> "ollama";
            case GITHUB_MODELS -> "github";
            case WATSONX -> "ibm.watsonx.ai";
            case COHERE -> "cohere";
            default -> "unknown";
        };
    }
}
