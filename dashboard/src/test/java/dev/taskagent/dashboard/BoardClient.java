package dev.taskagent.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** The JDK's HTTP client pointed at a board, answering status, headers and JSON. */
final class BoardClient {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String token;

    BoardClient(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    BoardClient(TaskDashboard board) {
        this(board.uri(), null);
    }

    BoardClient withToken(String value) {
        return new BoardClient(base, value);
    }

    /** One answer. */
    record Reply(int status, HttpHeaders headers, String body) {
        JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON: " + body, e);
            }
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    Reply get(String path) {
        return get(path, Map.of());
    }

    Reply get(String path, Map<String, String> headers) {
        return send(request(path, headers).GET().build());
    }

    Reply post(String path, String json, Map<String, String> headers) {
        return send(request(path, headers)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    HttpRequest.Builder request(String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        return request;
    }

    HttpClient client() {
        return client;
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
