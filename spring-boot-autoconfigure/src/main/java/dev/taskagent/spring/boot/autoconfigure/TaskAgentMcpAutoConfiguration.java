package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.mcp.TaskMcpServer;
import dev.taskagent.mcp.Toolset;
import dev.taskagent.queue.TaskQueue;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * taskagent's MCP server over Streamable HTTP, off unless {@code taskagent.mcp.enabled=true}; needs {@code
 * taskagent-mcp} on the class path and a {@link TaskQueue}. It listens on its own port ({@code
 * taskagent.mcp.port}), not the application's web server.
 */
@AutoConfiguration(after = TaskAgentAutoConfiguration.class)
@ConditionalOnClass(TaskMcpServer.class)
@ConditionalOnBooleanProperty(name = "taskagent.mcp.enabled")
@ConditionalOnSingleCandidate(TaskQueue.class)
@EnableConfigurationProperties(TaskAgentProperties.class)
public class TaskAgentMcpAutoConfiguration {

    /** Creates the configuration. */
    public TaskAgentMcpAutoConfiguration() {}

    /**
     * The server's lifecycle.
     *
     * @param queue the queue the tools work on
     * @param properties the starter's properties
     * @return the lifecycle, started by the context
     */
    @Bean
    @ConditionalOnMissingBean
    public McpServerLifecycle taskAgentMcpServer(TaskQueue queue, TaskAgentProperties properties) {
        TaskAgentProperties.Mcp mcp = properties.getMcp();
        List<Toolset> toolsets =
                mcp.getToolsets().stream().map(Toolset::fromWireName).toList();
        // Built now, so that a refused setting fails the context's start rather than its first request.
        TaskMcpServer.Builder builder =
                TaskMcpServer.builder(queue).toolsets(toolsets).http(mcp.getBindAddress(), mcp.getPort());
        if (mcp.getToken() != null) {
            builder.token(mcp.getToken());
        }
        builder.build();
        return new McpServerLifecycle(builder::build, mcp.names().port());
    }
}
