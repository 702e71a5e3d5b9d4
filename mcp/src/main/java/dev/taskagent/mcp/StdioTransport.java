package dev.taskagent.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The stdio transport: one session, newline-delimited JSON-RPC on an input and an output stream.
 *
 * <p>The SDK has a stdio transport; this one exists for what a server that many clients rely on must do
 * with bad input, which that one does not: a line that is not a JSON-RPC message is answered with a
 * JSON-RPC parse error and the next line is read (the SDK's stops reading), and so is a line that names a
 * key twice in one object (see {@link WireJson}); a line over the size limit is
 * skipped and answered with an error; a request before {@code initialize} is refused at once (the SDK's
 * session would hold it until initialization, for ever) and so is a second {@code initialize}. Messages
 * themselves are parsed, dispatched and answered by the SDK's session.
 *
 * <p>A message of the stateless revision {@value StatelessMcp#REVISION} (see {@link #isStateless(String,
 * Object)}) goes to that revision's server instead, per message: it needs no {@code initialize}, and a
 * client may send either revision's messages on one connection.
 *
 * <p>When the input ends, the transport stops reading, lets the requests still running finish and write
 * their replies (for at most {@link #DRAIN_TIMEOUT}), and only then ends the session and calls its {@code
 * onEnd}, which closes the server: a client that sends its calls and closes its end of the pipe gets
 * every reply, and the store is not closed under a running call.
 *
 * <p>Thread-safe: one reader thread; writes are serialised.
 */
final class StdioTransport implements McpServerTransportProvider {
    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    /** How long the requests still running when the input ends may take to finish. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    private final McpJsonMapper jsonMapper;
    private final InputStream input;
    private final OutputStream output;
    private final int maxMessageBytes;
    private final Runnable onEnd;
    private final Object writeLock = new Object();
    private final AtomicBoolean initializeSeen = new AtomicBoolean();
    private final AtomicBoolean initializedSeen = new AtomicBoolean();
    /** The id of the {@code initialize} request, to find its answer and the revision it settled on. */
    private volatile Object initializeId;
    /**
     * What the session's handlers learn of the connection: the revision {@code initialize} settled on, for
     * the spans (HTTP has the {@code MCP-Protocol-Version} header for it).
     */
    private volatile McpTransportContext sessionContext = McpTransportContext.EMPTY;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch ended = new CountDownLatch(1);
    /** One party for the reader, and one for each message the session is still handling. */
    private final Phaser inFlight = new Phaser(1);

    private final io.modelcontextprotocol.modern.server.McpServer stateless;

    /** The method of the stateless revision's change streams. */
    private static final String LISTEN = "subscriptions/listen";

    /** The open {@code subscriptions/listen} streams, ended when the input ends. */
    private final Set<Disposable> listenStreams = ConcurrentHashMap.newKeySet();

    private volatile McpServerSession session;

    StdioTransport(
            McpJsonMapper jsonMapper,
            InputStream input,
            OutputStream output,
            int maxMessageBytes,
            Runnable onEnd,
            io.modelcontextprotocol.modern.server.McpServer stateless) {
        this.stateless = stateless;
        this.jsonMapper = jsonMapper;
        this.input = input;
        this.output = output;
        this.maxMessageBytes = maxMessageBytes;
        this.onEnd = onEnd;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        this.session = sessionFactory.create(new SessionTransport());
        Thread reader = new Thread(this::readUntilEnd, "taskagent-mcp-stdio");
        reader.setDaemon(true);
        reader.start();
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        return current == null ? Mono.empty() : current.sendNotification(method, params);
    }

    /** The one session is every subscriber: resource updates go to it when it subscribed (the SDK checks). */
    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        McpServerSession current = session;
        return current == null || !current.getId().equals(sessionId)
                ? Mono.empty()
                : current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public void close() {
        endListenStreams();
        if (closed.compareAndSet(false, true)) {
            McpServerSession current = session;
            if (current != null) {
                current.close();
            }
        }
    }

    /**
     * Waits until the input ended or the transport was closed.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    void awaitEnd() throws InterruptedException {
        ended.await();
    }

    private void readUntilEnd() {
        try (BufferedInputStream in = new BufferedInputStream(input)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean oversized = false;
            int next;
            while (!closed.get() && (next = in.read()) != -1) {
                if (next != '\n') {
                    if (line.size() < maxMessageBytes) {
                        line.write(next);
                    } else {
                        oversized = true;
                    }
                    continue;
                }
                if (oversized) {
                    sendErrorWithoutId(
                            McpSchema.ErrorCodes.INVALID_REQUEST,
                            "Message over the size limit of " + maxMessageBytes + " bytes; it was skipped.");
                } else {
                    dispatchSafely(line.toString(StandardCharsets.UTF_8).strip());
                }
                line.reset();
                oversized = false;
            }
        } catch (IOException e) {
            if (!closed.get()) {
                LOG.warn("Reading the standard input failed; the stdio session ends", e);
            }
        } finally {
            // A subscriptions/listen stream lasts until its client or the server ends it: it is not a reply
            // to wait for.
            endListenStreams();
            awaitInFlight();
            close();
            ended.countDown();
            onEnd.run();
        }
    }

    /** Waits until the messages being handled are answered, or {@link #DRAIN_TIMEOUT} has passed. */
    private void awaitInFlight() {
        try {
            inFlight.awaitAdvanceInterruptibly(
                    inFlight.arriveAndDeregister(), DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn(
                    "{} request(s) were still running {} s after the input ended; the session ends without their"
                            + " replies",
                    inFlight.getRegisteredParties(),
                    DRAIN_TIMEOUT.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void dispatchSafely(String line) {
        try {
            dispatch(line);
        } catch (RuntimeException e) {
            // One bad message must not end the session.
            LOG.warn("A message of the stdio session could not be handled", e);
            sendErrorWithoutId(McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: " + e.getMessage());
        }
    }

    private void dispatch(String line) {
        if (line.isEmpty()) {
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(jsonMapper, line);
        } catch (WireJson.DuplicateKeyException e) {
            sendErrorWithoutId(McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: " + e.getMessage());
            return;
        } catch (IOException | RuntimeException e) {
            sendErrorWithoutId(McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: the line is not a JSON-RPC message");
            return;
        }
        if (message instanceof McpSchema.JSONRPCRequest request && isStateless(request.method(), request.params())) {
            dispatchStateless(request);
            return;
        }
        if (message instanceof McpSchema.JSONRPCNotification notification
                && isStateless(notification.method(), notification.params())) {
            inFlight.register();
            stateless
                    .handleNotification(
                            McpTransportContext.EMPTY,
                            new JsonRpc.JSONRPCNotification(
                                    JsonRpc.JSONRPC_VERSION, notification.method(), notification.params()))
                    .doFinally(signal -> inFlight.arriveAndDeregister())
                    .subscribe(
                            null, failure -> LOG.warn("Handling a notification of the stdio session failed", failure));
            return;
        }
        if (message instanceof McpSchema.JSONRPCRequest request && !lifecycleAllows(request)) {
            return;
        }
        if (message instanceof McpSchema.JSONRPCNotification notification
                && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(notification.method())) {
            initializedSeen.set(true);
        }
        inFlight.register();
        McpTransportContext context = sessionContext;
        session.handle(message)
                .contextWrite(reactorContext -> reactorContext.put(McpTransportContext.KEY, context))
                .doFinally(signal -> inFlight.arriveAndDeregister())
                .subscribe(null, failure -> LOG.warn("Handling a message of the stdio session failed", failure));
    }

    /**
     * Tells a message of the stateless revision: {@code server/discover}, or a message whose {@code _meta}
     * names a protocol version (a 2025-11-25 message never does; a version this server does not speak gets
     * that revision's error, which lists the versions it does).
     */
    private static boolean isStateless(String method, Object params) {
        if (io.modelcontextprotocol.modern.McpSchema.METHOD_SERVER_DISCOVER.equals(method)) {
            return true;
        }
        return params instanceof Map<?, ?> map
                && map.get("_meta") instanceof Map<?, ?> meta
                && meta.containsKey(io.modelcontextprotocol.modern.McpSchema.MetaKeys.PROTOCOL_VERSION);
    }

    private void endListenStreams() {
        listenStreams.forEach(Disposable::dispose);
        listenStreams.clear();
    }

    /**
     * Answers a request of the stateless revision: no session, no initialize. A {@code subscriptions/listen}
     * stream stays open, writing a notification a line, until the input ends or the server stops.
     */
    private void dispatchStateless(McpSchema.JSONRPCRequest request) {
        boolean listen = LISTEN.equals(request.method());
        if (!listen) {
            inFlight.register();
        }
        Disposable running = stateless
                .handle(
                        McpTransportContext.EMPTY,
                        new JsonRpc.JSONRPCRequest(
                                JsonRpc.JSONRPC_VERSION, request.method(), request.id(), request.params()))
                .flatMapMany(response -> {
                    if (response instanceof McpTransportResponse.Result result) {
                        return Flux.just((JsonRpc.JSONRPCMessage) result.response());
                    }
                    if (response instanceof McpTransportResponse.Error error) {
                        return Flux.just((JsonRpc.JSONRPCMessage) error.response());
                    }
                    return ((McpTransportResponse.Streaming) response).messages();
                })
                .doOnNext(this::sendStateless)
                .doFinally(signal -> {
                    if (!listen) {
                        inFlight.arriveAndDeregister();
                    }
                })
                .subscribe(null, failure -> {
                    LOG.warn("Handling a request of the stdio session failed", failure);
                    send(McpSchema.JSONRPCResponse.error(
                            request.id(),
                            error(McpSchema.ErrorCodes.INTERNAL_ERROR, "The server could not answer the request.")));
                });
        if (listen) {
            listenStreams.removeIf(Disposable::isDisposed);
            listenStreams.add(running);
            if (closed.get()) {
                endListenStreams();
            }
        }
    }

    private void sendStateless(JsonRpc.JSONRPCMessage message) {
        try {
            write(jsonMapper.writeValueAsString(message));
        } catch (IOException e) {
            LOG.warn("Could not write a message", e);
        }
    }

    /** Refuses a request before {@code initialize} (a ping excepted) and a second {@code initialize}. */
    private boolean lifecycleAllows(McpSchema.JSONRPCRequest request) {
        if (McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            if (initializeSeen.compareAndSet(false, true)) {
                initializeId = request.id();
                return true;
            }
            send(McpSchema.JSONRPCResponse.error(
                    request.id(),
                    error(
                            McpSchema.ErrorCodes.INVALID_REQUEST,
                            "Already initialized: a connection sends initialize once.")));
            return false;
        }
        if (McpSchema.METHOD_PING.equals(request.method()) || initializedSeen.get()) {
            return true;
        }
        // The SDK's session would hold a request until notifications/initialized arrives: for ever, if the
        // client never sends it.
        String missing = initializeSeen.get()
                ? "send notifications/initialized (after the initialize result) before "
                : "send initialize before ";
        send(McpSchema.JSONRPCResponse.error(
                request.id(),
                error(McpSchema.ErrorCodes.INVALID_REQUEST, "Not initialized: " + missing + request.method() + ".")));
        return false;
    }

    private static McpSchema.JSONRPCResponse.JSONRPCError error(int code, String message) {
        return new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null);
    }

    /** Answers a message whose id is unknown: JSON-RPC's error response with {@code "id": null}. */
    private void sendErrorWithoutId(int code, String message) {
        try {
            String error =
                    jsonMapper.writeValueAsString(new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null));
            write("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":" + error + "}");
        } catch (IOException e) {
            LOG.warn("Could not write an error response", e);
        }
    }

    private void send(McpSchema.JSONRPCMessage message) {
        try {
            write(jsonMapper.writeValueAsString(message));
        } catch (IOException e) {
            LOG.warn("Could not write a message", e);
        }
    }

    private void write(String json) {
        try {
            byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (writeLock) {
                output.write(bytes);
                output.flush();
            }
        } catch (IOException e) {
            if (!closed.get()) {
                LOG.warn("Writing to the standard output failed", e);
            }
        }
    }

    /** The session's side: what the SDK's session sends goes out as one line each. */
    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                noteRevision(message);
                send(message);
            });
        }

        /** Keeps the revision the answer to {@code initialize} names, before the client can send more. */
        private void noteRevision(McpSchema.JSONRPCMessage message) {
            if (message instanceof McpSchema.JSONRPCResponse response
                    && response.id() != null
                    && response.id().equals(initializeId)
                    && response.result() instanceof McpSchema.InitializeResult result
                    && result.protocolVersion() != null) {
                sessionContext =
                        McpTransportContext.create(Map.of(McpTools.PROTOCOL_VERSION_KEY, result.protocolVersion()));
            }
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return jsonMapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {}
    }
}
