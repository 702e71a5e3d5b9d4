package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.mcp.TaskMcpServer;
import dev.taskagent.mcp.Toolset;
import dev.taskagent.queue.TaskQueue;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
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
 * taskagent's MCP server over Streamable HTTP, off unless {@code taskagent.mcp.enabled=true}; needs {@code
 * taskagent-mcp} on the class path and a {@link TaskQueue}. In a servlet web application it is served by the
 * application's own web server at {@code taskagent.mcp.path} ({@code /taskagent/mcp} unless set); otherwise, or
 * with {@code taskagent.mcp.standalone=true}, it listens on its own port ({@code taskagent.mcp.bind-address}
 * and {@code port}). An {@link OpenTelemetry} bean, if the application has exactly one, receives the server's spans
 * and metrics; otherwise the server takes the global one (the Java agent's), or none.
 */
@AutoConfiguration(after = TaskAgentAutoConfiguration.class)
@ConditionalOnClass(TaskMcpServer.class)
@ConditionalOnBooleanProperty(name = "taskagent.mcp.enabled")
@ConditionalOnSingleCandidate(TaskQueue.class)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentMcpAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentMcpAutoConfiguration() {}

    /** The server on its own port: outside servlet web applications, or when asked for. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(MountCondition.McpStandalone.class)
    static class Standalone {

        /**
         * The server's lifecycle.
         *
         * @param queue the queue the tools work on
         * @param properties the starter's properties
         * @param openTelemetry the application's OpenTelemetry, if it has one
         * @return the lifecycle, started by the context
         */
        @Bean
        @ConditionalOnMissingBean
        McpServerLifecycle taskAgentMcpServer(
                TaskQueue queue, TaskAgentProperties properties, ObjectProvider<OpenTelemetry> openTelemetry) {
            TaskAgentProperties.Mcp mcp = properties.getMcp();
            TaskMcpServer.Builder builder = configure(TaskMcpServer.builder(queue), mcp, openTelemetry)
                    .bind(mcp.getBindAddress(), mcp.getPort());
            // Built now, so that a refused setting fails the context's start rather than its first request.
            builder.build();
            return new McpServerLifecycle(builder::build, mcp.names().port());
        }
    }

    /** The server on the application's web server. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(MountCondition.McpMounted.class)
    static class Mounted {

        /**
         * The server's servlet, registered at {@code taskagent.mcp.path} with async support; the container
         * destroys it, which stops the MCP server, when the context closes.
         *
         * @param queue the queue the tools work on
         * @param properties the starter's properties
         * @param environment the application's, for {@code server.address}
         * @param openTelemetry the application's OpenTelemetry, if it has one
         * @return the registration
         */
        @Bean
        @ConditionalOnMissingBean(name = "taskAgentMcpServlet")
        ServletRegistrationBean<HttpServlet> taskAgentMcpServlet(
                TaskQueue queue,
                TaskAgentProperties properties,
                Environment environment,
                ObjectProvider<OpenTelemetry> openTelemetry) {
            TaskAgentProperties.Mcp mcp = properties.getMcp();
            MountRules.requireTokenWhenExposed(mcp, "The MCP server", environment);
            HttpServlet servlet =
                    configure(TaskMcpServer.builder(queue), mcp, openTelemetry).buildServlet();
            ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(servlet, mcp.getPath());
            registration.setName("taskAgentMcp");
            registration.setAsyncSupported(true);
            registration.setLoadOnStartup(1);
            return registration;
        }

        /**
         * Where the server is served; logs its address once the application started.
         *
         * @param properties the starter's properties
         * @param environment the application's
         * @return the mount
         */
        @Bean
        @ConditionalOnMissingBean(name = "taskAgentMcpMount")
        WebServerMount taskAgentMcpMount(TaskAgentProperties properties, Environment environment) {
            return new WebServerMount(
                    "taskagent MCP server", properties.getMcp().getPath(), environment);
        }
    }

    private static TaskMcpServer.Builder configure(
            TaskMcpServer.Builder builder, TaskAgentProperties.Mcp mcp, ObjectProvider<OpenTelemetry> openTelemetry) {
        openTelemetry.ifUnique(builder::openTelemetry);
        List<Toolset> toolsets =
                mcp.getToolsets().stream().map(Toolset::fromWireName).toList();
        builder.toolsets(toolsets)
                .allowedHosts(mcp.getAllowedHosts().toArray(String[]::new))
                .allowedOrigins(mcp.getAllowedOrigins().toArray(String[]::new));
        if (mcp.hasToken()) {
            builder.token(mcp.getToken());
        }
        return builder;
    }
}
