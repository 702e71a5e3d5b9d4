package dev.taskagent.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local model service that answers every request with one HTTP error in OpenAI's error format, as a
 * service does when it refuses a key (401) or fails (500). It asks the client not to retry, so that a test
 * sees the failure at once. Listens on 127.0.0.1 and a free port; no network.
 *
 * <p>Thread-safe.
 */
final class FailingModelServer implements AutoCloseable {
    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    private FailingModelServer(int status, String message) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] body = ("{\"error\":{\"message\":\"" + message + "\",\"type\":\"error\",\"code\":null}}")
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> answer(exchange, status, body));
        server.start();
    }

    /**
     * Starts a server that answers every request with the status.
     *
     * @param status the HTTP status, e.g. 401
     * @param message the error message in the body
     * @return the started server
     */
    static FailingModelServer answering(int status, String message) {
        try {
            return new FailingModelServer(status, message);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the failing model server on 127.0.0.1", e);
        }
    }

    /**
     * Finds a port on 127.0.0.1 where nothing listens: the port of a socket that was opened and closed.
     *
     * @return a base URL that refuses connections
     */
    static String unreachableBaseUrl() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port on 127.0.0.1", e);
        }
    }

    /** @return the base URL to give as {@code OPENAI_BASE_URL} */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** @return how many requests the server answered */
    int requests() {
        return requests.get();
    }

    private void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("X-Should-Retry", "false");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream response = exchange.getResponseBody()) {
                response.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
