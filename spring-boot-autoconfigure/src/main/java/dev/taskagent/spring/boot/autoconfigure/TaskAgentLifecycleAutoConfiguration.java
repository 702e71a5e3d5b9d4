package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.queue.TaskQueue;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The lease reaper, started and stopped with the application context ({@code taskagent.reaper.*}), when there
 * is a {@link TaskQueue}.
 */
@AutoConfiguration(after = TaskAgentAutoConfiguration.class)
@ConditionalOnSingleCandidate(TaskQueue.class)
@ConditionalOnBooleanProperty(name = "taskagent.reaper.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentLifecycleAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentLifecycleAutoConfiguration() {}

    /**
     * The reaper's lifecycle.
     *
     * @param queue the queue
     * @param properties the starter's properties
     * @return the lifecycle, started by the context
     */
    @Bean
    @ConditionalOnMissingBean
    public LeaseReaperLifecycle taskAgentLeaseReaper(TaskQueue queue, TaskAgentProperties properties) {
        return new LeaseReaperLifecycle(queue, properties.getReaper().getReclaimInterval());
    }
}
