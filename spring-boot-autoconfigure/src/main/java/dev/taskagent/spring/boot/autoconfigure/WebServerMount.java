package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.internal.SettingRules;
import java.net.URI;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Where a taskagent service (the task board, the MCP server) is served on the application's own web server:
 * its path, and once the web server runs, its address, which it logs at INFO when the application has
 * started. Thread-safe.
 */
public final class WebServerMount implements ApplicationListener<ApplicationStartedEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(WebServerMount.class);

    private final String name;
    private final String path;
    private final Environment environment;

    /**
     * Describes a mount.
     *
     * @param name what is served, e.g. {@code taskagent task board}, for the log
     * @param path its path after the context path, e.g. {@code /taskagent/board/}
     * @param environment the application's, which holds the web server's port once it runs
     */
    public WebServerMount(String name, String path, Environment environment) {
        this.name = Objects.requireNonNull(name, "name");
        this.path = Objects.requireNonNull(path, "path");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /**
     * Whether the application's web server listens on loopback addresses only ({@code server.address} names
     * one): then nobody on another machine reaches what is mounted on it.
     *
     * @param environment the application's
     * @return false when {@code server.address} is not set (every interface) or is not a loopback address
     */
    static boolean loopbackOnly(Environment environment) {
        String address = environment.getProperty("server.address");
        return address != null && !address.isBlank() && SettingRules.isLoopback(address);
    }

    /** @return the path after the context path */
    public String path() {
        return path;
    }

    /**
     * Returns the address of the service on the running web server, e.g. {@code
     * http://localhost:8080/taskagent/board/}.
     *
     * @return the address, with the web server's real port
     * @throws IllegalStateException if the web server does not run (yet)
     */
    public URI uri() {
        String port = environment.getProperty("local.server.port");
        if (port == null) {
            throw new IllegalStateException(
                    "The application's web server is not running, so " + name + " has no" + " address yet");
        }
        String address = environment.getProperty("server.address");
        String host = address == null
                        || address.isBlank()
                        || address.equals("0.0.0.0")
                        || address.equals("::")
                        || address.equals("[::]")
                ? "localhost"
                : address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
        String contextPath = environment.getProperty("server.servlet.context-path", "");
        if (contextPath.endsWith("/")) {
            contextPath = contextPath.substring(0, contextPath.length() - 1);
        }
        return URI.create(scheme() + "://" + host + ":" + port + contextPath + path);
    }

    private String scheme() {
        boolean ssl = environment.getProperty("server.ssl.enabled", Boolean.class, true)
                && (environment.containsProperty("server.ssl.bundle")
                        || environment.containsProperty("server.ssl.key-store")
                        || environment.containsProperty("server.ssl.certificate"));
        return ssl ? "https" : "http";
    }

    /** Logs the service's address, one line, once the application (and so its web server) has started. */
    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        if (environment.getProperty("local.server.port") != null) {
            LOG.info("{}: {}", name, uri());
        }
    }

    @Override
    public String toString() {
        return "WebServerMount[" + name + " at " + path + "]";
    }
}
