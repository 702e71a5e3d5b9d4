package dev.taskagent;

import dev.taskagent.internal.SettingRules;
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

    /** The address that could not be listened on. */
    private final String host;

    /** The port that could not be listened on. */
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
     * Says what {@link #getMessage()} says, naming another setting that changes the port: the one a
     * command line or a configuration file uses, e.g. {@code --dashboard PORT}.
     *
     * @param portSetting where the caller's user sets the port
     * @return e.g. {@code 127.0.0.1:8080 is already in use: choose another port with --dashboard PORT (0
     *     picks a free port), or stop the process that listens there}
     */
    public String messageNaming(String portSetting) {
        return SettingRules.addressInUse(host, port, Objects.requireNonNull(portSetting, "portSetting"));
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
