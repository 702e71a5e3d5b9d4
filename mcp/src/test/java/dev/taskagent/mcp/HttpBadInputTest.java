package dev.taskagent.mcp;

import static dev.taskagent.mcp.McpClients.call;
import static dev.taskagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import io.modelcontextprotocol.client.McpSyncClient;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protocol misuse over Streamable HTTP gets an HTTP error or a JSON-RPC error, and a client in another
 * session keeps being served meanwhile.
 */
class HttpBadInputTest {
    private static final int LIMIT = 64 * 1024;

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private TaskMcpServer server;
    private McpSyncClient bystander;

    @BeforeEach
    void start() {
        server = TaskMcpServer.builder(store)
                .bind("127.0.0.1", 0)
                .maxRequestBytes(LIMIT)
                .build()
                .start();
        bystander = McpClients.http(server.endpoint());
    }

    @AfterEach
    void stop() {
        bystander.closeGracefully();
        server.close();
        store.close();
    }

    private void assertTheOtherSessionIsStillServed() {
        assertThat(text(call(bystander, "get_my_queue", Map.of("agent_name", "bystander"))))
                .isEqualTo("No tasks for bystander");
    }

    @Test
    void malformedJsonIsA400WithAJsonRpcErrorAndNoStackTrace() throws Exception {
        HttpResponse<String> response = RawHttp.post(server.endpoint(), "{\"jsonrpc\": \"2.0\", \"id\": 1, ", Map.of());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,");
        assertThat(response.body()).doesNotContain("stackTrace", "Exception", "at io.");
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void aMessageNamingAKeyTwiceIsA400SayingWhichKeyAndNoToolRuns() throws Exception {
        String session = RawHttp.initialize(server.endpoint(), Map.of());

        HttpResponse<String> response = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"create_task\",\"arguments\":{\"description\":\"smuggled\"}}}",
                Map.of("Mcp-Session-Id", session));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .isEqualTo(
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid"
                                + " message format: the JSON names the key 'method' twice in one object; send each key once\"}}");
        assertThat(store.listTasks("queue")).isEmpty();
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void theLargestTaskTextFitsTheDefaultLimitEvenWithEveryCharacterEscaped() throws Exception {
        try (InMemoryTaskStore own = new InMemoryTaskStore();
                TaskMcpServer defaults =
                        TaskMcpServer.builder(own).bind("127.0.0.1", 0).build().start()) {
            String session = RawHttp.initialize(defaults.endpoint(), Map.of());
            String escaped = "\\u00e9".repeat(dev.taskagent.task.Task.MAX_TEXT_LENGTH);

            HttpResponse<String> response = RawHttp.post(
                    defaults.endpoint(),
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"create_task\","
                            + "\"arguments\":{\"description\":\"" + escaped + "\"}}}",
                    Map.of("Mcp-Session-Id", session));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("created").doesNotContain("\"isError\":true");
            assertThat(own.listTasks("queue")).singleElement().satisfies(task -> assertThat(task.description())
                    .hasSize(dev.taskagent.task.Task.MAX_TEXT_LENGTH));
        }
    }

    @Test
    void aRequestOverTheSizeLimitIsRefusedWith413() throws Exception {
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"padding\":\""
                + "x".repeat(LIMIT) + "\"}}";

        assertThat(RawHttp.post(server.endpoint(), huge, Map.of()).statusCode()).isEqualTo(413);
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void aToolCallBeforeInitializeIsRefusedForWantOfASession() throws Exception {
        HttpResponse<String> response = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_my_queue\","
                        + "\"arguments\":{\"agent_name\":\"x\"}}}",
                Map.of());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("Session ID required");
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void anUnknownSessionIsA404() throws Exception {
        HttpResponse<String> response = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                Map.of("Mcp-Session-Id", "no-such-session"));

        assertThat(response.statusCode()).isEqualTo(404);
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void anUnknownMethodIsAJsonRpcMethodNotFoundError() throws Exception {
        String session = RawHttp.initialize(server.endpoint(), Map.of());

        HttpResponse<String> response = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tasks/teleport\"}",
                Map.of("Mcp-Session-Id", session));

        assertThat(response.body()).contains("\"id\":7", "\"code\":-32601");
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void aSecondInitializeStartsAnotherSessionAndTheFirstGoesOn() throws Exception {
        String first = RawHttp.initialize(server.endpoint(), Map.of());

        HttpResponse<String> again =
                RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Mcp-Session-Id", first));
        String second = again.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> firstStillServed = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
                Map.of("Mcp-Session-Id", first));

        assertThat(second).isNotEqualTo(first);
        assertThat(firstStillServed.body()).contains("\"id\":2", "\"result\":{}");
        assertTheOtherSessionIsStillServed();
    }

    @Test
    void wrongArgumentTypesAreAnErrorResultNotAProtocolError() throws Exception {
        String session = RawHttp.initialize(server.endpoint(), Map.of());

        HttpResponse<String> response = RawHttp.post(
                server.endpoint(),
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\","
                        + "\"arguments\":{\"task_id\":[1,2]}}}",
                Map.of("Mcp-Session-Id", session));

        assertThat(response.body()).contains("\"id\":3", "\"isError\":true", "task_id");
        assertTheOtherSessionIsStillServed();
    }
}
