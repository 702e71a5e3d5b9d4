package dev.taskagent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.AddressInUseException;
import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.internal.OriginRules;
import dev.taskagent.internal.SettingRules;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An MCP server that serves taskagent's tools, so that agents in any language (Claude Code, Claude
 * Desktop, Cursor, Python and TypeScript agents) share one task queue with the Java application. Built
 * on the official MCP Java SDK; speaks stdio or Streamable HTTP at {@code /mcp}.
 *
 * <pre>{@code
 * try (TaskMcpServer server = TaskMcpServer.builder(store)
 *         .toolsets(Toolset.QUEUE, Toolset.TASKS)
 *         .bind("127.0.0.1", 8765)
 *         .build()
 *         .start()) {
 *     server.awaitTermination();
 * }
 * }</pre>
 *
 * <p>Security defaults: HTTP listens on a loopback address unless told otherwise, and any other address
 * needs a bearer token, checked on every request; requests whose Origin is not a loopback origin (or one
 * allowed explicitly) are refused with 403, and so are Host headers that do not name a loopback host
 * (421) while the server listens on loopback; request bodies are limited ({@value
 * #DEFAULT_MAX_REQUEST_BYTES} bytes unless set); an HTTP session without requests for {@link
 * #DEFAULT_SESSION_IDLE_TIMEOUT} ends, and at most {@value #DEFAULT_MAX_SESSIONS} sessions are live at once
 * (unless set: a new one beyond is refused with 503); the {@link Toolset#TASKFILE} toolset, which runs
 * commands, is served only when asked for.
 *
 * <p>On protocol revision 2026-07-28, a client that declares the Tasks extension ({@code
 * io.modelcontextprotocol/tasks}) gets {@code run_user_task} answered at once with an MCP task, which it
 * polls with {@code tasks/get} and may cancel with {@code tasks/cancel}; the MCP task is a task of the
 * store (session {@code mcp-tasks}), so it outlives the server and every server on the store reports it.
 * Other clients get the result synchronously.
 *
 * <p>On both revisions the store's tasks are also resources: {@code taskagent://tasks/{task_id}} and {@code
 * taskagent://sessions/{session_id}/tasks}, as Markdown, or as JSON with {@code .json} appended. Subscribers
 * ({@code resources/subscribe} on 2025-11-25, {@code subscriptions/listen} on 2026-07-28) are told of every
 * change the store's event feed carries, whichever process made it.
 *
 * <p>Each {@code tools/call} and {@code resources/read} is an OpenTelemetry SERVER span, a child of the
 * client's span when the request's {@code _meta} carries a {@code traceparent}, and a measurement of {@code
 * mcp.server.operation.duration}, in the OpenTelemetry semantic conventions for MCP; see {@link
 * Builder#openTelemetry(io.opentelemetry.api.OpenTelemetry)}.
 *
 * <p>To serve MCP from the application's own servlet container instead, {@link Builder#buildServlet()}
 * returns the servlet, with the same checks.
 *
 * <p>Thread-safe. The server does not close the store it was given.
 */
public final class TaskMcpServer implements AutoCloseable {
    /** The address HTTP listens on unless told otherwise. */
    public static final String DEFAULT_HOST = SettingRules.LOOPBACK_ADDRESS;

    /** The port of the runnable jar's HTTP server unless told otherwise. */
    public static final int DEFAULT_PORT = 8765;

    /**
     * The largest request body accepted unless set: 8 MiB, so that a call carrying a task's largest text
     * fits however a client encodes it. That text is 1 Mi UTF-16 characters; JSON may escape each as
     * {@code \\uXXXX}, 6 bytes (a character outside the BMP is two of them, 12 bytes), so 6 MiB plus the
     * envelope.
     */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;

    /** How long an HTTP session may go without a request before it ends, unless set: 30 minutes. */
    public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

    /** How many HTTP sessions may be live at once unless set. */
    public static final int DEFAULT_MAX_SESSIONS = 1_000;

    /** The shortest bearer token accepted: shorter ones are guessable. */
    public static final int MIN_TOKEN_LENGTH = SettingRules.MIN_TOKEN_LENGTH;

    /** How the builder's settings are named in its messages. */
    private static final SettingRules.ServerNames NAMES =
            new SettingRules.ServerNames("bind(address, port)", "bind(address, port)", "token(...)");

    /** The Taskfile tool that runs long, and so answers with a task when the client can take one. */
    private static final String RUN_USER_TASK = "run_user_task";

    /** Sent to clients in {@code initialize}: how the tools fit together, for the model. */
    static final String INSTRUCTIONS = "A task queue shared by several agents. Claim your next task with"
            + " signup_for_task, finish it with complete_task naming the attempt the claim gave you, or hand it"
            + " to another agent with move_task and a comment.";

    /**
     * The revisions a 2025-11-25 request's header may name in its span and metric: the SDK's servlet does not
     * check the header, and a value the client made up must not become a metric series.
     */
    private static final Set<String> CLASSIC_REVISIONS = Set.of(
            ProtocolVersions.MCP_2024_11_05,
            ProtocolVersions.MCP_2025_03_26,
            ProtocolVersions.MCP_2025_06_18,
            ProtocolVersions.MCP_2025_11_25);

    /** The builder's settings, copied: a built server does not change with its builder. */
    private record Settings(
            boolean stdio,
            InputStream input,
            OutputStream output,
            String host,
            int port,
            String token,
            List<String> allowedOrigins,
            List<String> allowedHosts,
            int maxRequestBytes,
            Duration sessionIdleTimeout,
            int maxSessions,
            Clock clock,
            Duration reclaimInterval) {}

    private final Settings config;
    private final TaskQueue queue;
    private final Toolbox toolbox;
    private final McpJsonMapper jsonMapper = WireJson.mapper();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean mcpClosed = new AtomicBoolean();
    private final McpTools tools;
    private volatile McpSyncServer mcp;
    private volatile io.modelcontextprotocol.modern.server.McpServer stateless;
    private volatile JettyHttp http;
    private volatile StdioTransport stdio;
    private volatile LeaseReaper reaper;
    private volatile StoredToolTasks storedTasks;
    private final Set<String> taskTools;
    private final McpResources resources;

    private TaskMcpServer(Builder builder) {
        this.queue = builder.resolvedQueue();
        this.toolbox = builder.toolbox(queue);
        McpTelemetry telemetry = new McpTelemetry(
                builder.openTelemetry(), version(), builder.stdio ? McpTelemetry.PIPE : McpTelemetry.TCP);
        this.tools = new McpTools(toolbox, jsonMapper, telemetry);
        this.taskTools = Set.copyOf(builder.taskTools);
        this.resources = new McpResources(queue.store(), queue.sessionId(), telemetry);
        this.config = new Settings(
                builder.stdio,
                builder.input,
                builder.output,
                builder.host,
                builder.port,
                builder.token,
                List.copyOf(builder.allowedOrigins),
                List.copyOf(builder.allowedHosts),
                builder.maxRequestBytes,
                builder.sessionIdleTimeout,
                builder.maxSessions,
                builder.clock,
                builder.reclaimInterval);
    }

    /**
     * Starts configuring a server of the tasks of this store, through a queue with the default settings.
     *
     * @param store the store; the server does not close it
     * @return a builder
     * @throws NullPointerException if {@code store} is null
     */
    public static Builder builder(TaskStore store) {
        return new Builder(null, Objects.requireNonNull(store, "store"));
    }

    /**
     * Starts configuring a server of the tasks of this queue (its store, session, lease and listeners).
     *
     * @param queue the queue
     * @return a builder
     * @throws NullPointerException if {@code queue} is null
     */
    public static Builder builder(TaskQueue queue) {
        return new Builder(Objects.requireNonNull(queue, "queue"), null);
    }

    /**
     * Starts serving: listens on the HTTP address, or reads the stdio input, and starts the lease reaper
     * if one was asked for.
     *
     * @return this server
     * @throws AddressInUseException if another process listens on the HTTP address and port (the message
     *     names them)
     * @throws IllegalStateException if it was started before or closed, or the HTTP address cannot be
     *     listened on for another reason (the message names the address and the cause)
     */
    public TaskMcpServer start() {
        if (closed.get() || !started.compareAndSet(false, true)) {
            throw new IllegalStateException("The MCP server was already started" + (closed.get() ? " and closed" : ""));
        }
        if (config.reclaimInterval() != null) {
            reaper = LeaseReaper.builder(queue)
                    .reclaimInterval(config.reclaimInterval())
                    .threadName("taskagent-mcp-lease-reaper")
                    .start();
        }
        if (config.stdio()) {
            stateless = statelessServer();
            stdio = new StdioTransport(
                    jsonMapper, config.input(), config.output(), config.maxRequestBytes(), this::close, stateless);
            mcp = configure(McpServer.sync(stdio)).build();
            resources.start(this::notifyResourceUpdated);
        } else {
            JettyHttp jetty = new JettyHttp(config.host(), config.port(), servlet(config.host()));
            try {
                jetty.start();
            } catch (Exception e) {
                close();
                if (SettingRules.isAddressInUse(e)) {
                    throw new AddressInUseException(
                            SettingRules.addressInUse(config.host(), config.port(), NAMES.port()),
                            config.host(),
                            config.port(),
                            e);
                }
                throw new IllegalStateException(
                        "Could not listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
            }
            http = jetty;
        }
        return this;
    }

    /**
     * Returns the port HTTP listens on; the one the system chose when the builder asked for port 0.
     *
     * @return the port
     * @throws IllegalStateException if the server does not serve HTTP or is not started
     */
    public int port() {
        JettyHttp current = http;
        if (current == null) {
            throw new IllegalStateException("The MCP server serves no HTTP (stdio, or not started)");
        }
        return current.port();
    }

    /**
     * Returns the URL clients connect to.
     *
     * @return e.g. {@code http://127.0.0.1:8765/mcp}
     * @throws IllegalStateException if the server does not serve HTTP or is not started
     */
    public URI endpoint() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return URI.create("http://" + host + ":" + port() + JettyHttp.PATH);
    }

    /**
     * Names the tools the server serves.
     *
     * @return the names, in the order clients list them
     */
    public Set<String> toolNames() {
        return toolbox.names();
    }

    /**
     * Waits until the server stops: until {@link #close()} is called or, on stdio, the input ends.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Stops serving and the lease reaper; leaves the store open. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            LeaseReaper currentReaper = reaper;
            if (currentReaper != null) {
                currentReaper.close();
            }
            StdioTransport currentStdio = stdio;
            if (currentStdio != null) {
                currentStdio.close();
            }
            // Closing the MCP sessions first ends their open event streams, so that HTTP stops at once.
            closeMcp();
            JettyHttp currentHttp = http;
            if (currentHttp != null) {
                currentHttp.stop();
            }
        } catch (Exception e) {
            throw new IllegalStateException("Stopping the MCP server failed: " + e.getMessage(), e);
        } finally {
            terminated.countDown();
        }
    }

    private void closeMcp() {
        McpSyncServer current = mcp;
        if (current != null && mcpClosed.compareAndSet(false, true)) {
            resources.close();
            current.closeGracefully();
            io.modelcontextprotocol.modern.server.McpServer currentStateless = stateless;
            if (currentStateless != null) {
                currentStateless.closeGracefully();
            }
            StoredToolTasks currentTasks = storedTasks;
            if (currentTasks != null) {
                currentTasks.close();
            }
        }
    }

    /** The 2026-07-28 server, with the Tasks extension over the store. */
    private io.modelcontextprotocol.modern.server.McpServer statelessServer() {
        StoredToolTasks created = new StoredToolTasks(queue, tools, jsonMapper);
        storedTasks = created;
        return StatelessMcp.build(toolbox, tools, jsonMapper, version(), created, taskTools, resources);
    }

    /** Tells the 2025-11-25 sessions that subscribed to a resource that it changed. */
    private void notifyResourceUpdated(String uri) {
        McpSyncServer current = mcp;
        if (current != null && !mcpClosed.get()) {
            current.notifyResourcesUpdated(new McpSchema.ResourcesUpdatedNotification(uri));
        }
    }

    @Override
    public String toString() {
        return "TaskMcpServer[" + (config.stdio() ? "stdio" : "http " + config.host() + ":" + config.port())
                + ", tools=" + toolbox.names() + "]";
    }

    /** The gate servlet over the SDK's Streamable HTTP servlet, and the MCP server behind it. */
    private HttpServlet servlet(String host) {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(jsonMapper)
                .mcpEndpoint(JettyHttp.PATH)
                .httpHeaderValidator(securityValidator(host))
                .maxRequestSize(config.maxRequestBytes())
                // The revision of each request, for its span: the classic server does not tell its handlers.
                .contextExtractor(TaskMcpServer::protocolVersionContext)
                .build();
        McpSyncServer server =
                configure(McpServer.sync(transport)).immediateExecution(true).build();
        mcp = server;
        io.modelcontextprotocol.modern.server.McpServer statelessServer = statelessServer();
        stateless = statelessServer;
        HttpServlet statelessTransport = HttpServletMcpTransport.builder(statelessServer)
                .jsonMapper(jsonMapper)
                .endpoint(JettyHttp.PATH)
                .httpHeaderValidator(securityValidator(host))
                .maxRequestSize(config.maxRequestBytes())
                .build();
        resources.start(this::notifyResourceUpdated);
        HttpSessions sessions = new HttpSessions(config.clock(), config.sessionIdleTimeout(), config.maxSessions());
        return new HttpGate(transport, statelessTransport, config.token(), this::closeMcp, sessions, jsonMapper);
    }

    private static McpTransportContext protocolVersionContext(HttpServletRequest request) {
        String version = request.getHeader("MCP-Protocol-Version");
        return version == null || !CLASSIC_REVISIONS.contains(version)
                ? McpTransportContext.EMPTY
                : McpTransportContext.create(Map.of(McpTools.PROTOCOL_VERSION_KEY, version));
    }

    /** The Host and Origin checks of every request, by the rules the task board applies too. */
    private ServerHttpHeaderValidator securityValidator(String host) {
        OriginRules rules = OriginRules.of(
                host, config.allowedHosts(), config.allowedOrigins(), OriginRules.Callers.LOOPBACK_PAGES);
        return headers -> {
            String hostHeader = first(headers.getHeader("Host"));
            if (!rules.originAllowed(first(headers.getHeader("Origin")), hostHeader)) {
                throw new ServerTransportSecurityException(403, "Invalid Origin header");
            }
            if (!rules.hostAllowed(hostHeader)) {
                throw new ServerTransportSecurityException(421, "Invalid Host header");
            }
        };
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private McpServer.SyncSpecification<?> configure(McpServer.SyncSpecification<?> specification) {
        List<SyncToolSpecification> specifications = tools.specifications();
        return specification
                .serverInfo(
                        new McpSchema.Implementation("taskagent", "taskagent task queue", version(), null, null, null))
                .instructions(INSTRUCTIONS)
                .capabilities(resources.classicCapabilities())
                .jsonMapper(jsonMapper)
                .jsonSchemaValidator(new SchemaValidator(jsonMapper))
                // The tools check their own arguments and say, for the model, what to send instead.
                .validateToolInputs(false)
                .tools(specifications)
                .resources(resources.classicListed())
                .resourceTemplates(resources.classicTemplates());
    }

    private static String version() {
        String version = TaskMcpServer.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    /**
     * Configures a {@link TaskMcpServer}: the store, the toolsets, and the transport (stdio or HTTP), or
     * {@link #buildServlet()} for the application's own servlet container. Each setter checks its value;
     * {@link #build()} checks that they fit together.
     *
     * <p>Not thread-safe.
     */
    public static final class Builder {
        private final TaskStore store;
        private final TaskQueue queue;
        private final Set<Toolset> toolsets = EnumSet.noneOf(Toolset.class);
        private Path taskfileProject;
        /** The tools a client that declared the Tasks extension gets a task from: those that run long. */
        private final Set<String> taskTools = new LinkedHashSet<>(List.of(RUN_USER_TASK));

        private Toolbox extraTools = Toolbox.of(List.of());
        private boolean stdio;
        private InputStream input;
        private OutputStream output;
        private String host;
        private int port;
        private String token;
        private final List<String> allowedOrigins = new ArrayList<>();
        private final List<String> allowedHosts = new ArrayList<>();
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private Duration sessionIdleTimeout = DEFAULT_SESSION_IDLE_TIMEOUT;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private boolean sessionLimitsSet;
        private Clock clock = Clock.systemUTC();
        private Duration reclaimInterval;
        private OpenTelemetry openTelemetry;

        private Builder(TaskQueue queue, TaskStore store) {
            this.queue = queue;
            this.store = store;
        }

        /**
         * Chooses the toolsets to serve; {@link Toolset#QUEUE} unless set.
         *
         * @param values one or more toolsets
         * @return this builder
         * @throws IllegalArgumentException if none is given
         */
        public Builder toolsets(Toolset... values) {
            return toolsets(Arrays.asList(values));
        }

        /**
         * Chooses the toolsets to serve; {@link Toolset#QUEUE} unless set.
         *
         * @param values one or more toolsets
         * @return this builder
         * @throws IllegalArgumentException if none is given
         */
        public Builder toolsets(Collection<Toolset> values) {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("Choose at least one toolset: " + Arrays.toString(Toolset.values()));
            }
            values.forEach(value -> Objects.requireNonNull(value, "toolset"));
            toolsets.clear();
            toolsets.addAll(values);
            return this;
        }

        /**
         * Names the project whose {@code .agent/Taskfile.yml} the {@link Toolset#TASKFILE} toolset runs.
         *
         * @param value the project's root directory
         * @return this builder
         * @throws IllegalArgumentException if it is not a directory
         */
        public Builder taskfileProject(Path value) {
            Objects.requireNonNull(value, "taskfileProject");
            if (!Files.isDirectory(value)) {
                throw new IllegalArgumentException("The Taskfile project " + value + " is not a directory");
            }
            taskfileProject = value;
            return this;
        }

        /**
         * Speaks MCP on the process's standard input and output. Nothing else may write to standard
         * output then: log to standard error.
         *
         * @return this builder
         */
        public Builder stdio() {
            return stdio(System.in, System.out);
        }

        /**
         * Speaks MCP on these streams, one JSON-RPC message a line.
         *
         * @param in where client messages come from; its end ends the server
         * @param out where the server's messages go
         * @return this builder
         * @throws IllegalStateException if HTTP was chosen
         */
        public Builder stdio(InputStream in, OutputStream out) {
            if (host != null) {
                throw new IllegalStateException("Choose stdio or HTTP, not both");
            }
            input = Objects.requireNonNull(in, "in");
            output = Objects.requireNonNull(out, "out");
            stdio = true;
            return this;
        }

        /**
         * Serves Streamable HTTP at {@code /mcp} on this address and port, as the task board's builder binds
         * its own. An address that is not a loopback address needs a {@linkplain #token(String) token}.
         *
         * @param address the address to listen on, e.g. {@value #DEFAULT_HOST} or {@code 0.0.0.0}
         * @param portNumber 0-65535; 0 lets the system choose (see {@link TaskMcpServer#port()})
         * @return this builder
         * @throws IllegalArgumentException if the address is blank or the port out of range
         * @throws IllegalStateException if stdio was chosen
         */
        public Builder bind(String address, int portNumber) {
            Objects.requireNonNull(address, "address");
            SettingRules.addressProblem(address, NAMES).ifPresent(Builder::refuse);
            SettingRules.portProblem(portNumber, NAMES).ifPresent(Builder::refuse);
            if (stdio) {
                throw new IllegalStateException("Choose stdio or HTTP, not both");
            }
            host = address.strip();
            port = portNumber;
            return this;
        }

        /**
         * Serves Streamable HTTP at {@code /mcp} on this address and port.
         *
         * @param address the address to listen on
         * @param portNumber 0-65535; 0 lets the system choose
         * @return this builder
         * @throws IllegalArgumentException if the address is blank or the port out of range
         * @throws IllegalStateException if stdio was chosen
         * @deprecated the board's builder and this one name it {@link #bind(String, int)}; this calls it
         */
        @Deprecated
        public Builder http(String address, int portNumber) {
            return bind(address, portNumber);
        }

        /**
         * Requires every HTTP request to carry {@code Authorization: Bearer <token>}; refused requests get
         * 401.
         *
         * @param value at least {@value #MIN_TOKEN_LENGTH} characters, no white space
         * @return this builder
         * @throws IllegalArgumentException if the token is too short or has white space
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
         * Also accepts requests from these browser origins (besides loopback ones), e.g. {@code
         * https://board.example.com}; {@code http://host:*} allows any port. Their hosts are accepted {@code
         * Host} headers too. The task board applies the same rules.
         *
         * @param origins {@code http} or {@code https}, a host and an optional port (or {@code :*}), no path
         * @return this builder
         * @throws IllegalArgumentException if an origin is not one
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
         * Also accepts these {@code Host} headers, e.g. {@code tasks.internal:8765}; {@code name:*} allows
         * any port. On a non-loopback address, naming hosts turns Host validation on.
         *
         * @param hosts the host names, with their port
         * @return this builder
         * @throws IllegalArgumentException if a host is not a host and an optional port (or {@code :*})
         */
        public Builder allowedHosts(String... hosts) {
            for (String hostName : hosts) {
                Objects.requireNonNull(hostName, "host");
                OriginRules.allowedHostProblem(hostName, "allowedHosts(...)").ifPresent(Builder::refuse);
                allowedHosts.add(hostName.strip());
            }
            return this;
        }

        /**
         * Limits the size of one request body (HTTP) or message line (stdio); larger ones are refused (HTTP
         * 413, or a JSON-RPC error on stdio) and the server goes on.
         *
         * @param bytes the limit; {@value #DEFAULT_MAX_REQUEST_BYTES} unless set
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxRequestBytes(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxRequestBytes must be positive, was " + bytes);
            }
            maxRequestBytes = bytes;
            return this;
        }

        /**
         * Ends an HTTP session that has had no request for this long: the SDK would keep every session
         * until its client deletes it, and clients that vanish never do. A request in an ended session is
         * answered 404, which tells an MCP client to initialize a new one.
         *
         * @param timeout the idle time; {@link #DEFAULT_SESSION_IDLE_TIMEOUT} unless set
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder httpSessionIdleTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("The HTTP session idle timeout must be positive, was " + timeout);
            }
            sessionIdleTimeout = timeout;
            sessionLimitsSet = true;
            return this;
        }

        /**
         * Limits how many HTTP sessions are live at once; an {@code initialize} beyond the limit is refused
         * with 503 and a JSON-RPC error that says why, until a session is deleted or expires.
         *
         * @param sessions the limit; {@value #DEFAULT_MAX_SESSIONS} unless set
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxHttpSessions(int sessions) {
            if (sessions <= 0) {
                throw new IllegalArgumentException("maxHttpSessions must be positive, was " + sessions);
            }
            maxSessions = sessions;
            sessionLimitsSet = true;
            return this;
        }

        /**
         * Also serves these tools, after the toolsets' (tests serve the conformance suite's fixtures so);
         * the named ones answer a client that declared the Tasks extension with a task.
         */
        Builder extraTools(Toolbox tools, Set<String> asTasks) {
            extraTools = Objects.requireNonNull(tools, "tools");
            taskTools.addAll(asTasks);
            return this;
        }

        /** The clock of the sessions' idle times; the system's unless set (tests set their own). */
        Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Runs a {@link LeaseReaper} while the server runs, so that the tasks of agents that vanished
         * return to their queues. Off unless set: an application that embeds the server may run its own.
         *
         * @param value how often expired claims are reclaimed, 10 ms to 1 day, as {@link
         *     LeaseReaper.Builder#reclaimInterval(Duration)}
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder reclaimInterval(Duration value) {
            Objects.requireNonNull(value, "reclaimInterval");
            SettingRules.reclaimIntervalProblem(value, "reclaimInterval").ifPresent(Builder::refuse);
            reclaimInterval = value;
            return this;
        }

        /**
         * Sends the server's spans and its {@code mcp.server.operation.duration} metric to this OpenTelemetry,
         * in the OpenTelemetry semantic conventions for MCP (see the module's README, "Observability").
         * Unless set, the {@linkplain GlobalOpenTelemetry global} one as it is when the server is built (the
         * OpenTelemetry Java agent registers its own before the application starts), else a no-op. The
         * server reads it with {@link GlobalOpenTelemetry#getOrNoop()}, not {@code get()}, which would register
         * a no-op for good and make the application's later {@code GlobalOpenTelemetry.set(...)} fail.
         *
         * @param value the OpenTelemetry, e.g. the application's {@code OpenTelemetrySdk}
         * @return this builder
         */
        public Builder openTelemetry(OpenTelemetry value) {
            openTelemetry = Objects.requireNonNull(value, "openTelemetry");
            return this;
        }

        private OpenTelemetry openTelemetry() {
            return openTelemetry != null ? openTelemetry : GlobalOpenTelemetry.getOrNoop();
        }

        /**
         * Builds the server; {@link TaskMcpServer#start()} starts it.
         *
         * @return the server, not started
         * @throws IllegalStateException if no transport was set; if a non-loopback
         *     address has no bearer token; if a token or a session limit was set for stdio; if the taskfile
         *     toolset has no project or a project was set without it
         */
        public TaskMcpServer build() {
            if (!stdio && host == null) {
                throw new IllegalStateException(
                        "Choose a transport: stdio() or bind(address, port); or buildServlet() for your own container");
            }
            if (stdio && token != null) {
                throw new IllegalStateException("A bearer token protects HTTP; stdio has no use for one");
            }
            if (stdio && sessionLimitsSet) {
                throw new IllegalStateException(
                        "Session idle timeout and limit apply to HTTP; stdio serves one session for its client");
            }
            if (host != null) {
                SettingRules.exposureProblem(host, token != null, NAMES).ifPresent(problem -> {
                    throw new IllegalStateException(problem);
                });
            }
            return new TaskMcpServer(this);
        }

        /**
         * Builds the MCP servlet for the application's own servlet container, with the checks of the
         * HTTP server (bearer token if set, Origin and Host, size limit, session idle timeout and limit). Register it with async support
         * at a path that ends in {@code /mcp}; destroying it stops the MCP server (not the store). By
         * default it accepts loopback Host headers only: name the others with {@link
         * #allowedHosts(String...)}.
         *
         * @return the servlet
         * @throws IllegalStateException if stdio or HTTP was chosen (the
         *     container is the transport), or the toolsets do not fit (see {@link #build()})
         */
        public HttpServlet buildServlet() {
            if (stdio || host != null) {
                throw new IllegalStateException(
                        "buildServlet() serves through your container: do not choose stdio() or bind(address, port)");
            }
            return new TaskMcpServer(this).servlet(null);
        }

        private TaskQueue resolvedQueue() {
            return queue != null ? queue : TaskQueue.builder(store).build();
        }

        private Toolbox toolbox(TaskQueue served) {
            Set<Toolset> chosen = toolsets.isEmpty() ? EnumSet.of(Toolset.QUEUE) : toolsets;
            if (chosen.contains(Toolset.TASKFILE) && taskfileProject == null) {
                throw new IllegalStateException(
                        "The taskfile toolset runs a project's Taskfile: set taskfileProject(directory)");
            }
            if (!chosen.contains(Toolset.TASKFILE) && taskfileProject != null) {
                throw new IllegalStateException(
                        "A Taskfile project was set but the taskfile toolset was not chosen: add Toolset.TASKFILE");
            }
            Set<String> names = new LinkedHashSet<>();
            List<dev.taskagent.tool.Tool> tools = new ArrayList<>();
            for (Toolset toolset : chosen) {
                Toolbox box =
                        switch (toolset) {
                            case QUEUE -> served.tools();
                            case WORKER -> served.workerTools();
                            case TASKFILE -> TaskfileTools.forProject(taskfileProject);
                            case TASKS -> TaskReadTools.toolbox(served.store(), new ObjectMapper());
                            case GRAPH -> served.graphTools();
                            case TODO -> TodoTools.forSession(served.store(), served.sessionId());
                            case CLAUDE_TASKS -> ClaudeTaskTools.forSession(served.store(), served.sessionId());
                        };
                box.tools().stream().filter(tool -> names.add(tool.name())).forEach(tools::add);
            }
            extraTools.tools().stream().filter(tool -> names.add(tool.name())).forEach(tools::add);
            return Toolbox.of(tools);
        }
    }
}
