package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.spring.ai.SpringAiChatModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * taskagent's {@link ChatModel} bean from the application's Spring AI chat model, unless the application
 * defines a taskagent model itself: when {@code taskagent-spring-ai} is on the class path and the context has
 * one Spring AI {@code ChatModel} (the one of Spring AI's OpenAI, Anthropic or Ollama starter, or a bean of
 * the application's). It comes before the OpenAI adapter of {@code taskagent.openai.*}, which then steps
 * aside; {@code taskagent.spring-ai.enabled=false} turns it off.
 */
@AutoConfiguration(
        before = TaskAgentOpenAiAutoConfiguration.class,
        afterName = {
            "org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration",
            "org.springframework.ai.model.anthropic.autoconfigure.AnthropicChatAutoConfiguration",
            "org.springframework.ai.model.ollama.autoconfigure.OllamaChatAutoConfiguration"
        })
@ConditionalOnClass({SpringAiChatModel.class, org.springframework.ai.chat.model.ChatModel.class})
@ConditionalOnBooleanProperty(name = "taskagent.spring-ai.enabled", matchIfMissing = true)
public class TaskAgentSpringAiAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentSpringAiAutoConfiguration() {}

    /**
     * The bridge to the Spring AI model.
     *
     * @param springAiChatModel the application's Spring AI chat model
     * @return taskagent's model, calling it
     */
    @Bean
    @ConditionalOnMissingBean(ChatModel.class)
    @ConditionalOnSingleCandidate(org.springframework.ai.chat.model.ChatModel.class)
    public SpringAiChatModel taskAgentSpringAiChatModel(org.springframework.ai.chat.model.ChatModel springAiChatModel) {
        return SpringAiChatModel.of(springAiChatModel);
    }
}
