package dev.taskagent;

import java.util.Objects;

/**
 * A server (the MCP server's HTTP transport, the task board) could not listen because another process
 * already listens on its address and port. The message names the address and port and the setting that
 * changes them; {@link #host()} and {@link #port()} let a caller say the same in its own terms.
 *
 * <p>Immutable and thread-safe.
 */
public final class AddressInUseException extends TaskAgentException {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;

    /**
     * Creates the exception.
     *
     * @param message what was in use, and which setting changes it
     * @param host the address that could not be listened on
     * @param port the port that could not be listened on
     * @param cause the JDK's or the server's bind failure
     */
    public AddressInUseException(String message, String host, int port, Throwable cause) {
        super(message, cause);
        this.host = Objects.requireNonNull(host, "host");
        this.port = port;
    }

    /**
     * Returns the address that could not be listened on.
     *
     * @return the address, as configured
     */
    public String host() {
        return host;
    }

    /**
     * Returns the port that could not be listened on.
     *
     * @return the port, as configured
     */
    public int port() {
        return port;
    }
}
