package dev.taskagent.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The official Java SDK client, as the tests use it, and small helpers around it. */
final class McpClients {
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private McpClients() {}

    /** An initialized client on a server's Streamable HTTP endpoint. */
    static McpSyncClient http(URI endpoint) {
        return http(endpoint, null);
    }

    /** An initialized client that sends a bearer token, or none when {@code token} is null. */
    static McpSyncClient http(URI endpoint, String token) {
        String base = endpoint.getScheme() + "://" + endpoint.getAuthority();
        HttpClientStreamableHttpTransport.Builder transport =
                HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint.getPath());
        if (token != null) {
            transport.addHttpRequestCustomizer(
                    (request, method, uri, body, context) -> request.header("Authorization", "Bearer " + token));
        }
        McpSyncClient client = McpClient.sync(transport.build())
                .requestTimeout(TIMEOUT)
                .initializationTimeout(TIMEOUT)
                .build();
        client.initialize();
        return client;
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
    }

    /** The text of a result's only content. */
    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** Waits for a condition, failing with the message when the deadline passes first. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Timed out after " + timeout + " waiting for: " + what);
            }
            // A short pause between polls of the condition, which decides.
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }
}
