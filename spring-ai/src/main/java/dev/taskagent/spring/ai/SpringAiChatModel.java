package dev.taskagent.spring.ai;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TextDeltaListener;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Signal;

/**
 * A taskagent {@link ChatModel} over any Spring AI {@code ChatModel}: the application's Anthropic, OpenAI,
 * Ollama, Mistral... model, with the keys, base URL, retries and observations configured in Spring AI.
 *
 * <pre>{@code
 * // The application's Spring AI model, from Spring Boot or built by hand:
 * ChatModel model = SpringAiChatModel.of(springAiChatModel);
 * TaskAgent agent = TaskAgent.builder(store, model).build();
 * }</pre>
 *
 * <p>The system prompt and messages become Spring AI messages (tool calls with their ids and arguments,
 * one {@code ToolResponseMessage} per assistant turn); tools are offered as tool callbacks that carry their
 * names, descriptions and JSON schemas and refuse to run: taskagent runs the model's tool calls itself (a Spring
 * AI 2.0 model never runs tools; its {@code ChatClient} does, and is not involved here). Temperature and the
 * output limit override the model's options; everything else (the model name, provider options) stays as
 * configured in Spring AI. The answer's text, tool calls (arguments verbatim), finish reason and usage come
 * back. Streaming reads the model's {@code stream(Prompt)} and hands text to the listener on the calling
 * thread, in order (a model that cannot stream answers whole, through {@code call(Prompt)}). Whatever the
 * model throws becomes a {@link ChatModelException} whose message names the model and the cause, without
 * credentials.
 *
 * <p>Not mapped: {@link dev.taskagent.llm.ChatOptions#parallelToolCalls()} (Spring AI's portable options
 * have no such field; set it in the provider's options) and {@link
 * dev.taskagent.llm.ToolResultMessage#isError()} (a Spring AI tool response has no error flag; the text
 * says what went wrong).
 *
 * <p>Thread-safe when the Spring AI model is (Spring AI's models are): one instance serves concurrent runs.
 */
public final class SpringAiChatModel implements ChatModel {
    /** Spring AI's provider modules by package, with their OpenTelemetry GenAI names where they have one. */
    private static final Map<String, String> PROVIDERS = Map.of(
            "org.springframework.ai.openai", "openai",
            "org.springframework.ai.anthropic", "anthropic",
            "org.springframework.ai.ollama", "ollama",
            "org.springframework.ai.mistralai", "mistral_ai",
            "org.springframework.ai.deepseek", "deepseek",
            "org.springframework.ai.bedrock.converse", "aws.bedrock",
            "org.springframework.ai.google.genai", "gcp.gen_ai",
            "org.springframework.ai.vertexai.gemini", "gcp.vertex_ai");

    private final org.springframework.ai.chat.model.ChatModel delegate;
    private final String providerName;
    private final String modelName;
    private final PromptMapping prompts;
    private final Failures failures;

    private SpringAiChatModel(Builder builder) {
        this.delegate = builder.delegate;
        this.providerName = builder.providerName != null ? builder.providerName : providerOf(delegate);
        this.modelName = builder.modelName != null ? builder.modelName : modelOf(delegate);
        String description =
                delegate.getClass().getSimpleName() + " (provider " + providerName + ", model " + modelName + ")";
        this.prompts = new PromptMapping(description);
        this.failures = new Failures(description);
    }

    /**
     * Wraps a Spring AI model, naming its provider and model from what Spring AI tells.
     *
     * @param springAiChatModel the application's Spring AI model
     * @return the taskagent model
     * @throws NullPointerException if {@code springAiChatModel} is null
     */
    public static SpringAiChatModel of(org.springframework.ai.chat.model.ChatModel springAiChatModel) {
        return builder(springAiChatModel).build();
    }

    /**
     * Starts a configuration over a Spring AI model, to name its provider or model for observations.
     *
     * @param springAiChatModel the application's Spring AI model
     * @return a builder
     * @throws NullPointerException if {@code springAiChatModel} is null
     */
    public static Builder builder(org.springframework.ai.chat.model.ChatModel springAiChatModel) {
        return new Builder(springAiChatModel);
    }

    /**
     * Returns the Spring AI model this one calls.
     *
     * @return the Spring AI model
     */
    public org.springframework.ai.chat.model.ChatModel springAiChatModel() {
        return delegate;
    }

    /**
     * Names the provider for observations: the one set on the builder, else the OpenTelemetry GenAI name of
     * the Spring AI module the model comes from ({@code openai}, {@code anthropic}, {@code ollama}, {@code
     * mistral_ai}...), else {@code unknown}.
     *
     * @return the provider's name
     */
    @Override
    public String providerName() {
        return providerName;
    }

    /**
     * Names the model for observations: the one set on the builder, else the model of the Spring AI model's
     * options, else {@code unknown}.
     *
     * @return the model's name
     */
    @Override
    public String modelName() {
        return modelName;
    }

    @Override
    public ChatResponse chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        Prompt prompt = toPrompt(request);
        org.springframework.ai.chat.model.ChatResponse response = callModel(prompt);
        try {
            return ResponseMapping.toResponse(response);
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
    }

    private org.springframework.ai.chat.model.ChatResponse callModel(Prompt prompt) {
        org.springframework.ai.chat.model.ChatResponse response;
        try {
            response = delegate.call(prompt);
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
        if (response == null) {
            throw failures.translate(new ResponseMapping.InvalidAnswerException("the model returned no response"));
        }
        return response;
    }

    @Override
    public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        Prompt prompt = toPrompt(request);
        StreamAccumulator accumulator = new StreamAccumulator();
        // Blocking iteration delivers each response on this thread. Materialized, a failure arrives after the
        // responses before it (a plain blocking iterator drops those still buffered), so a step marker written
        // before a cut connection still ticks. Closing the stream cancels the subscription, also when the
        // listener throws; what the listener throws passes unchanged.
        try (Stream<Signal<org.springframework.ai.chat.model.ChatResponse>> signals = openStream(prompt)) {
            Iterator<Signal<org.springframework.ai.chat.model.ChatResponse>> iterator = signals.iterator();
            while (iterator.hasNext()) {
                Signal<org.springframework.ai.chat.model.ChatResponse> signal = iterator.next();
                if (signal.isOnError()) {
                    throw failures.translate(asRuntimeException(signal.getThrowable()));
                }
                if (signal.isOnNext()) {
                    String delta = accept(accumulator, signal.get());
                    if (!delta.isEmpty()) {
                        listener.onTextDelta(delta);
                    }
                }
            }
        }
        try {
            return accumulator.toResponse();
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
    }

    private Prompt toPrompt(ChatRequest request) {
        ChatOptions options;
        try {
            options = delegate.getOptions();
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
        return prompts.toPrompt(request, options);
    }

    private Stream<Signal<org.springframework.ai.chat.model.ChatResponse>> openStream(Prompt prompt) {
        try {
            return delegate.stream(prompt).materialize().toStream();
        } catch (UnsupportedOperationException e) {
            // Spring AI's default stream(Prompt) for models that cannot stream: the whole answer at once.
            return Stream.of(Signal.next(callModel(prompt)), Signal.complete());
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
    }

    private static RuntimeException asRuntimeException(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        return failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
    }

    private String accept(StreamAccumulator accumulator, org.springframework.ai.chat.model.ChatResponse response) {
        try {
            return accumulator.accept(response);
        } catch (RuntimeException e) {
            throw failures.translate(e);
        }
    }

    private static String providerOf(org.springframework.ai.chat.model.ChatModel model) {
        for (Class<?> type = model.getClass(); type != null; type = type.getSuperclass()) {
            String packageName = type.getPackageName();
            for (Map.Entry<String, String> provider : PROVIDERS.entrySet()) {
                if (packageName.equals(provider.getKey()) || packageName.startsWith(provider.getKey() + ".")) {
                    return provider.getValue();
                }
            }
        }
        return "unknown";
    }

    private static String modelOf(org.springframework.ai.chat.model.ChatModel model) {
        String name = model.getOptions().getModel();
        return name == null || name.isBlank() ? "unknown" : name;
    }

    /**
     * Describes the model without its configuration's secrets.
     *
     * @return the Spring AI model's class, provider and model
     */
    @Override
    public String toString() {
        return "SpringAiChatModel[" + delegate.getClass().getName() + ", provider=" + providerName + ", model="
                + modelName + "]";
    }

    /**
     * Configures a {@link SpringAiChatModel}. Each setter checks its value at once.
     *
     * <p>Not thread-safe; the model it builds is.
     */
    public static final class Builder {
        private final org.springframework.ai.chat.model.ChatModel delegate;
        private String providerName;
        private String modelName;

        private Builder(org.springframework.ai.chat.model.ChatModel delegate) {
            this.delegate = Objects.requireNonNull(delegate, "springAiChatModel");
        }

        /**
         * Names the provider for observations, for models whose Spring AI module this bridge does not know
         * (in the OpenTelemetry GenAI vocabulary where it has a name: {@code azure.ai.openai}, {@code groq}...).
         *
         * @param value the provider's name; not blank
         * @return this builder
         * @throws IllegalArgumentException if the name is blank
         */
        public Builder providerName(String value) {
            this.providerName = notBlank(value, "providerName");
            return this;
        }

        /**
         * Names the model for observations, for Spring AI models whose options do not say it.
         *
         * @param value the model's name; not blank
         * @return this builder
         * @throws IllegalArgumentException if the name is blank
         */
        public Builder modelName(String value) {
            this.modelName = notBlank(value, "modelName");
            return this;
        }

        /**
         * Builds the model.
         *
         * @return the model
         * @throws ChatModelException if the Spring AI model fails to tell its options
         */
        public SpringAiChatModel build() {
            try {
                return new SpringAiChatModel(this);
            } catch (ChatModelException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new ChatModelException(
                        "The Spring AI chat model " + delegate.getClass().getName() + " failed to tell its options: "
                                + Failures.redact(String.valueOf(e.getMessage())),
                        e);
            }
        }

        private static String notBlank(String value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be blank");
            }
            return value.strip();
        }
    }
}
