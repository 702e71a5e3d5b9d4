package dev.taskagent.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.taskagent.internal.OriginRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one handler of the board: checks Host, Origin and the token, sets the security headers on every
 * response, and routes to the page's assets, the JSON API and the event stream. It answers {@link
 * BoardExchange}s, which come through either front door: the board's own server (the JDK's, as an {@link
 * HttpHandler}) or the application's servlet container ({@link TaskDashboardServlet}).
 *
 * <p>Tokens are compared by their SHA-256 digests with {@link MessageDigest#isEqual(byte[], byte[])}, in
 * time that does not depend on where they differ or on the length of the token sent.
 *
 * <p>Thread-safe.
 */
final class BoardHttp implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BoardHttp.class);
    private static final String BEARER = "Bearer ";

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
            + " frame-ancestors 'none'";

    /** The page's files: path → resource name and content type. */
    private static final Map<String, String[]> ASSETS = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/index.html", new String[] {"index.html", "text/html; charset=utf-8"},
            "/board.js", new String[] {"board.js", "text/javascript; charset=utf-8"},
            "/board.css", new String[] {"board.css", "text/css; charset=utf-8"},
            "/favicon.svg", new String[] {"favicon.svg", "image/svg+xml"});

    private final OriginRules originRules;
    private final byte[] tokenDigest;
    private final BoardApi api;
    private final EventStream events;
    private final Runnable requestRead;

    /**
     * @param settings the board's settings
     * @param events the event streams
     * @param requestRead called once a request is read, when the time limit on reading it ends (the board's
     *     own server keeps one; a servlet container has its own)
     */
    BoardHttp(TaskDashboard.Settings settings, EventStream events, Runnable requestRead) {
        this.originRules = OriginRules.of(
                settings.host(), settings.allowedHosts(), settings.allowedOrigins(), OriginRules.Callers.OWN_PAGE);
        this.tokenDigest = settings.token() == null ? null : sha256(settings.token());
        this.api = new BoardApi(settings, events);
        this.events = events;
        this.requestRead = requestRead;
    }

    @Override
    public void handle(HttpExchange exchange) {
        handle(new JdkExchange(exchange));
    }

    /**
     * Answers one request, whichever front door it came through; never throws.
     *
     * @param exchange the request and its response
     */
    void handle(BoardExchange exchange) {
        try {
            securityHeaders(exchange);
            route(exchange);
        } catch (ApiException e) {
            sendError(exchange, e);
        } catch (UnsupportedOperationException e) {
            // A store written before listSessionIds/listAssignees: its sessions can still be opened by id.
            sendError(
                    exchange,
                    new ApiException(
                            501,
                            null,
                            e.getMessage() + "; open a session by its id"
                                    + " (/?session=ID), or use a store that lists sessions (the in-memory and JDBC stores do)"));
        } catch (IOException e) {
            LOG.debug("A client of the task board went away: {}", e.toString());
        } catch (RuntimeException e) {
            LOG.warn("The task board failed to answer {} {}", exchange.method(), exchange.rawPath(), e);
            // The exception's message is for the log: it may name the store's internals.
            sendError(
                    exchange,
                    new ApiException(
                            500,
                            null,
                            "The board failed to answer this request; the log of the process that serves it has"
                                    + " the details"));
        } finally {
            exchange.close();
            // An event stream's thread may have been interrupted to drop its client; the pool reuses it.
            Thread.interrupted();
        }
    }

    private void route(BoardExchange exchange) throws IOException {
        if (!originRules.hostAllowed(exchange.requestHeader("Host"))) {
            throw new ApiException(
                    421,
                    "Host",
                    "The Host header names a host this board does not serve; open" + " it through "
                            + String.join(", ", OriginRules.LOOPBACK_HOSTS)
                            + " or a host given to allowedHosts(...) or allowedOrigins(...)");
        }
        String origin = exchange.requestHeader("Origin");
        if (!originRules.originAllowed(origin, exchange.requestHeader("Host"))) {
            throw new ApiException(
                    403,
                    "Origin",
                    "Requests from another site's pages are refused (Origin " + QueryParameters.cut(origin)
                            + "); a board reached at another address, e.g. through a TLS-terminating proxy, is"
                            + " given it with allowedOrigins(...)");
        }
        String path = exchange.rawPath();
        String method = exchange.method();
        if (!path.startsWith("/api/")) {
            requestRead.run();
            serveAsset(exchange, method, path);
            return;
        }
        if (tokenDigest != null && !authorized(exchange.requestHeader("Authorization"))) {
            exchange.setHeader("WWW-Authenticate", "Bearer");
            throw new ApiException(
                    401,
                    "Authorization",
                    "This board needs its token: send Authorization: Bearer" + " <token>, or open the page as "
                            + "/#token=<token>");
        }
        if (path.equals("/api/events")) {
            requireMethod(method, "GET");
            requestRead.run();
            events.serve(exchange, lastEventId(exchange));
            return;
        }
        byte[] body = body(exchange);
        requestRead.run();
        BoardApi.Reply reply = api.answer(method, path, exchange.rawQuery(), exchange::requestHeader, body);
        sendJson(exchange, reply.status(), reply.json());
    }

    private void serveAsset(BoardExchange exchange, String method, String path) throws IOException {
        String[] asset = ASSETS.get(path);
        if (asset == null) {
            throw ApiException.notFound("Nothing at " + path + "; the board is at /");
        }
        requireMethod(method, "GET", "HEAD");
        byte[] content;
        try (InputStream in = BoardHttp.class.getResourceAsStream("assets/" + asset[0])) {
            if (in == null) {
                throw new IllegalStateException("The jar lacks the board's asset " + asset[0]);
            }
            content = in.readAllBytes();
        }
        if (exchange.mounted() && asset[0].equals("index.html")) {
            // Below an application's path, the page names its files relative to itself, not the server's root.
            content = new String(content, StandardCharsets.UTF_8)
                    .replace("=\"/", "=\"")
                    .getBytes(StandardCharsets.UTF_8);
        }
        exchange.setHeader("Content-Type", asset[1]);
        exchange.setHeader("Cache-Control", "no-cache");
        if (method.equals("HEAD")) {
            exchange.sendHeaders(200, -1);
            return;
        }
        OutputStream out = exchange.sendHeaders(200, content.length);
        out.write(content);
    }

    private static void requireMethod(String method, String... allowed) {
        for (String candidate : allowed) {
            if (candidate.equals(method)) {
                return;
            }
        }
        throw new ApiException(405, null, method + " is not allowed here; use " + String.join(" or ", allowed));
    }

    private static String lastEventId(BoardExchange exchange) {
        String header = exchange.requestHeader("Last-Event-ID");
        if (header != null) {
            return header;
        }
        return QueryParameters.parse(exchange.rawQuery(), List.of("after"))
                .text("after")
                .orElse(null);
    }

    private static byte[] body(BoardExchange exchange) throws IOException {
        try (InputStream in = exchange.requestBody()) {
            byte[] body = in.readNBytes(BoardApi.MAX_BODY_BYTES + 1);
            if (body.length > BoardApi.MAX_BODY_BYTES) {
                throw new ApiException(413, null, "The request body is over " + BoardApi.MAX_BODY_BYTES + " bytes");
            }
            return body;
        }
    }

    private boolean authorized(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        return MessageDigest.isEqual(
                tokenDigest, sha256(authorization.substring(BEARER.length()).strip()));
    }

    private static void securityHeaders(BoardExchange exchange) {
        exchange.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        exchange.setHeader("X-Content-Type-Options", "nosniff");
        exchange.setHeader("Referrer-Policy", "no-referrer");
        exchange.setHeader("X-Frame-Options", "DENY");
        exchange.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        exchange.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    }

    static void sendJson(BoardExchange exchange, int status, byte[] json) throws IOException {
        exchange.setHeader("Content-Type", "application/json; charset=utf-8");
        exchange.setHeader("Cache-Control", "no-store");
        OutputStream out = exchange.sendHeaders(status, json.length == 0 ? -1 : json.length);
        if (json.length > 0) {
            out.write(json);
        }
    }

    private static void sendError(BoardExchange exchange, ApiException error) {
        try {
            sendJson(exchange, error.status(), Json.error(error.status(), error.parameter(), error.getMessage()));
        } catch (IOException | RuntimeException e) {
            // Headers already sent (an event stream that failed midway) or the client went away.
            LOG.debug("Could not send an error to a client of the task board: {}", e.toString());
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }
}
