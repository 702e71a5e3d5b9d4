package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.mcp.TaskMcpServer;
import java.net.URI;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;

/**
 * Runs taskagent's MCP server over HTTP while the application context runs: started after the context
 * refreshed, closed when it closes. Thread-safe.
 */
public final class McpServerLifecycle implements SmartLifecycle {
    private final Supplier<TaskMcpServer> servers;
    private TaskMcpServer server;

    /**
     * Creates the lifecycle; nothing listens before {@link #start()}.
     *
     * @param servers builds a new, unstarted server for each start
     */
    public McpServerLifecycle(Supplier<TaskMcpServer> servers) {
        this.servers = Objects.requireNonNull(servers, "servers");
    }

    /** Starts the server. Idempotent. */
    @Override
    public synchronized void start() {
        if (server == null) {
            server = servers.get().start();
        }
    }

    /** Closes the server. Idempotent. */
    @Override
    public synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** @return whether the server listens */
    @Override
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Returns where clients reach the server.
     *
     * @return the URL of its {@code /mcp} endpoint
     * @throws IllegalStateException if the server is not running
     */
    public synchronized URI endpoint() {
        if (server == null) {
            throw new IllegalStateException("The MCP server is not running");
        }
        return server.endpoint();
    }

    @Override
    public synchronized String toString() {
        return "McpServerLifecycle[" + (server == null ? "stopped" : server.endpoint()) + "]";
    }
}
