package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.store.TaskStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code taskagent} health indicator, when Spring Boot's health support is on the class path (Actuator
 * brings it) and {@code management.health.taskagent.enabled} is not false.
 */
@AutoConfiguration(after = TaskAgentStoreAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnSingleCandidate(TaskStore.class)
@Import(TaskAgentHealthAutoConfiguration.Indicator.class)
public class TaskAgentHealthAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentHealthAutoConfiguration() {}

    /**
     * The indicator. A configuration of its own, so that the condition below, whose class lives in Spring Boot's
     * health module, is only loaded once the class condition above found that module.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("taskagent")
    static class Indicator {
        /**
         * The indicator; its name, {@code taskagent}, comes from the bean's name.
         *
         * @param store the store
         * @return the indicator
         */
        @Bean
        @ConditionalOnMissingBean(name = "taskagentHealthIndicator")
        TaskStoreHealthIndicator taskagentHealthIndicator(TaskStore store) {
            return new TaskStoreHealthIndicator(store);
        }
    }
}
