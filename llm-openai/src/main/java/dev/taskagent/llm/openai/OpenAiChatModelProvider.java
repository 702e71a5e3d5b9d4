package dev.taskagent.llm.openai;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelProvider;

/**
 * Registers {@link OpenAiChatModel} for {@link java.util.ServiceLoader} under the name {@value #NAME},
 * so that {@link dev.taskagent.llm.ChatModels#discover()} finds it when this module is on the class or
 * module path. The model is configured as by {@link OpenAiChatModel#fromEnvironment()}.
 *
 * <p>Thread-safe (stateless).
 */
public final class OpenAiChatModelProvider implements ChatModelProvider {
    /** The provider's name, for {@code -Dtaskagent.chat-model=openai} or {@code TASKAGENT_CHAT_MODEL=openai}. */
    public static final String NAME = "openai";

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public OpenAiChatModelProvider() {}

    /**
     * Names the provider.
     *
     * @return {@value #NAME}
     */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * Creates a model from {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL} and {@code OPENAI_MODEL} (or
     * their system properties), as {@link OpenAiChatModel#fromEnvironment()} does.
     *
     * @return the model
     * @throws dev.taskagent.llm.ChatModelException if neither a key nor a base URL is configured, or a
     *     value is invalid
     */
    @Override
    public ChatModel create() {
        return OpenAiChatModel.fromEnvironment();
    }
}
