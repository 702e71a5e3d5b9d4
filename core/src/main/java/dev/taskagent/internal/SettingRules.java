package dev.taskagent.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules of the settings that the library's servers (the MCP server's HTTP transport, the task board)
 * and its lease reaper share, with their messages, in one place. The builders, the runnable jar's command
 * line and the Spring Boot properties each name a setting their own way ({@code token(...)}, {@code
 * --token}, {@code taskagent.mcp.token}), so each rule takes the names of the caller's front end and returns
 * the message in its words, or nothing when the value is fine. The rules of the {@code Host} and {@code
 * Origin} headers and of the allowed hosts and origins are {@link OriginRules}'.
 *
 * <p>Stateless and thread-safe.
 */
public final class SettingRules {
    /** The address a server listens on unless told otherwise: loopback, reachable from this machine only. */
    public static final String LOOPBACK_ADDRESS = "127.0.0.1";

    /** The shortest token accepted: shorter ones are guessable. */
    public static final int MIN_TOKEN_LENGTH = 16;

    /** The shortest pause between two rounds of a lease reaper. */
    public static final Duration MIN_RECLAIM_INTERVAL = Duration.ofMillis(10);

    /** The longest pause between two rounds of a lease reaper. */
    public static final Duration MAX_RECLAIM_INTERVAL = Duration.ofDays(1);

    private SettingRules() {}

    /**
     * How one front end names a server's settings, as its user writes them.
     *
     * @param address where the address is set, e.g. {@code bind(address, port)} or {@code
     *     taskagent.dashboard.bind-address}
     * @param port where the port is set, e.g. {@code --http [HOST:]PORT} or {@code taskagent.mcp.port}
     * @param token where the token is set, e.g. {@code token(...)} or {@code --token}
     */
    public record ServerNames(String address, String port, String token) {
        /**
         * Checks that every name is there.
         *
         * @param address where the address is set
         * @param port where the port is set
         * @param token where the token is set
         */
        public ServerNames {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(port, "port");
            Objects.requireNonNull(token, "token");
        }
    }

    /**
     * Checks the address to listen on: it must not be blank.
     *
     * @param address the address, or null
     * @param names the front end's names
     * @return the problem, or empty
     */
    public static Optional<String> addressProblem(String address, ServerNames names) {
        if (address == null || address.isBlank()) {
            return Optional.of("The address to listen on is blank: set " + names.address() + " to " + LOOPBACK_ADDRESS
                    + " (this machine only) or another address with a token");
        }
        return Optional.empty();
    }

    /**
     * Checks the port to listen on: 0-65535, where 0 lets the system choose.
     *
     * @param port the port
     * @param names the front end's names
     * @return the problem, or empty
     */
    public static Optional<String> portProblem(int port, ServerNames names) {
        if (port < 0 || port > 65_535) {
            return Optional.of(
                    "Port " + port + " is out of range: set " + names.port() + " to 0-65535 (0 picks a free port)");
        }
        return Optional.empty();
    }

    /**
     * Checks a token: at least {@value #MIN_TOKEN_LENGTH} characters, no white space. The message never
     * shows the token.
     *
     * @param token the token, or null for none (which is fine here; see {@link #exposureProblem})
     * @param names the front end's names
     * @return the problem, or empty
     */
    public static Optional<String> tokenProblem(String token, ServerNames names) {
        if (token != null && (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(Character::isWhitespace))) {
            return Optional.of(names.token() + " must have at least " + MIN_TOKEN_LENGTH
                    + " characters and no white space (got " + token.length() + " characters)");
        }
        return Optional.empty();
    }

    /**
     * Checks that a server reachable from other machines has a token: any address but a loopback one
     * needs one.
     *
     * @param address the address to listen on
     * @param hasToken whether a token is set
     * @param names the front end's names
     * @return the problem, or empty
     */
    public static Optional<String> exposureProblem(String address, boolean hasToken, ServerNames names) {
        if (!hasToken && address != null && !address.isBlank() && !isLoopback(address)) {
            return Optional.of("Listening on " + address.strip() + ", which is not a loopback address, needs a token:"
                    + " set " + names.token() + " (at least " + MIN_TOKEN_LENGTH + " characters), or listen on "
                    + LOOPBACK_ADDRESS + " with " + names.address());
        }
        return Optional.empty();
    }

    /**
     * Checks that a task board whose actions are on has a token, which every action must carry.
     *
     * @param actionsEnabled whether the actions are on
     * @param hasToken whether a token is set
     * @param names the front end's names
     * @param actionsOff how the front end leaves the actions off, e.g. {@code call actionsEnabled(false)}
     * @return the problem, or empty
     */
    public static Optional<String> actionsProblem(
            boolean actionsEnabled, boolean hasToken, ServerNames names, String actionsOff) {
        if (actionsEnabled && !hasToken) {
            return Optional.of("Actions need a token: set " + names.token() + " (at least " + MIN_TOKEN_LENGTH
                    + " characters), which every action must carry in its Authorization header, or " + actionsOff);
        }
        return Optional.empty();
    }

    /**
     * Says that a server could not listen as another process holds its address and port.
     *
     * @param address the address
     * @param port the port
     * @param portSetting where the front end sets the port, e.g. {@code --http [HOST:]PORT}
     * @return the message
     */
    public static String addressInUse(String address, int port, String portSetting) {
        String host = address.contains(":") ? "[" + address + "]" : address;
        return host + ":" + port + " is already in use: choose another port with " + portSetting
                + " (0 picks a free port), or stop the process that listens there";
    }

    /**
     * Checks the pause between two rounds of a lease reaper: {@link #MIN_RECLAIM_INTERVAL} to {@link
     * #MAX_RECLAIM_INTERVAL}.
     *
     * @param interval the pause, or null
     * @param name where the front end sets it, e.g. {@code reclaimInterval(...)} or {@code
     *     taskagent.reaper.reclaim-interval}
     * @return the problem, or empty
     */
    public static Optional<String> reclaimIntervalProblem(Duration interval, String name) {
        if (interval == null
                || interval.compareTo(MIN_RECLAIM_INTERVAL) < 0
                || interval.compareTo(MAX_RECLAIM_INTERVAL) > 0) {
            return Optional.of(name + " must be between 10ms and 1d, was " + interval);
        }
        return Optional.empty();
    }

    /**
     * Whether an address is a loopback address; a name that does not resolve is not.
     *
     * @param address an address or host name
     * @return true for e.g. {@code 127.0.0.1}, {@code ::1}, {@code localhost}
     */
    public static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address.strip()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * Whether a bind failure means that another process holds the address and port (rather than, say,
     * an address this machine does not have).
     *
     * @param failure what starting the server threw
     * @return true if a {@link java.net.BindException} saying so is in its causes
     */
    public static boolean isAddressInUse(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.BindException
                    && cause.getMessage() != null
                    && cause.getMessage().toLowerCase(java.util.Locale.ROOT).contains("in use")) {
                return true;
            }
        }
        return false;
    }
}
