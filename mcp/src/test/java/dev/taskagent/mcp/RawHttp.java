package dev.taskagent.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Hand-made HTTP requests, for what a well-behaved client never sends: foreign origins and hosts, missing
 * tokens, broken JSON, huge bodies.
 */
final class RawHttp {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RawHttp() {}

    /** A POST with MCP's Accept and Content-Type headers plus the given ones. */
    static HttpResponse<String> post(URI endpoint, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A DELETE of a session, as a client that is done with it sends. */
    static HttpResponse<String> delete(URI endpoint, String sessionId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(20))
                .header("Mcp-Session-Id", sessionId)
                .DELETE()
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The session id of a fresh session, from an initialize request. */
    static String initialize(URI endpoint, Map<String, String> headers) throws IOException, InterruptedException {
        HttpResponse<String> response = post(endpoint, INITIALIZE, headers);
        if (response.statusCode() != 200) {
            throw new AssertionError("initialize answered " + response.statusCode() + ": " + response.body());
        }
        post(
                endpoint,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                Map.of(
                        "Mcp-Session-Id",
                        response.headers().firstValue("Mcp-Session-Id").orElseThrow()));
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /**
     * Sends a POST over a plain socket with the given Host header (the JDK's client refuses to set one),
     * and returns the status line's code.
     */
    static int postWithHost(URI endpoint, String host, String body) throws IOException {
        return postWithHost(endpoint, host, body, Map.of());
    }

    /** The same, with more headers. */
    static int postWithHost(URI endpoint, String host, String body, Map<String, String> headers) throws IOException {
        StringBuilder more = new StringBuilder();
        headers.forEach(
                (name, value) -> more.append(name).append(": ").append(value).append("\r\n"));
        try (Socket socket = new Socket(endpoint.getHost(), endpoint.getPort())) {
            socket.setSoTimeout(20_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + endpoint.getPath() + " HTTP/1.1\r\n"
                    + "Host: " + host + "\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\n"
                    + "Content-Length: " + bytes.length + "\r\n"
                    + more
                    + "Connection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            String statusLine = firstLine(socket.getInputStream());
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    private static String firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int next;
        while ((next = in.read()) != -1 && next != '\n') {
            line.write(next);
        }
        return line.toString(StandardCharsets.US_ASCII).strip();
    }
}
