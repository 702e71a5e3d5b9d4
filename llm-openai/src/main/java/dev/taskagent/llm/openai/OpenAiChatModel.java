package dev.taskagent.llm.openai;

import com.openai.azure.credential.AzureApiKeyCredential;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TextDeltaListener;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ChatModel} on the Chat Completions API of OpenAI, or of any server that speaks it (Ollama,
 * vLLM, llama.cpp, LM Studio, Azure OpenAI), through the official {@code openai-java} SDK.
 *
 * <pre>{@code
 * // From OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL:
 * ChatModel model = OpenAiChatModel.fromEnvironment();
 *
 * // Or explicitly, here against a local Ollama:
 * OpenAiChatModel local = OpenAiChatModel.builder()
 *         .baseUrl("http://localhost:11434/v1")
 *         .model("qwen2.5:7b")
 *         .build();
 * }</pre>
 *
 * <p>Tool definitions are sent as functions with their JSON schemas; tool-call ids and the arguments
 * exactly as the model wrote them come back in {@link ChatResponse#toolCalls()}. Streaming hands text
 * to the listener as it arrives and accumulates tool-call fragments into whole calls. Rate limits
 * (429), timeouts of a single attempt, connection failures and server errors (5xx) are retried by the
 * SDK up to {@link Builder#maxRetries(int)} times with exponential backoff (honouring {@code
 * Retry-After}); every other failure becomes a {@link ChatModelException} whose message names the cause
 * and never contains the API key.
 *
 * <p>Thread-safe: one instance serves concurrent calls and holds one HTTP connection pool; {@link
 * #close()} releases it (optional: idle resources are also released when the model is garbage
 * collected).
 */
public final class OpenAiChatModel implements ChatModel, AutoCloseable {
    /** The model used when none is configured. */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";

    /** The OpenAI API, used when no base URL is configured. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    /** How long one attempt may take, from sending the request to the last byte of the answer. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    /** How often a failed attempt is retried (rate limits, timeouts, connection failures, 5xx). */
    public static final int DEFAULT_MAX_RETRIES = 2;

    /** Environment variable that holds the API key. */
    public static final String API_KEY_ENV = "OPENAI_API_KEY";

    /** Environment variable that holds the base URL of an OpenAI-compatible server. */
    public static final String BASE_URL_ENV = "OPENAI_BASE_URL";

    /** Environment variable that names the model. */
    public static final String MODEL_ENV = "OPENAI_MODEL";

    /** System property that holds the API key; wins over {@value #API_KEY_ENV}. */
    public static final String API_KEY_PROPERTY = "openai.apiKey";

    /** System property that holds the base URL; wins over {@value #BASE_URL_ENV}. */
    public static final String BASE_URL_PROPERTY = "openai.baseUrl";

    /** System property that names the model; wins over {@value #MODEL_ENV}. */
    public static final String MODEL_PROPERTY = "openai.model";

    /**
     * Sent as the key to servers that need none (local servers configured with a base URL only); the
     * SDK insists on some credential.
     */
    static final String PLACEHOLDER_API_KEY = "no-key-needed";

    private final OpenAIClient client;
    private final String model;
    private final String baseUrl;
    private final Duration timeout;
    private final int maxRetries;
    private final boolean legacyMaxTokens;
    private final ServiceErrors errors;

    private OpenAiChatModel(Builder builder) {
        this.model = builder.model;
        this.baseUrl = builder.baseUrl;
        this.timeout = builder.timeout;
        this.maxRetries = builder.maxRetries;
        this.legacyMaxTokens =
                builder.legacyMaxTokens != null ? builder.legacyMaxTokens : !isOpenAiService(builder.baseUrl);
        String apiKey = builder.apiKey != null ? builder.apiKey : PLACEHOLDER_API_KEY;
        this.errors = new ServiceErrors(baseUrl, model, apiKey, builder.apiKey != null, maxRetries, timeout);
        OpenAIOkHttpClient.Builder http =
                OpenAIOkHttpClient.builder().baseUrl(baseUrl).timeout(timeout).maxRetries(maxRetries);
        // Azure OpenAI takes its key in the api-key header; everyone else as a bearer token.
        if (isAzureHost(baseUrl)) {
            http.credential(AzureApiKeyCredential.create(apiKey));
        } else {
            http.apiKey(apiKey);
        }
        this.client = http.build();
    }

    /**
     * Starts an explicit configuration.
     *
     * @return a builder with the defaults ({@value #DEFAULT_MODEL}, {@value #DEFAULT_BASE_URL}, 10
     *     minutes, {@value #DEFAULT_MAX_RETRIES} retries) and no key
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Creates a model configured from system properties and environment variables: the key from
     * {@value #API_KEY_PROPERTY} or {@value #API_KEY_ENV}, the server from {@value #BASE_URL_PROPERTY} or
     * {@value #BASE_URL_ENV} (default {@value #DEFAULT_BASE_URL}), the model from {@value
     * #MODEL_PROPERTY} or {@value #MODEL_ENV} (default {@value #DEFAULT_MODEL}). A base URL without a key
     * is accepted, for local servers that need none.
     *
     * @return the model
     * @throws ChatModelException if neither a key nor a base URL is set, or a value is invalid; the
     *     message names the variable to set
     */
    public static OpenAiChatModel fromEnvironment() {
        return fromSettings(System::getenv, System::getProperty);
    }

    static OpenAiChatModel fromSettings(Function<String, String> environment, Function<String, String> properties) {
        String apiKey = setting(properties, API_KEY_PROPERTY, environment, API_KEY_ENV);
        String baseUrl = setting(properties, BASE_URL_PROPERTY, environment, BASE_URL_ENV);
        String model = setting(properties, MODEL_PROPERTY, environment, MODEL_ENV);
        if (apiKey == null && baseUrl == null) {
            throw new ChatModelException("No OpenAI configuration found: " + API_KEY_ENV + " and " + BASE_URL_ENV
                    + " are both unset (and so are -D" + API_KEY_PROPERTY + " and -D" + BASE_URL_PROPERTY
                    + "). Set " + API_KEY_ENV + " to use the OpenAI API, or " + BASE_URL_ENV
                    + " to use an OpenAI-compatible server such as Ollama (http://localhost:11434/v1).");
        }
        Builder builder = builder();
        try {
            if (apiKey != null) {
                builder.apiKey(apiKey);
            }
            if (baseUrl != null) {
                builder.baseUrl(baseUrl);
            }
            if (model != null) {
                builder.model(model);
            }
        } catch (IllegalArgumentException e) {
            throw new ChatModelException("Invalid OpenAI configuration from the environment: " + e.getMessage(), e);
        }
        return builder.build();
    }

    private static String setting(
            Function<String, String> properties,
            String property,
            Function<String, String> environment,
            String variable) {
        String value = properties.apply(property);
        if (value == null || value.isBlank()) {
            value = environment.apply(variable);
        }
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** @return the model name sent with every request */
    public String model() {
        return model;
    }

    /**
     * Names the provider for observations: {@code openai}, the OpenTelemetry GenAI name of the protocol
     * this adapter speaks, also when the base URL points at another OpenAI-compatible server.
     *
     * @return {@code openai}
     */
    @Override
    public String providerName() {
        return "openai";
    }

    /**
     * Names the model for observations: the one sent with every request.
     *
     * @return {@link #model()}
     */
    @Override
    public String modelName() {
        return model;
    }

    /** @return the base URL of the server this model talks to */
    public String baseUrl() {
        return baseUrl;
    }

    /** @return how long one attempt may take */
    public Duration timeout() {
        return timeout;
    }

    /** @return how often a failed attempt is retried */
    public int maxRetries() {
        return maxRetries;
    }

    @Override
    public ChatResponse chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        ChatCompletionCreateParams params = requestMapping().toParams(request).build();
        ChatCompletion completion;
        try {
            completion = client.chat().completions().create(params);
        } catch (OpenAIException e) {
            throw errors.translate(e);
        }
        try {
            return CompletionMapping.toResponse(completion);
        } catch (OpenAIException e) {
            throw errors.translate(e);
        }
    }

    @Override
    public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        ChatCompletionCreateParams params = requestMapping()
                .toParams(request)
                .streamOptions(
                        ChatCompletionStreamOptions.builder().includeUsage(true).build())
                .build();
        StreamAccumulator accumulator = new StreamAccumulator();
        try (StreamResponse<ChatCompletionChunk> stream =
                client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                String text = accumulator.accept(chunk);
                if (!text.isEmpty()) {
                    listener.onTextDelta(text);
                }
            });
            return accumulator.toResponse();
        } catch (OpenAIException e) {
            throw errors.translate(e);
        }
    }

    /** Closes the HTTP client; calls after this fail. Idempotent. */
    @Override
    public void close() {
        client.close();
    }

    /**
     * Describes the configuration without the key.
     *
     * @return model and base URL
     */
    @Override
    public String toString() {
        return "OpenAiChatModel[model=" + model + ", baseUrl=" + baseUrl + "]";
    }

    private RequestMapping requestMapping() {
        return new RequestMapping(model, legacyMaxTokens);
    }

    // OpenAI's own service (and Azure OpenAI) wants max_completion_tokens and refuses max_tokens for
    // reasoning models; Ollama, LM Studio and older vLLM/llama.cpp read only max_tokens.
    private static boolean isOpenAiService(String baseUrl) {
        return host(baseUrl).equals("api.openai.com") || isAzureHost(baseUrl);
    }

    // The host suffixes by which the SDK itself recognises Azure OpenAI endpoints.
    static boolean isAzureHost(String baseUrl) {
        String host = host(baseUrl);
        return host.endsWith(".openai.azure.com")
                || host.endsWith(".services.ai.azure.com")
                || host.endsWith(".cognitiveservices.azure.com")
                || host.endsWith(".azure-api.net");
    }

    private static String host(String baseUrl) {
        return URI.create(baseUrl).getHost().toLowerCase(Locale.ROOT);
    }

    /**
     * Configures an {@link OpenAiChatModel}. Each setter checks its value at once; {@link #build()} checks
     * that a key or a base URL was given.
     *
     * <p>Not thread-safe; the model it builds is.
     */
    public static final class Builder {
        private String apiKey;
        private String baseUrl = DEFAULT_BASE_URL;
        private boolean baseUrlSet;
        private String model = DEFAULT_MODEL;
        private Duration timeout = DEFAULT_TIMEOUT;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Boolean legacyMaxTokens;

        private Builder() {}

        /**
         * Sets the API key, sent as a bearer token (as {@code api-key} to Azure).
         *
         * @param apiKey the key; not blank
         * @return this builder
         * @throws IllegalArgumentException if the key is blank
         */
        public Builder apiKey(String apiKey) {
            Objects.requireNonNull(apiKey, "apiKey");
            if (apiKey.isBlank()) {
                throw new IllegalArgumentException("apiKey must not be blank; leave it unset for servers that need no"
                        + " key (set baseUrl instead)");
            }
            this.apiKey = apiKey.strip();
            return this;
        }

        /**
         * Sets the server, for any OpenAI-compatible one: {@code http://localhost:11434/v1} (Ollama), {@code
         * http://localhost:8000/v1} (vLLM), {@code http://localhost:8080/v1} (llama.cpp). Without it the
         * model talks to {@value #DEFAULT_BASE_URL}. A server configured this way may need no key.
         *
         * @param baseUrl an absolute http or https URL, usually ending in {@code /v1}
         * @return this builder
         * @throws IllegalArgumentException if it is not an absolute http(s) URL with a host
         */
        public Builder baseUrl(String baseUrl) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            String candidate = baseUrl.strip();
            URI uri;
            try {
                uri = new URI(candidate);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(
                        "baseUrl '" + candidate + "' is not a URL: " + e.getMessage()
                                + "; use e.g. http://localhost:11434/v1",
                        e);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new IllegalArgumentException("baseUrl '" + candidate
                        + "' must be an absolute http or https URL with a host, e.g. http://localhost:11434/v1");
            }
            this.baseUrl = candidate.endsWith("/") ? candidate.substring(0, candidate.length() - 1) : candidate;
            this.baseUrlSet = true;
            return this;
        }

        /**
         * Names the model sent with every request.
         *
         * @param model e.g. {@code gpt-4o-mini}, {@code gpt-4.1}, or a local model such as {@code
         *     qwen2.5:7b}; default {@value #DEFAULT_MODEL}
         * @return this builder
         * @throws IllegalArgumentException if the name is blank
         */
        public Builder model(String model) {
            Objects.requireNonNull(model, "model");
            if (model.isBlank()) {
                throw new IllegalArgumentException("model must not be blank; e.g. " + DEFAULT_MODEL);
            }
            this.model = model.strip();
            return this;
        }

        /**
         * Sets how long one attempt may take, from sending the request to the last byte of the answer
         * (streamed answers included); a retry gets the same time again.
         *
         * @param timeout positive; default 10 minutes
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets how often a failed attempt is retried: rate limits (429), timeouts, connection failures and
         * server errors (5xx); other errors are not retried.
         *
         * @param maxRetries 0 or more; default {@value #DEFAULT_MAX_RETRIES}
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must be 0 or more, was " + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /**
         * Chooses the request field for {@link dev.taskagent.llm.ChatOptions#maxOutputTokens()}: {@code
         * max_tokens} (true), read by Ollama, LM Studio and older servers, or {@code
         * max_completion_tokens} (false), which OpenAI requires for reasoning models. By default it is
         * {@code max_completion_tokens} for OpenAI and Azure OpenAI hosts and {@code max_tokens} for any
         * other base URL.
         *
         * @param legacyMaxTokens true to send {@code max_tokens}
         * @return this builder
         */
        public Builder legacyMaxTokens(boolean legacyMaxTokens) {
            this.legacyMaxTokens = legacyMaxTokens;
            return this;
        }

        /**
         * Builds the model.
         *
         * @return the model
         * @throws IllegalStateException if neither an API key nor a base URL was set
         */
        public OpenAiChatModel build() {
            if (apiKey == null && !baseUrlSet) {
                throw new IllegalStateException("OpenAiChatModel needs an apiKey for " + DEFAULT_BASE_URL
                        + ", or a baseUrl of an OpenAI-compatible server that needs no key");
            }
            return new OpenAiChatModel(this);
        }
    }
}
