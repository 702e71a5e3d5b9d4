package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.openai.OpenAiChatModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

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
        if (StringUtils.hasText(openai.getApiKey())) {
            named("api-key", () -> builder.apiKey(openai.getApiKey()));
        }
        if (StringUtils.hasText(openai.getBaseUrl())) {
            named("base-url", () -> builder.baseUrl(openai.getBaseUrl()));
        }
        if (StringUtils.hasText(openai.getModel())) {
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

    /** An API key or a base URL is set, and not empty (as {@code ${OPENAI_API_KEY:}} gives when it is unset). */
    static final class OpenAiConfigured extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Environment environment = context.getEnvironment();
            for (String property : new String[] {"taskagent.openai.api-key", "taskagent.openai.base-url"}) {
                if (StringUtils.hasText(environment.getProperty(property))) {
                    return ConditionOutcome.match(property + " is set");
                }
            }
            return ConditionOutcome.noMatch("neither taskagent.openai.api-key nor taskagent.openai.base-url is set");
        }
    }
}
