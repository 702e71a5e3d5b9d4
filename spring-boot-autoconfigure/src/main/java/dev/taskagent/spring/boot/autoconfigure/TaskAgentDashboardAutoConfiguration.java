package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.dashboard.TaskDashboard;
import dev.taskagent.store.TaskStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * taskagent's task board, off unless {@code taskagent.dashboard.enabled=true}; needs {@code
 * taskagent-dashboard} on the class path and a {@link TaskStore}. It listens on its own port ({@code
 * taskagent.dashboard.port}), not the application's web server.
 */
@AutoConfiguration(after = TaskAgentStoreAutoConfiguration.class)
@ConditionalOnClass(TaskDashboard.class)
@ConditionalOnBooleanProperty(name = "taskagent.dashboard.enabled")
@ConditionalOnSingleCandidate(TaskStore.class)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentDashboardAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentDashboardAutoConfiguration() {}

    /**
     * The board's lifecycle.
     *
     * @param store the store whose tasks it shows
     * @param properties the starter's properties
     * @return the lifecycle, started by the context
     */
    @Bean
    @ConditionalOnMissingBean
    public DashboardLifecycle taskAgentDashboard(TaskStore store, TaskAgentProperties properties) {
        TaskAgentProperties.Dashboard settings = properties.getDashboard();
        TaskDashboard.Builder builder =
                TaskDashboard.builder(store).bind(settings.getBindAddress(), settings.getPort());
        if (settings.getToken() != null && !settings.getToken().isBlank()) {
            builder.token(settings.getToken());
        }
        if (settings.isActionsEnabled()) {
            builder.enableActions();
        }
        // Built now, so that a refused setting fails the context's start rather than its first request.
        builder.build();
        return new DashboardLifecycle(builder::build, settings.names().port());
    }
}
