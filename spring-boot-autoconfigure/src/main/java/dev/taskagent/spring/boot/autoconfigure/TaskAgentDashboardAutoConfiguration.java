package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.dashboard.TaskDashboard;
import dev.taskagent.dashboard.TaskDashboardServlet;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * taskagent's task board, off unless {@code taskagent.dashboard.enabled=true}; needs {@code
 * taskagent-dashboard} on the class path and a {@link TaskStore}. In a servlet web application it is served by
 * the application's own web server under {@code taskagent.dashboard.path} ({@code /taskagent/board/} unless
 * set); otherwise, or with {@code taskagent.dashboard.standalone=true}, it listens on its own port ({@code
 * taskagent.dashboard.bind-address} and {@code port}). When the application has one {@link TaskQueue} over that
 * store, the board goes through it ({@link TaskDashboard#builder(TaskQueue)}): its dead letters are the queue's,
 * by the queue's attempt limit, and its actions reach the queue's listeners.
 */
@AutoConfiguration(after = {TaskAgentStoreAutoConfiguration.class, TaskAgentAutoConfiguration.class})
@ConditionalOnClass(TaskDashboard.class)
@ConditionalOnBooleanProperty(name = "taskagent.dashboard.enabled")
@ConditionalOnSingleCandidate(TaskStore.class)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentDashboardAutoConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(TaskAgentDashboardAutoConfiguration.class);

    /** Creates the configuration. */
    public TaskAgentDashboardAutoConfiguration() {}

    /** The board on its own port: outside servlet web applications, or when asked for. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(MountCondition.BoardStandalone.class)
    static class Standalone {

        /**
         * The board's lifecycle.
         *
         * @param store the store whose tasks it shows
         * @param queues the application's queue, if it has one
         * @param properties the starter's properties
         * @return the lifecycle, started by the context
         */
        @Bean
        @ConditionalOnMissingBean
        DashboardLifecycle taskAgentDashboard(
                TaskStore store, ObjectProvider<TaskQueue> queues, TaskAgentProperties properties) {
            TaskAgentProperties.Dashboard settings = properties.getDashboard();
            TaskDashboard.Builder builder =
                    configure(builder(store, queues), settings).bind(settings.getBindAddress(), settings.getPort());
            // Built now, so that a refused setting fails the context's start rather than its first request.
            builder.build();
            return new DashboardLifecycle(builder::build, settings.names().port());
        }
    }

    /** The board on the application's web server. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "jakarta.servlet.http.HttpServlet")
    @Conditional(MountCondition.BoardMounted.class)
    static class Mounted {

        /**
         * The board's servlet, registered for {@code <path>/*}; the container starts it with the web server and
         * destroys it when the context closes.
         *
         * @param store the store whose tasks it shows
         * @param queues the application's queue, if it has one
         * @param properties the starter's properties
         * @param environment the application's, for {@code server.address}
         * @return the registration
         */
        @Bean
        @ConditionalOnMissingBean(name = "taskAgentDashboardServlet")
        ServletRegistrationBean<TaskDashboardServlet> taskAgentDashboardServlet(
                TaskStore store,
                ObjectProvider<TaskQueue> queues,
                TaskAgentProperties properties,
                Environment environment) {
            TaskAgentProperties.Dashboard settings = properties.getDashboard();
            MountRules.requireTokenWhenExposed(settings, "The task board", environment);
            TaskDashboardServlet servlet =
                    configure(builder(store, queues), settings).buildServlet();
            ServletRegistrationBean<TaskDashboardServlet> registration =
                    new ServletRegistrationBean<>(servlet, settings.getPath() + "/*");
            registration.setName("taskAgentDashboard");
            registration.setLoadOnStartup(1);
            return registration;
        }

        /**
         * Where the board is served; logs its address once the application started.
         *
         * @param properties the starter's properties
         * @param environment the application's
         * @return the mount
         */
        @Bean
        @ConditionalOnMissingBean(name = "taskAgentDashboardMount")
        WebServerMount taskAgentDashboardMount(TaskAgentProperties properties, Environment environment) {
            return new WebServerMount(
                    "taskagent task board", properties.getDashboard().getPath() + "/", environment);
        }
    }

    /**
     * A board through the application's queue when it has exactly one over the board's store, so that a dead
     * letter is one by the queue's attempt limit; otherwise through a queue with the defaults, which the log says
     * when the application has queues the board cannot use.
     */
    private static TaskDashboard.Builder builder(TaskStore store, ObjectProvider<TaskQueue> queues) {
        TaskQueue queue = queues.getIfUnique();
        if (queue != null && queue.store() == store) {
            return TaskDashboard.builder(queue);
        }
        long count = queues.stream().count();
        if (count > 0) {
            String why = count == 1
                    ? "the application's TaskQueue is over another store than the board's"
                    : "the application has " + count + " TaskQueue beans, not one";
            LOG.warn(
                    "The task board counts dead letters by the default attempt limit ({}): {}",
                    TaskQueue.DEFAULT_MAX_ATTEMPTS,
                    why);
        }
        return TaskDashboard.builder(store);
    }

    private static TaskDashboard.Builder configure(
            TaskDashboard.Builder builder, TaskAgentProperties.Dashboard settings) {
        if (settings.hasToken()) {
            builder.token(settings.getToken());
        }
        builder.actionsEnabled(settings.isActionsEnabled());
        builder.allowedHosts(settings.getAllowedHosts().toArray(String[]::new));
        builder.allowedOrigins(settings.getAllowedOrigins().toArray(String[]::new));
        return builder;
    }
}
