package dev.taskagent.mcp;

import jakarta.servlet.http.HttpServlet;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The embedded Jetty that serves the MCP servlet at {@code /mcp} on one address and port.
 *
 * <p>Not thread-safe: started and stopped by its {@link TaskMcpServer}.
 */
final class JettyHttp {
    static final String PATH = "/mcp";

    private final Server server;
    private final ServerConnector connector;

    JettyHttp(String host, int port, HttpServlet servlet) {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("taskagent-mcp-http");
        this.server = new Server(threads);
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendServerVersion(false);
        configuration.setSendXPoweredBy(false);
        this.connector = new ServerConnector(server, new HttpConnectionFactory(configuration));
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder holder = new ServletHolder("mcp", servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, PATH);
        server.setHandler(context);
        server.setStopTimeout(1_000);
    }

    void start() throws Exception {
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    /** Stops; requests still open after the grace period (streams of clients that stay) are cut. */
    void stop() throws Exception {
        try {
            server.stop();
        } catch (TimeoutException e) {
            // Jetty stopped every component; only the graceful wait for open requests ran out.
        }
        server.join();
    }
}
