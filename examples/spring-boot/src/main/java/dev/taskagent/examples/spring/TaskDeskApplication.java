package dev.taskagent.examples.spring;

import dev.taskagent.llm.ChatModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;

/**
 * A help desk on the taskagent starter: a web API that turns messages into tasks (the agent), lets workers claim
 * and complete them (the queue), with Actuator health and metrics. Everything taskagent needs comes from the
 * starter and {@code application.yml}; this class adds an offline model for running without an OpenAI key.
 */
@SpringBootApplication
public class TaskDeskApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot's arguments, e.g. {@code --taskagent.openai.api-key=...}
     */
    public static void main(String[] args) {
        SpringApplication.run(TaskDeskApplication.class, args);
    }

    /**
     * The model when {@code taskdesk.offline-model} is true (the default): a deterministic stand-in that files
     * each message as one task. An application's own {@code ChatModel} bean always wins over the starter's.
     *
     * @return the offline model
     */
    @Bean
    @ConditionalOnBooleanProperty(name = "taskdesk.offline-model", matchIfMissing = true)
    ChatModel offlineModel() {
        return new OneTaskPerMessageModel();
    }
}
