package dev.taskagent.dashboard;

import com.sun.net.httpserver.HttpServer;
import dev.taskagent.AddressInUseException;
import dev.taskagent.event.EventFeed;
import dev.taskagent.internal.OriginRules;
import dev.taskagent.internal.SettingRules;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The live task board: serves a page of task cards, a JSON API and a stream of server-sent events fed by
 * the store's {@linkplain TaskStore#eventFeed() event feed}, on the JDK's own HTTP server.
 *
 * <pre>{@code
 * try (TaskDashboard board = TaskDashboard.builder(store).build().start()) {
 *     System.out.println("Task board: " + board.uri());
 *     ...
 * }
 * }</pre>
 *
 * <p>Security defaults: it listens on {@value #DEFAULT_HOST} unless told otherwise, and any other address
 * needs a {@linkplain Builder#token(String) token}, which every API request then carries as {@code
 * Authorization: Bearer <token>}. While it listens on loopback, requests whose {@code Host} header does not
 * name a loopback host are refused (421), which stops DNS rebinding; the MCP server applies the same Host
 * and Origin rules. It is read-only unless {@linkplain Builder#actionsEnabled(boolean) actions} are enabled,
 * which needs a token; each action is guarded by the task's version. Every response carries a strict Content-Security-Policy, and the page builds its content as text,
 * never as HTML.
 *
 * <p>To serve the board from the application's own web server instead, under a path of its own, {@link
 * Builder#buildServlet()} returns a servlet that answers the same requests through the same handler, with the
 * same checks.
 *
 * <p>Thread-safe. Start it once; {@link #close()} stops it.
 */
public final class TaskDashboard implements AutoCloseable {

    /** The address the board listens on unless the builder binds another. */
    public static final String DEFAULT_HOST = SettingRules.LOOPBACK_ADDRESS;

    /** The port the board listens on unless the builder binds another. */
    public static final int DEFAULT_PORT = 8080;

    /** The shortest token accepted: shorter ones are guessable. */
    public static final int MIN_TOKEN_LENGTH = SettingRules.MIN_TOKEN_LENGTH;

    /** How often an idle event stream sends a heartbeat unless the builder says otherwise. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    /** How long a write to an event stream may block before its client counts as gone. */
    static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(10);

    /** How many event streams may be open at once unless the builder says otherwise. */
    public static final int DEFAULT_MAX_EVENT_CLIENTS = 32;

    /** How many connections may be served at once (each holds a thread) unless the builder says otherwise. */
    public static final int DEFAULT_MAX_CONNECTIONS = 64;

    /** How long a client may take to send its request unless the builder says otherwise. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How the builder's settings are named in its messages. */
    private static final SettingRules.ServerNames NAMES =
            new SettingRules.ServerNames("bind(address, port)", "bind(address, port)", "token(...)");

    private final Settings settings;
    private final Object lifecycle = new Object();
    private HttpServer server;
    private ExchangeExecutor executor;
    private EventStream events;
    private boolean started;
    private boolean closed;

    private TaskDashboard(Settings settings) {
        this.settings = settings;
    }

    /**
     * Starts a builder of a board of this store's tasks, through a queue with the default settings: a task
     * without a limit of its own counts as a dead letter after {@value TaskQueue#DEFAULT_MAX_ATTEMPTS} attempts.
     * When the application's queue has another {@linkplain TaskQueue.Builder#maxAttempts(int) default}, or
     * listeners that should hear of the board's actions, use {@link #builder(TaskQueue)}.
     *
     * @param store the store whose tasks the board shows; the board does not close it
     * @return a builder with the defaults: {@value #DEFAULT_HOST}:{@value #DEFAULT_PORT}, no token, read-only
     * @throws NullPointerException if {@code store} is null
     */
    public static Builder builder(TaskStore store) {
        return new Builder(
                TaskQueue.builder(Objects.requireNonNull(store, "store")).build());
    }

    /**
     * Starts a builder of a board of the tasks of this queue's store, through the queue: its dead letters ({@link
     * TaskQueue#deadLetters(int, String)}, {@link
     * TaskQueue#isDeadLetter(dev.taskagent.task.Task)}) are the board's, by the queue's
     * {@linkplain TaskQueue#maxAttempts() default attempt limit}, and the board's actions write through it, so
     * that its listeners hear of them.
     *
     * @param queue the application's queue; the board shows every session of its {@linkplain TaskQueue#store()
     *     store}, not only the queue's own session, and does not close the store
     * @return a builder with the defaults: {@value #DEFAULT_HOST}:{@value #DEFAULT_PORT}, no token, read-only
     * @throws NullPointerException if {@code queue} is null
     */
    public static Builder builder(TaskQueue queue) {
        return new Builder(Objects.requireNonNull(queue, "queue"));
    }

    /**
     * Starts listening and subscribes to the store's event feed (when the store has one; without it the
     * page refreshes by polling).
     *
     * @return this board
     * @throws AddressInUseException if another process listens on the address and port (the message names
     *     them)
     * @throws IllegalStateException if it was started before or closed, or the address cannot be bound for
     *     another reason
     */
    public TaskDashboard start() {
        synchronized (lifecycle) {
            if (started || closed) {
                throw new IllegalStateException("The task board was already started" + (closed ? " and closed" : ""));
            }
            started = true;
            EventFeed feed = feedOf(settings.store());
            executor = new ExchangeExecutor(settings.maxConnections(), settings.requestTimeout());
            events = new EventStream(feed, settings.heartbeat(), settings.stallTimeout(), settings.maxEventClients());
            try {
                server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 64);
            } catch (IOException e) {
                executor.close();
                if (SettingRules.isAddressInUse(e)) {
                    throw new AddressInUseException(
                            SettingRules.addressInUse(settings.host(), settings.port(), NAMES.port()),
                            settings.host(),
                            settings.port(),
                            e);
                }
                throw new IllegalStateException(
                        "Could not listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage()
                                + "; choose another port, or port 0 for any free one",
                        e);
            }
            server.setExecutor(executor);
            server.createContext("/", new BoardHttp(settings, events, executor::requestRead));
            events.start();
            server.start();
            return this;
        }
    }

    /**
     * Returns the port the board listens on, which the system chose when the builder asked for port 0.
     *
     * @return the port
     * @throws IllegalStateException if the board is not started
     */
    public int port() {
        synchronized (lifecycle) {
            if (server == null) {
                throw new IllegalStateException("The task board is not started");
            }
            return server.getAddress().getPort();
        }
    }

    /**
     * Returns the page's address, e.g. {@code http://127.0.0.1:8080/}. With a token, open it as {@code
     * uri() + "#token=" + token}: the page keeps the token out of the URL it sends and out of the history.
     *
     * @return the address of the page
     * @throws IllegalStateException if the board is not started
     */
    public URI uri() {
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        if ("0.0.0.0".equals(host) || "[::]".equals(host)) {
            host = "127.0.0.1";
        }
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** Stops the event streams, the feed subscription and the server. Idempotent. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (events != null) {
                events.close();
            }
            if (server != null) {
                server.stop(0);
            }
            if (executor != null) {
                executor.close();
            }
        }
    }

    /** How many event streams were dropped for not keeping up (for tests). */
    long droppedEventClients() {
        synchronized (lifecycle) {
            return events == null ? 0 : events.droppedClients();
        }
    }

    /** How many connections were closed for not sending their request in time (for tests). */
    long timedOutConnections() {
        synchronized (lifecycle) {
            return executor == null ? 0 : executor.timedOutConnections();
        }
    }

    /** How many connections lost their place to a newcomer while sending their request (for tests). */
    long displacedConnections() {
        synchronized (lifecycle) {
            return executor == null ? 0 : executor.displacedConnections();
        }
    }

    /** How many event streams are open (for tests). */
    int openEventStreams() {
        synchronized (lifecycle) {
            return events == null ? 0 : events.openStreams();
        }
    }

    @Override
    public String toString() {
        return "TaskDashboard[" + settings.host() + ":" + settings.port() + ", actions="
                + (settings.actionsEnabled() ? "on" : "off") + ", token=" + (settings.token() == null ? "none" : "set")
                + "]";
    }

    static EventFeed feedOf(TaskStore store) {
        try {
            return store.eventFeed();
        } catch (UnsupportedOperationException e) {
            return null;
        }
    }

    /** What a built board was configured with; the store is the queue's. */
    record Settings(
            TaskQueue queue,
            String host,
            int port,
            String token,
            boolean actionsEnabled,
            List<String> allowedHosts,
            List<String> allowedOrigins,
            Duration heartbeat,
            Duration stallTimeout,
            int maxEventClients,
            int maxConnections,
            Duration requestTimeout,
            Clock clock) {

        /** @return the store whose tasks the board shows: the queue's */
        TaskStore store() {
            return queue.store();
        }
    }

    /**
     * Configures a {@link TaskDashboard}. Each setter checks its value at once; {@link #build()} checks the
     * rules between them.
     *
     * <p>Not thread-safe.
     */
    public static final class Builder {
        private final TaskQueue queue;
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private boolean bound;
        private String token;
        private boolean actionsEnabled;
        private final List<String> allowedHosts = new ArrayList<>();
        private final List<String> allowedOrigins = new ArrayList<>();
        private Duration heartbeat = DEFAULT_HEARTBEAT;
        private Duration stallTimeout = DEFAULT_STALL_TIMEOUT;
        private int maxEventClients = DEFAULT_MAX_EVENT_CLIENTS;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Clock clock = Clock.systemUTC();

        private Builder(TaskQueue queue) {
            this.queue = queue;
        }

        /**
         * Listens on this address and port. An address that is not a loopback address needs a {@linkplain
         * #token(String) token}.
         *
         * @param address e.g. {@value #DEFAULT_HOST} (the default) or {@code 0.0.0.0}
         * @param portNumber 0-65535; 0 lets the system choose (see {@link TaskDashboard#port()})
         * @return this builder
         * @throws NullPointerException if {@code address} is null
         * @throws IllegalArgumentException if the address is blank or the port out of range
         */
        public Builder bind(String address, int portNumber) {
            Objects.requireNonNull(address, "address");
            SettingRules.addressProblem(address, NAMES).ifPresent(Builder::refuse);
            SettingRules.portProblem(portNumber, NAMES).ifPresent(Builder::refuse);
            host = address.strip();
            port = portNumber;
            bound = true;
            return this;
        }

        /**
         * Requires every API request and event stream to carry {@code Authorization: Bearer <token>}; others
         * get 401. The page itself (which holds no data) is served without it.
         *
         * @param value at least {@value #MIN_TOKEN_LENGTH} characters, no white space
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if the token is too short or holds white space
         */
        public Builder token(String value) {
            Objects.requireNonNull(value, "token");
            SettingRules.tokenProblem(value, NAMES).ifPresent(Builder::refuse);
            token = value;
            return this;
        }

        private static void refuse(String problem) {
            throw new IllegalArgumentException(problem);
        }

        /**
         * Turns the actions on or off: requeue a failed task, archive a task, move a task to another agent. Off
         * unless set; on needs a {@linkplain #token(String) token}, which each action must carry in its {@code
         * Authorization} header (never a cookie, so that another site's page cannot trigger one). The Spring
         * Boot property is {@code taskagent.dashboard.actions-enabled}.
         *
         * @param value whether the actions are on
         * @return this builder
         */
        public Builder actionsEnabled(boolean value) {
            actionsEnabled = value;
            return this;
        }

        /**
         * Turns the actions on.
         *
         * @return this builder
         * @deprecated the builder, the servlet it builds and the Spring property name it {@link
         *     #actionsEnabled(boolean)}; this calls {@code actionsEnabled(true)}
         */
        @Deprecated
        public Builder enableActions() {
            return actionsEnabled(true);
        }

        /**
         * Also accepts these {@code Host} headers, e.g. {@code board.internal:8080}; {@code name:*} allows any
         * port. On a non-loopback address, naming hosts turns Host validation on.
         *
         * @param hosts host names with their port
         * @return this builder
         * @throws NullPointerException if a host is null
         * @throws IllegalArgumentException if a host is not a host and an optional port (or {@code :*})
         */
        public Builder allowedHosts(String... hosts) {
            for (String name : hosts) {
                Objects.requireNonNull(name, "host");
                OriginRules.allowedHostProblem(name, "allowedHosts(...)").ifPresent(Builder::refuse);
                allowedHosts.add(name.strip());
            }
            return this;
        }

        /**
         * Names the origins at which users reach the board when it is not its own address, e.g. {@code
         * https://board.example.com} behind a TLS-terminating reverse proxy; {@code https://name:*} allows any
         * port. A request whose {@code Origin} header is one of them is accepted (besides {@code http://} and
         * its {@code Host}), and their host names are accepted {@code Host} headers. Nothing a request says (no
         * {@code X-Forwarded-Proto} or {@code Forwarded} header) widens this: only the origins named here. The
         * MCP server's builder takes the same origins by the same rules.
         *
         * @param origins {@code https://name} or {@code http://name}, with a port where it is not the default
         *     (or {@code :*}), without a path
         * @return this builder
         * @throws NullPointerException if an origin is null
         * @throws IllegalArgumentException if an origin is not a scheme, a host and an optional port
         */
        public Builder allowedOrigins(String... origins) {
            for (String origin : origins) {
                Objects.requireNonNull(origin, "origin");
                OriginRules.allowedOriginProblem(origin, "allowedOrigins(...)").ifPresent(Builder::refuse);
                allowedOrigins.add(origin.strip());
            }
            return this;
        }

        /**
         * Names the origins at which users reach the board when it is not its own address.
         *
         * @param origins the origins
         * @return this builder
         * @throws IllegalArgumentException if an origin is not a scheme, a host and an optional port
         * @deprecated the MCP server's builder and this one name it {@link #allowedOrigins(String...)}; this
         *     calls it
         */
        @Deprecated
        public Builder publicOrigins(String... origins) {
            return allowedOrigins(origins);
        }

        /**
         * Sets how often an idle event stream sends a heartbeat comment, so that proxies keep it open and
         * the page notices a dead connection.
         *
         * @param value the interval, 10 ms to 5 minutes; 15 s unless set
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder heartbeatInterval(Duration value) {
            Objects.requireNonNull(value, "heartbeatInterval");
            if (value.compareTo(Duration.ofMillis(10)) < 0 || value.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException("heartbeatInterval must be 10 ms to 5 minutes, was " + value);
            }
            heartbeat = value;
            return this;
        }

        /** Sets how long a write to an event stream may block before its client is dropped (for tests). */
        Builder stallTimeout(Duration value) {
            stallTimeout = Objects.requireNonNull(value, "stallTimeout");
            return this;
        }

        /**
         * Limits how many event streams may be open at once; more get 503. Each holds one of the {@linkplain
         * #maxConnections(int) connections}, so it must stay below that limit.
         *
         * @param value 1-10,000; {@value #DEFAULT_MAX_EVENT_CLIENTS} unless set
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxEventClients(int value) {
            if (value < 1 || value > 10_000) {
                throw new IllegalArgumentException("maxEventClients must be 1-10000, was " + value);
            }
            maxEventClients = value;
            return this;
        }

        /**
         * Limits how many connections the board serves at once: reading a request, answering it, or streaming
         * events. Each holds a thread, so this bounds the board's threads. A connection beyond the limit takes
         * the place of the one that has been sending its request the longest, which is closed; when every
         * place is answering a request, the newcomer is closed instead. Idle keep-alive connections hold no
         * thread and do not count.
         *
         * @param value 2-10,000; {@value #DEFAULT_MAX_CONNECTIONS} unless set; above {@link
         *     #maxEventClients(int)}
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxConnections(int value) {
            if (value < 2 || value > 10_000) {
                throw new IllegalArgumentException("maxConnections must be 2-10000, was " + value);
            }
            maxConnections = value;
            return this;
        }

        /**
         * Sets how long a client may take to send its request (the request line, the headers and the body),
         * from its first bytes; a connection still sending after that is closed, before any token check. An
         * event stream, once its request is read, is not limited by this.
         *
         * @param value 100 ms to 5 minutes; 10 s unless set
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if out of range
         */
        public Builder requestTimeout(Duration value) {
            Objects.requireNonNull(value, "requestTimeout");
            if (value.compareTo(Duration.ofMillis(100)) < 0 || value.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException("requestTimeout must be 100 ms to 5 minutes, was " + value);
            }
            requestTimeout = value;
            return this;
        }

        /**
         * Sets the clock whose time the API reports as {@code now}, against which the page counts leases down.
         *
         * @param value the clock; the system's (UTC) unless set
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Builds the board; {@link TaskDashboard#start()} starts it.
         *
         * @return the board, not started
         * @throws IllegalStateException if a non-loopback address has no token, if
         *     actions were enabled without a token, or if the event streams could take every connection
         */
        public TaskDashboard build() {
            SettingRules.exposureProblem(host, token != null, NAMES).ifPresent(problem -> {
                throw new IllegalStateException(problem);
            });
            checkActions();
            if (maxEventClients >= maxConnections) {
                throw new IllegalStateException("maxEventClients (" + maxEventClients + ") must be below"
                        + " maxConnections (" + maxConnections + "): each event stream holds a connection, and the"
                        + " page needs more for its requests; raise maxConnections(...) or lower"
                        + " maxEventClients(...)");
            }
            return new TaskDashboard(settings());
        }

        /**
         * Builds the board as a servlet for the application's own web server (a servlet container), which
         * serves it under a path of the application's choosing instead of a port of the board's own. The servlet
         * answers the same requests as {@link #build()}'s server through the same handler: the same Host, Origin
         * and token checks, security headers, read-only unless {@linkplain #actionsEnabled(boolean) actions} are
         * enabled, live updates through the event stream (one container thread per open stream, at most {@link
         * #maxEventClients(int)}).
         *
         * <p>Register it for {@code <path>/*} (e.g. {@code /taskagent/board/*}); the page is at {@code
         * <path>/}, and a request for {@code <path>} itself is redirected there. It accepts only {@code Host}
         * headers that name a loopback host, a host given to {@link #allowedHosts(String...)} or the host of a
         * {@linkplain #allowedOrigins(String...) allowed origin}. It cannot know on which addresses the container
         * listens: set a {@linkplain #token(String) token} whenever that is not loopback only, unless something
         * else (e.g. Spring Security) guards the path. The container's own limits (threads, request timeouts)
         * apply in place of {@link #maxConnections(int)} and {@link #requestTimeout(Duration)}. Its {@code
         * init} subscribes to the store's event feed, its {@code destroy} ends the streams (not the store).
         *
         * @return the servlet, not yet initialized by its container
         * @throws IllegalStateException if {@link #bind(String, int)} was called (the container listens), or
         *     actions were enabled without a token
         */
        public TaskDashboardServlet buildServlet() {
            if (bound) {
                throw new IllegalStateException("buildServlet() serves through the application's web server, which"
                        + " chooses the address and port: do not call bind(address, port)");
            }
            checkActions();
            return new TaskDashboardServlet(settings());
        }

        private void checkActions() {
            SettingRules.actionsProblem(actionsEnabled, token != null, NAMES, "call actionsEnabled(false)")
                    .ifPresent(problem -> {
                        throw new IllegalStateException(problem);
                    });
        }

        private Settings settings() {
            return new Settings(
                    queue,
                    host,
                    port,
                    token,
                    actionsEnabled,
                    List.copyOf(allowedHosts),
                    List.copyOf(allowedOrigins),
                    heartbeat,
                    stallTimeout,
                    maxEventClients,
                    maxConnections,
                    requestTimeout,
                    clock);
        }
    }
}
