package dev.taskagent.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serial;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The servlet a client reaches: checks the bearer token of every request, when the server has one, keeps
 * the number of MCP sessions bounded, and hands the request to the SDK's Streamable HTTP servlet, which
 * validates Origin and Host, limits the request size and speaks the protocol. Destroying it closes the MCP
 * server behind it.
 *
 * <p>Two protocol revisions share the endpoint: a request of the stateless revision {@value
 * StatelessMcp#REVISION} (see {@link #stateless(HttpServletRequest)}) goes to that revision's servlet, with
 * the same token, Origin, Host and size checks and no session; every other request to the 2025-11-25
 * servlet and its sessions.
 *
 * <p>Sessions: the SDK keeps a session until its client deletes it. This gate ends a session that has had
 * no request for longer than the idle timeout: a request in it is answered 404 (which tells an MCP client
 * to initialize a new session), and a request that may open a new session first ends every expired one.
 * The session ends as a client's {@code DELETE} would end it, through the SDK. A request that would open a
 * session beyond the cap is refused with 503 and {@code Retry-After}.
 *
 * <p>Tokens are compared by their SHA-256 digests with {@link MessageDigest#isEqual(byte[], byte[])}, in
 * time that does not depend on where they differ or on the length of the token sent.
 *
 * <p>Thread-safe.
 */
final class HttpGate extends HttpServlet {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final String BEARER = "Bearer ";
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
    private static final String METHOD_HEADER = "Mcp-Method";
    /** The revisions with initialize and sessions, which the 2025-11-25 server negotiates. */
    private static final java.util.Set<String> SESSION_REVISIONS =
            java.util.Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
    /** JSON-RPC's implementation-defined server error: the server is at its session limit. */
    private static final int SERVER_BUSY = -32000;

    private final transient HttpServlet transport;
    private final transient HttpServlet statelessTransport;
    private final transient Runnable onDestroy;
    private final transient HttpSessions sessions;
    private final transient McpJsonMapper jsonMapper;
    private final byte[] tokenDigest;

    /**
     * @param transport the SDK's servlet of protocol revision 2025-11-25
     * @param statelessTransport the SDK's servlet of the stateless revision {@value StatelessMcp#REVISION}
     * @param bearerToken the token every request must carry, or null for none
     * @param onDestroy what closes the MCP server
     * @param sessions the live sessions, with their idle timeout and cap
     * @param jsonMapper writes the gate's own JSON-RPC errors
     */
    HttpGate(
            HttpServlet transport,
            HttpServlet statelessTransport,
            String bearerToken,
            Runnable onDestroy,
            HttpSessions sessions,
            McpJsonMapper jsonMapper) {
        this.transport = transport;
        this.statelessTransport = statelessTransport;
        this.onDestroy = onDestroy;
        this.sessions = sessions;
        this.jsonMapper = jsonMapper;
        this.tokenDigest = bearerToken == null ? null : sha256(bearerToken);
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        transport.init(config);
        statelessTransport.init(config);
    }

    @Override
    public void service(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        HttpServletRequest httpRequest = (HttpServletRequest) request;
        HttpServletResponse httpResponse = (HttpServletResponse) response;
        if (tokenDigest != null && !authorized(httpRequest.getHeader("Authorization"))) {
            httpResponse.setHeader("WWW-Authenticate", "Bearer");
            httpResponse.sendError(HttpServletResponse.SC_UNAUTHORIZED, "A valid bearer token is required");
            return;
        }
        String sessionId = httpRequest.getHeader(SESSION_HEADER);
        if (sessionId == null && stateless(httpRequest)) {
            statelessTransport.service(request, response);
        } else if (sessionId != null) {
            serveInSession(httpRequest, httpResponse, sessionId);
        } else if ("POST".equals(httpRequest.getMethod())) {
            serveMaybeOpeningASession(httpRequest, httpResponse);
        } else {
            transport.service(request, response);
        }
    }

    /**
     * Tells a request of the stateless revision: it names that revision in its {@code MCP-Protocol-Version}
     * header; or it carries the {@code Mcp-Method} header of the stateless revision's clients for a method
     * other than {@code initialize} and names no 2025 revision (so that a request of an unknown revision gets
     * the stateless revision's error, which lists the revisions served). Everything else goes to the
     * 2025-11-25 server, as before: {@code initialize} (some clients send {@code Mcp-Method} with it too) and
     * every request of a session.
     */
    private static boolean stateless(HttpServletRequest request) {
        String version = request.getHeader(PROTOCOL_VERSION_HEADER);
        if (StatelessMcp.REVISION.equals(version)) {
            return true;
        }
        String method = request.getHeader(METHOD_HEADER);
        return method != null && !"initialize".equals(method) && !SESSION_REVISIONS.contains(version);
    }

    private void serveInSession(HttpServletRequest request, HttpServletResponse response, String sessionId)
            throws ServletException, IOException {
        if (sessions.use(sessionId) == HttpSessions.State.EXPIRED) {
            end(request, response, sessionId);
            refuse(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Session expired after " + describe(sessions.idleTimeout())
                            + " without requests; send initialize to start a new session.");
            return;
        }
        transport.service(request, response);
        if ("DELETE".equals(request.getMethod()) && response.getStatus() == HttpServletResponse.SC_OK) {
            sessions.ended(sessionId);
        }
    }

    /** A POST without a session id: an initialize opens a session, anything else is refused by the SDK. */
    private void serveMaybeOpeningASession(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        for (String expired : sessions.expired()) {
            end(request, response, expired);
        }
        if (!sessions.reserve()) {
            response.setHeader(
                    "Retry-After",
                    String.valueOf(Math.max(1, sessions.idleTimeout().toSeconds())));
            refuse(
                    response,
                    HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    SERVER_BUSY,
                    "The server already holds its limit of " + sessions.maxSessions() + " MCP sessions; end"
                            + " sessions you no longer use (HTTP DELETE with their Mcp-Session-Id) or try again"
                            + " when idle ones expire (after " + describe(sessions.idleTimeout()) + ").");
            return;
        }
        String opened = null;
        try {
            transport.service(request, response);
            if (response.getStatus() == HttpServletResponse.SC_OK) {
                opened = response.getHeader(SESSION_HEADER);
            }
        } finally {
            sessions.opened(opened);
        }
    }

    /** Ends a session through the SDK, as its client's DELETE would, with the headers of this request. */
    private void end(HttpServletRequest request, HttpServletResponse response, String sessionId)
            throws ServletException, IOException {
        DiscardedResponse outcome = new DiscardedResponse(response);
        transport.service(new DeleteRequest(request, sessionId), outcome);
        if (outcome.status == HttpServletResponse.SC_OK || outcome.status == HttpServletResponse.SC_NOT_FOUND) {
            sessions.ended(sessionId);
        }
    }

    private void refuse(HttpServletResponse response, int status, int code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter()
                .write(jsonMapper.writeValueAsString(
                        McpError.builder(code).message(message).build()));
    }

    private static String describe(Duration duration) {
        if (duration.toSeconds() < 60) {
            return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
        }
        return duration.toMinutes() + " min";
    }

    @Override
    public void destroy() {
        try {
            transport.destroy();
            statelessTransport.destroy();
        } finally {
            onDestroy.run();
            super.destroy();
        }
    }

    private boolean authorized(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        return MessageDigest.isEqual(
                tokenDigest, sha256(authorization.substring(BEARER.length()).strip()));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }

    /** The request it wraps, as a DELETE of one session. */
    private static final class DeleteRequest extends HttpServletRequestWrapper {
        private final String sessionId;

        DeleteRequest(HttpServletRequest request, String sessionId) {
            super(request);
            this.sessionId = sessionId;
        }

        @Override
        public String getMethod() {
            return "DELETE";
        }

        @Override
        public String getHeader(String name) {
            return SESSION_HEADER.equalsIgnoreCase(name) ? sessionId : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return SESSION_HEADER.equalsIgnoreCase(name)
                    ? Collections.enumeration(List.of(sessionId))
                    : super.getHeaders(name);
        }
    }

    /**
     * Keeps the status of the SDK's answer to a {@link DeleteRequest} and discards the rest (headers, body),
     * so that the response of the request being served is untouched.
     */
    private static final class DiscardedResponse extends HttpServletResponseWrapper {
        private int status = HttpServletResponse.SC_OK;

        DiscardedResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void setContentType(String type) {}

        @Override
        public void setCharacterEncoding(String charset) {}

        @Override
        public void setContentLength(int length) {}

        @Override
        public void setContentLengthLong(long length) {}

        @Override
        public void setHeader(String name, String value) {}

        @Override
        public void addHeader(String name, String value) {}

        @Override
        public void flushBuffer() {}

        @Override
        public ServletOutputStream getOutputStream() {
            throw new IllegalStateException("Ending a session writes no body");
        }

        @Override
        public void setStatus(int code) {
            status = code;
        }

        @Override
        public void sendError(int code) {
            status = code;
        }

        @Override
        public void sendError(int code, String message) {
            status = code;
        }

        @Override
        public int getStatus() {
            return status;
        }

        @Override
        public PrintWriter getWriter() {
            return new PrintWriter(Writer.nullWriter());
        }
    }
}
