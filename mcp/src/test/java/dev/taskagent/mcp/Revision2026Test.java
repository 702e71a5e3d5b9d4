package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protocol revision 2026-07-28, stateless, beside 2025-11-25 on the same endpoint, driven by the SDK's
 * own 2026-07-28 client (the {@code modern} client of the Java SDK 2.2) over Streamable HTTP and stdio,
 * against a JDBC store; and by hand-made requests for what a client should not send.
 */
class Revision2026Test {
    private static final String TOKEN = "s3cret-token-of-the-test-0123456789";
    private static final McpJsonMapper JSON = WireJson.mapper();

    @TempDir
    Path data;

    private JdbcTaskStore store;
    private TaskMcpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private TaskQueue startHttp(String token) {
        store = JdbcTaskStore.open("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath());
        TaskQueue queue = TaskQueue.builder(store).build();
        TaskMcpServer.Builder builder = TaskMcpServer.builder(queue).bind("127.0.0.1", 0);
        if (token != null) {
            builder.token(token);
        }
        server = builder.build().start();
        return queue;
    }

    private McpSyncClient modernHttpClient(String token) {
        HttpClientMcpTransport.Builder transport =
                HttpClientMcpTransport.builder(server.endpoint()).jsonMapper(JSON);
        if (token != null) {
            transport.requestCustomizer(McpHttpRequestCustomizer.fromSync(
                    (request, headers, context) -> headers.set("Authorization", "Bearer " + token)));
        }
        return McpClient.sync(transport.build())
                .jsonMapper(JSON)
                .callTimeout(McpClients.TIMEOUT)
                .build();
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void aStatelessClientDiscoversListsAndClaimsOverHttpWithoutASession() {
        TaskQueue queue = startHttp(null);
        long id = queue.create(queue.newTask("Write the release notes")
                        .assignee("alice")
                        .build())
                .id();
        McpSyncClient client = modernHttpClient(null);

        McpSchema.DiscoverResult discovered = client.discover();
        assertThat(discovered.supportedVersions()).contains("2026-07-28");
        assertThat(discovered.capabilities().tools()).isNotNull();

        assertThat(client.tools().list().tools())
                .extracting(McpSchema.Tool::name)
                .containsExactlyElementsOf(server.toolNames());

        McpSchema.CallToolResult claimed = client.tool("signup_for_task")
                .arguments(Map.of("agent_name", "alice"))
                .call();
        assertThat(claimed.isError()).isFalse();
        assertThat(text(claimed)).contains("#" + id).contains("Write the release notes");
        assertThat(claimed.structuredContent()).isInstanceOf(Map.class);
        assertThat(store.findTask(id).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(store.findTask(id).orElseThrow().assignee()).isEqualTo("alice");

        // A bad argument gets the tool's own answer, word for word as on 2025-11-25.
        McpSchema.CallToolResult noName =
                client.tool("signup_for_task").arguments(Map.of()).call();
        assertThat(noName.isError()).isTrue();
        try (io.modelcontextprotocol.client.McpSyncClient legacy = McpClients.http(server.endpoint())) {
            io.modelcontextprotocol.spec.McpSchema.CallToolResult legacyNoName =
                    McpClients.call(legacy, "signup_for_task", Map.of());
            assertThat(text(noName)).isEqualTo(McpClients.text(legacyNoName)).doesNotContain("schema");
        }

        // The same soft error as on 2025-11-25: a tool result, not a protocol error.
        McpSchema.CallToolResult missing =
                client.tool("get_task").arguments(Map.of("task_id", 4242)).call();
        assertThat(missing.isError()).isTrue();
    }

    @Test
    void bothRevisionsShareOneEndpointAndOneStore() {
        TaskQueue queue = startHttp(null);
        queue.create(queue.newTask("One").assignee("alice").build());
        queue.create(queue.newTask("Two").assignee("bob").build());
        McpSyncClient modern = modernHttpClient(null);
        try (io.modelcontextprotocol.client.McpSyncClient legacy = McpClients.http(server.endpoint())) {
            String first = text(modern.tool("signup_for_task")
                    .arguments(Map.of("agent_name", "alice"))
                    .call());
            String second = McpClients.text(McpClients.call(legacy, "signup_for_task", Map.of("agent_name", "bob")));
            assertThat(first).contains("One");
            assertThat(second).contains("Two");
            assertThat(legacy.listTools().tools())
                    .hasSameSizeAs(modern.tools().list().tools());
        }
        List<Task> tasks = store.listTasks(queue.sessionId());
        assertThat(tasks).extracting(Task::assignee).containsExactlyInAnyOrder("alice", "bob");
    }

    @Test
    void anInitializeWithTheMethodHeaderStillOpensA2025Session() throws Exception {
        startHttp(null);

        HttpResponse<String> response =
                RawHttp.post(server.endpoint(), RawHttp.INITIALIZE, Map.of("Mcp-Method", "initialize"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Mcp-Session-Id")).isPresent();
        assertThat(response.body()).contains("\"protocolVersion\":\"2025-11-25\"");
    }

    @Test
    void theTokenGuardsTheStatelessRevisionToo() throws Exception {
        startHttp(TOKEN);

        HttpResponse<String> anonymous =
                RawHttp.post(server.endpoint(), discover(1, "2026-07-28"), modernHeaders("server/discover"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer");
        assertThatThrownBy(() -> modernHttpClient(null).discover()).isInstanceOf(RuntimeException.class);

        assertThat(modernHttpClient(TOKEN).discover().supportedVersions()).contains("2026-07-28");
    }

    @Test
    void aForeignOriginAndAForeignHostAreRefusedOnTheStatelessRevision() throws Exception {
        startHttp(null);
        Map<String, String> headers = new java.util.HashMap<>(modernHeaders("server/discover"));
        headers.put("Origin", "https://evil.example");

        assertThat(RawHttp.post(server.endpoint(), discover(1, "2026-07-28"), headers)
                        .statusCode())
                .isEqualTo(403);
        // The JDK's client will not set Host; a raw request does, with the stateless revision's headers.
        int status = RawHttp.postWithHost(
                server.endpoint(),
                "evil.example:" + server.port(),
                discover(1, "2026-07-28"),
                modernHeaders("server/discover"));
        assertThat(status).isEqualTo(421);
    }

    @Test
    void aRequestOverTheSizeLimitIsRefusedOnTheStatelessRevision() throws Exception {
        store = JdbcTaskStore.open("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath());
        server = TaskMcpServer.builder(store)
                .bind("127.0.0.1", 0)
                .maxRequestBytes(1024)
                .build()
                .start();
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_task\","
                + "\"arguments\":{\"description\":\"" + "x".repeat(4096) + "\"},"
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}";
        Map<String, String> headers =
                Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "create_task");

        assertThat(RawHttp.post(server.endpoint(), huge, headers).statusCode()).isEqualTo(413);
        assertThat(store.listTasks("queue")).isEmpty();
    }

    @Test
    void anUnsupportedVersionIsAnErrorThatNamesTheSupportedOnes() throws Exception {
        startHttp(null);
        Map<String, String> headers = Map.of("MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "server/discover");

        HttpResponse<String> response = RawHttp.post(server.endpoint(), discover(7, "2099-01-01"), headers);

        assertThat(response.statusCode()).isBetween(200, 499);
        assertThat(response.body()).contains("\"error\"").contains("2026-07-28");
    }

    @Test
    void theStatelessClientDrivesAStdioServerItStartedOnTheSameStore() {
        String url = "jdbc:h2:file:" + data.resolve("stdio").toAbsolutePath() + ";AUTO_SERVER=TRUE";
        store = JdbcTaskStore.open(url);
        TaskQueue queue = TaskQueue.builder(store).build();
        long id = queue.create(queue.newTask("Answer the support mail")
                        .assignee("carol")
                        .build())
                .id();
        Set<Long> before = ChildProcesses.descendants();
        List<String> command = ChildProcesses.serverCommand("--store", url, "--stdio");
        ServerParameters parameters = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .build();
        try (StdioMcpClientTransport transport =
                StdioMcpClientTransport.builder(parameters).jsonMapper(JSON).start()) {
            McpSyncClient client = McpClient.sync(transport)
                    .jsonMapper(JSON)
                    .callTimeout(McpClients.TIMEOUT)
                    .build();

            assertThat(client.discover().supportedVersions()).contains("2026-07-28");
            assertThat(client.tools().list().tools())
                    .extracting(McpSchema.Tool::name)
                    .contains("signup_for_task", "complete_task");
            McpSchema.CallToolResult claimed = client.tool("signup_for_task")
                    .arguments(Map.of("agent_name", "carol"))
                    .call();
            assertThat(text(claimed)).contains("#" + id);
        }
        Task claimed = store.findTask(id).orElseThrow();
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.assignee()).isEqualTo("carol");
        ChildProcesses.assertNoneLeftBesides(before);
    }

    static String discover(int id, String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}}";
    }

    static Map<String, String> modernHeaders(String method) {
        return Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method);
    }
}
