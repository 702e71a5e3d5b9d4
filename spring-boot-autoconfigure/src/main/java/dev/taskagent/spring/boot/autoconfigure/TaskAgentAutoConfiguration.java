package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.event.TaskListener;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.store.TaskStore;
import dev.taskagent.tool.Toolbox;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The {@link TaskQueue}, {@link TaskAgent} and {@link StepExecutor} beans, unless the application defines
 * them; each is given every {@link TaskListener} bean (in their {@code @Order}) and the {@link TaskObserver}
 * beans. The queue needs a store; the agent and the executor need a {@link ChatModel} too.
 */
@AutoConfiguration(
        after = {
            TaskAgentStoreAutoConfiguration.class,
            TaskAgentSpringAiAutoConfiguration.class,
            TaskAgentOpenAiAutoConfiguration.class
        })
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentAutoConfiguration() {}

    /**
     * The work queue.
     *
     * @param store the store
     * @param properties the starter's properties
     * @param listeners the listener beans
     * @param observers the observer beans
     * @param backoffs a {@link Backoff} bean, which replaces the {@code taskagent.queue.backoff-*} properties
     * @return the queue
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(TaskStore.class)
    @ConditionalOnBooleanProperty(name = "taskagent.queue.enabled", matchIfMissing = true)
    public TaskQueue taskQueue(
            TaskStore store,
            TaskAgentProperties properties,
            ObjectProvider<TaskListener> listeners,
            ObjectProvider<TaskObserver> observers,
            ObjectProvider<Backoff> backoffs) {
        TaskAgentProperties.Queue queue = properties.getQueue();
        TaskQueue.Builder builder = TaskQueue.builder(store)
                .sessionId(queue.getSessionId())
                .leaseDuration(queue.getLeaseDuration())
                .maxAttempts(queue.getMaxAttempts())
                .backoff(backoffs.getIfUnique(queue::backoff))
                .observer(observer(observers));
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    /**
     * The extraction agent.
     *
     * @param store the store
     * @param chatModel the model
     * @param properties the starter's properties
     * @param listeners the listener beans
     * @param observers the observer beans
     * @return the agent
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(TaskStore.class)
    @ConditionalOnBean(ChatModel.class)
    @ConditionalOnBooleanProperty(name = "taskagent.agent.enabled", matchIfMissing = true)
    public TaskAgent taskAgent(
            TaskStore store,
            ChatModel chatModel,
            TaskAgentProperties properties,
            ObjectProvider<TaskListener> listeners,
            ObjectProvider<TaskObserver> observers) {
        TaskAgentProperties.Agent agent = properties.getAgent();
        TaskAgent.Builder builder = TaskAgent.builder(store, chatModel)
                .maxIterations(agent.getMaxIterations())
                .observer(observer(observers));
        if (agent.isStepsTool()) {
            builder.withStepsTool();
        }
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    /**
     * The step executor; its tools are the application's {@link Toolbox} bean, if it has exactly one.
     *
     * @param store the store
     * @param chatModel the model
     * @param properties the starter's properties
     * @param listeners the listener beans
     * @param observers the observer beans
     * @param toolbox the toolbox bean, if any
     * @return the executor
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(TaskStore.class)
    @ConditionalOnBean(ChatModel.class)
    @ConditionalOnBooleanProperty(name = "taskagent.steps.enabled", matchIfMissing = true)
    public StepExecutor stepExecutor(
            TaskStore store,
            ChatModel chatModel,
            TaskAgentProperties properties,
            ObjectProvider<TaskListener> listeners,
            ObjectProvider<TaskObserver> observers,
            ObjectProvider<Toolbox> toolbox) {
        StepExecutor.Builder builder = StepExecutor.builder(store, chatModel)
                .maxModelCalls(properties.getSteps().getMaxModelCalls())
                .toolbox(toolbox.getIfUnique(Toolbox::empty))
                .observer(observer(observers));
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    private static TaskObserver observer(ObjectProvider<TaskObserver> observers) {
        return CompositeTaskObserver.of(observers.orderedStream().toList());
    }
}
