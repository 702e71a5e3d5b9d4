package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.openai.OpenAiChatModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@link ChatModel} bean, unless the application defines one: the OpenAI adapter configured from {@code
 * taskagent.openai.*}, when {@code taskagent-llm-openai} is on the class path and an API key or a base URL is
 * set. Without a model, the queue still works; the agent and the step executor are not created.
 */
@AutoConfiguration
@ConditionalOnClass(OpenAiChatModel.class)
@ConditionalOnBooleanProperty(name = "taskagent.openai.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentOpenAiAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentOpenAiAutoConfiguration() {}

    /**
     * The OpenAI adapter.
     *
     * @param properties the starter's properties
     * @return the model; closed with the context
     */
    @Bean
    @ConditionalOnMissingBean(ChatModel.class)
    @Conditional(OpenAiConfigured.class)
    public OpenAiChatModel taskAgentChatModel(TaskAgentProperties properties) {
        TaskAgentProperties.OpenAi openai = properties.getOpenai();
        OpenAiChatModel.Builder builder = OpenAiChatModel.builder();
        if (openai.getApiKey() != null) {
            named("api-key", () -> builder.apiKey(openai.getApiKey()));
        }
        if (openai.getBaseUrl() != null) {
            named("base-url", () -> builder.baseUrl(openai.getBaseUrl()));
        }
        if (openai.getModel() != null) {
            named("model", () -> builder.model(openai.getModel()));
        }
        builder.timeout(openai.getTimeout()).maxRetries(openai.getMaxRetries());
        return builder.build();
    }

    /** Runs a setter of the adapter's builder, naming the property in what it refuses. */
    private static void named(String property, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("taskagent.openai." + property + " is invalid: " + e.getMessage(), e);
        }
    }

    /** An API key or a base URL is set. */
    static final class OpenAiConfigured extends AnyNestedCondition {
        OpenAiConfigured() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "taskagent.openai.api-key")
        static final class ApiKey {}

        @ConditionalOnProperty(name = "taskagent.openai.base-url")
        static final class BaseUrl {}
    }
}
