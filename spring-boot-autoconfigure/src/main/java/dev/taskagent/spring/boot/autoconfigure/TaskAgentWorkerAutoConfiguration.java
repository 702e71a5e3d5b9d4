package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.queue.TaskHandler;
import dev.taskagent.queue.TaskQueue;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * A {@link dev.taskagent.queue.TaskWorker} for the application's {@link TaskHandler} bean, started and stopped
 * with the application context ({@code taskagent.worker.*}), when there is a {@link TaskQueue}.
 */
@AutoConfiguration(after = TaskAgentAutoConfiguration.class)
@ConditionalOnSingleCandidate(TaskQueue.class)
@ConditionalOnBooleanProperty(name = "taskagent.worker.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentWorkerAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentWorkerAutoConfiguration() {}

    /**
     * The worker's lifecycle.
     *
     * @param queue the queue
     * @param handler the application's handler
     * @param properties the starter's properties
     * @return the lifecycle, started by the context
     * @throws IllegalStateException if {@code taskagent.worker.agent} is not set
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(TaskHandler.class)
    public TaskWorkerLifecycle taskAgentWorker(TaskQueue queue, TaskHandler handler, TaskAgentProperties properties) {
        return TaskWorkerLifecycle.of(queue, handler, properties.getWorker());
    }
}
