package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.mcp.TaskMcpServer;
import java.net.URI;
import java.util.function.Supplier;

/**
 * Runs taskagent's MCP server over HTTP while the application context runs: started after the context
 * refreshed, closed when it closes. Thread-safe.
 */
public final class McpServerLifecycle extends ContextBoundService<TaskMcpServer> {

    /**
     * Creates the lifecycle; nothing listens before {@link #start()}.
     *
     * @param servers builds a new, unstarted server for each start
     */
    public McpServerLifecycle(Supplier<TaskMcpServer> servers) {
        super(
                buildAndStart(
                        servers,
                        "servers",
                        logging(TaskMcpServer::start, "taskagent MCP server", TaskMcpServer::endpoint)),
                TaskMcpServer::close);
    }

    /** As {@link #McpServerLifecycle(Supplier)}; a port in use is reported naming {@code portProperty}. */
    McpServerLifecycle(Supplier<TaskMcpServer> servers, String portProperty) {
        super(
                buildAndStart(
                        servers,
                        "servers",
                        logging(
                                namingPortProperty(TaskMcpServer::start, portProperty),
                                "taskagent MCP server",
                                TaskMcpServer::endpoint)),
                TaskMcpServer::close);
    }

    /**
     * Returns where clients reach the server.
     *
     * @return the URL of its {@code /mcp} endpoint
     * @throws IllegalStateException if the server is not running
     */
    public URI endpoint() {
        return running("The MCP server").endpoint();
    }

    @Override
    public String toString() {
        TaskMcpServer server = runningOrNull();
        return "McpServerLifecycle[" + (server == null ? "stopped" : server.endpoint()) + "]";
    }
}
