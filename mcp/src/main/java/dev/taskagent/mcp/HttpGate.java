package dev.taskagent.mcp;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Serial;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The servlet a client reaches: checks the bearer token of every request, when the server has one, and
 * hands the request to the SDK's Streamable HTTP servlet, which validates Origin and Host, limits the
 * request size and speaks the protocol. Destroying it closes the MCP server behind it.
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

    private final transient HttpServlet transport;
    private final transient Runnable onDestroy;
    private final byte[] tokenDigest;

    /**
     * @param transport the SDK's servlet
     * @param bearerToken the token every request must carry, or null for none
     * @param onDestroy what closes the MCP server
     */
    HttpGate(HttpServlet transport, String bearerToken, Runnable onDestroy) {
        this.transport = transport;
        this.onDestroy = onDestroy;
        this.tokenDigest = bearerToken == null ? null : sha256(bearerToken);
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        transport.init(config);
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
        transport.service(request, response);
    }

    @Override
    public void destroy() {
        try {
            transport.destroy();
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
}
