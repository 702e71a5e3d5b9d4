package dev.taskagent.llm;

/**
 * Creates {@link ChatModel}s configured from the environment; registered for {@link
 * java.util.ServiceLoader} so that {@link ChatModels#discover()} finds it.
 *
 * <p>Implementations need a public no-argument constructor and are thread-safe.
 */
public interface ChatModelProvider {

    /**
     * Names the provider, as users select it with the system property {@value
     * ChatModels#SELECTOR_PROPERTY} or the environment variable {@value ChatModels#SELECTOR_ENV}.
     *
     * @return a short lower-case name such as {@code openai}
     */
    String name();

    /**
     * Creates a model configured from system properties and environment variables.
     *
     * @return a ready model
     * @throws ChatModelException if the configuration is incomplete; the message names what to set
     */
    ChatModel create();
}
