package dev.taskagent.mcp;

import static dev.taskagent.mcp.McpClients.call;
import static dev.taskagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import io.modelcontextprotocol.client.McpSyncClient;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP server's defaults: token, Origin, Host. */
class HttpSecurityTest {
    private static final String TOKEN = "s3cret-token-of-the-test-0123456789";

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private TaskMcpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        store.close();
    }

    private TaskMcpServer start(TaskMcpServer.Builder builder) {
        server = builder.build().start();
        return server;
    }

    @Test
    void aRequestWithoutTheTokenIsRefusedWith401() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0).token(TOKEN));

        HttpResponse<String> response = RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer");
    }

    @Test
    void aWrongTokenIsRefusedWith401AndTheRightOneServes() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0).token(TOKEN));

        assertThat(RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Authorization", "Bearer " + TOKEN + "x"))
                        .statusCode())
                .isEqualTo(401);
        assertThat(RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Authorization", "Basic " + TOKEN))
                        .statusCode())
                .isEqualTo(401);
        try (McpSyncClient client = McpClients.http(server.endpoint(), TOKEN)) {
            assertThat(text(call(client, "get_my_queue", Map.of("agent_name", "alice"))))
                    .isEqualTo("No tasks for alice");
        }
    }

    @Test
    void theJavaClientWithoutTheTokenCannotConnect() {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0).token(TOKEN));

        assertThatThrownBy(() -> McpClients.http(server.endpoint(), "not-the-token-0123456789"))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void aForeignOriginIsRefusedWith403() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0));

        HttpResponse<String> response =
                RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Origin", "http://evil.example"));

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void loopbackOriginsAndOnesAllowedExplicitlyAreServed() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0).allowedOrigins("https://board.example.com"));
        int port = server.port();

        assertThat(RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Origin", "http://localhost:" + port))
                        .statusCode())
                .isEqualTo(200);
        assertThat(RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Origin", "https://board.example.com"))
                        .statusCode())
                .isEqualTo(200);
        assertThat(RawHttp.post(
                                server.endpoint(),
                                RawHttp.INITIALIZE,
                                Map.of("Origin", "https://board.example.com.evil"))
                        .statusCode())
                .isEqualTo(403);
    }

    @Test
    void aForeignHostHeaderIsRefusedOnALoopbackServer() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0));

        assertThat(RawHttp.postWithHost(server.endpoint(), "evil.example:" + server.port(), RawHttp.INITIALIZE))
                .isEqualTo(421);
        assertThat(RawHttp.postWithHost(server.endpoint(), "localhost:" + server.port(), RawHttp.INITIALIZE))
                .isEqualTo(200);
    }

    @Test
    void theHostOfAnAllowedOriginIsServedAsTheBoardServesIt() throws Exception {
        start(TaskMcpServer.builder(store).bind("127.0.0.1", 0).allowedOrigins("https://tasks.example.com"));

        assertThat(RawHttp.postWithHost(server.endpoint(), "tasks.example.com", RawHttp.INITIALIZE))
                .isEqualTo(200);
        assertThat(RawHttp.postWithHost(server.endpoint(), "LOCALHOST:" + server.port(), RawHttp.INITIALIZE))
                .isEqualTo(200);
        assertThat(RawHttp.postWithHost(server.endpoint(), "other.example.com", RawHttp.INITIALIZE))
                .isEqualTo(421);
    }

    @Test
    void aNonLoopbackAddressWithoutATokenIsRefusedAtBuild() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).bind("0.0.0.0", 0).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Listening on 0.0.0.0, which is not a loopback address, needs a token: set token(...)"
                        + " (at least 16 characters), or listen on 127.0.0.1 with bind(address, port)");
    }

    @Test
    void aServerOnEveryAddressChecksTheTokenOnEveryRequest() throws Exception {
        start(TaskMcpServer.builder(store).bind("0.0.0.0", 0).token(TOKEN));
        java.net.URI endpoint = java.net.URI.create("http://127.0.0.1:" + server.port() + "/mcp");

        String session = RawHttp.initialize(endpoint, Map.of("Authorization", "Bearer " + TOKEN));
        HttpResponse<String> withoutToken = RawHttp.post(
                endpoint,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                Map.of("Mcp-Session-Id", session));

        assertThat(withoutToken.statusCode()).isEqualTo(401);
    }

    @Test
    void aShortTokenIsRefused() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).token("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("token(...) must have at least 16 characters and no white space (got 5 characters)");
    }
}
