package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runnable server in stdio mode, as a child process fed line by line: bad input is answered with a
 * JSON-RPC error and the session goes on; standard output carries protocol messages only; the process
 * ends when its input ends.
 */
class StdioProtocolTest {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private Set<Long> before;
    private Process server;
    private OutputStream toServer;
    private BufferedReader fromServer;

    @BeforeEach
    void startServer() throws IOException {
        before = ChildProcesses.descendants();
        server = new ProcessBuilder(
                        ChildProcesses.serverCommand("--store", "memory", "--stdio", "--max-request-bytes", "4096"))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        toServer = server.getOutputStream();
        fromServer = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    }

    @AfterEach
    void stopServer() {
        ChildProcesses.stop(server);
        ChildProcesses.assertNoneLeftBesides(before);
    }

    private void send(String line) throws IOException {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    private String answer() throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return fromServer.readLine();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .get(20, TimeUnit.SECONDS);
        assertThat(line).as("a line from the server").isNotNull();
        return line;
    }

    private void initialize() throws Exception {
        send(INITIALIZE);
        assertThat(answer()).contains("\"id\":1", "\"protocolVersion\"");
        send(INITIALIZED);
    }

    @Test
    void aToolCallBeforeInitializeIsRefusedAndInitializeStillWorks() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"get_my_queue\","
                + "\"arguments\":{\"agent_name\":\"a\"}}}");

        assertThat(answer())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32600,"
                        + "\"message\":\"Not initialized: send initialize before tools/call.\"}}");
        initialize();
    }

    @Test
    void aToolCallBeforeTheInitializedNotificationIsRefusedInsteadOfHeld() throws Exception {
        send(INITIALIZE);
        assertThat(answer()).contains("\"id\":1", "\"protocolVersion\"");

        send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}");
        assertThat(answer())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":8,\"error\":{\"code\":-32600,\"message\":\"Not initialized:"
                        + " send notifications/initialized (after the initialize result) before tools/list.\"}}");
        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}");
        assertThat(answer()).contains("\"id\":9", "signup_for_task");
    }

    @Test
    void aMalformedLineIsAParseErrorAndTheSessionGoesOn() throws Exception {
        initialize();

        send("{this is not json");
        assertThat(answer())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                        + "\"message\":\"Parse error: the line is not a JSON-RPC message\"}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertThat(answer()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    }

    @Test
    void aMessageNamingAKeyTwiceIsAParseErrorAndNoToolRuns() throws Exception {
        initialize();

        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"create_task\",\"arguments\":{\"description\":\"smuggled\"}}}");
        assertThat(answer())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error:"
                        + " the JSON names the key 'method' twice in one object; send each key once\"}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"get_my_queue\","
                + "\"arguments\":{\"agent_name\":\"a\"}}}");
        assertThat(answer()).contains("\"id\":3", "No tasks for a");
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\","
                + "\"arguments\":{\"task_id\":1}}}");
        assertThat(answer()).as("no task was created").contains("\"id\":4", "\"isError\":true");
    }

    @Test
    void aSecondInitializeIsRefused() throws Exception {
        initialize();

        send(INITIALIZE.replace("\"id\":1", "\"id\":9"));

        assertThat(answer())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":-32600,"
                        + "\"message\":\"Already initialized: a connection sends initialize once.\"}}");
    }

    @Test
    void aLineOverTheSizeLimitIsSkippedWithAnError() throws Exception {
        initialize();

        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(10_000) + "\"}}");
        assertThat(answer()).contains("\"id\":null", "over the size limit of 4096 bytes");
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
        assertThat(answer()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
    }

    @Test
    void anUnknownMethodIsMethodNotFound() throws Exception {
        initialize();

        send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tasks/teleport\"}");

        assertThat(answer()).contains("\"id\":6", "\"code\":-32601");
    }

    @Test
    void theServerExitsWithZeroWhenItsInputEnds() throws Exception {
        initialize();

        toServer.close();

        assertThat(server.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS))
                .isTrue();
        assertThat(server.exitValue()).isZero();
        assertThat(fromServer.readLine())
                .as("nothing but protocol messages on stdout")
                .isNull();
    }

    private static String stateless(int id, String method, String params, String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}}";
    }

    @Test
    void aStatelessRequestNeedsNoInitializeAndAnswersWithTheSameToolResult() throws Exception {
        send(stateless(1, "server/discover", "", "2026-07-28"));
        assertThat(answer()).contains("\"id\":1", "\"supportedVersions\":[\"2026-07-28\"]", "\"tools\"");

        send(stateless(
                2, "tools/call", "\"name\":\"get_my_queue\",\"arguments\":{\"agent_name\":\"a\"}", "2026-07-28"));
        assertThat(answer()).contains("\"id\":2", "No tasks for a").doesNotContain("\"error\"");

        // The 2025-11-25 lifecycle is untouched: its requests still need initialize first.
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
        assertThat(answer()).contains("\"id\":3", "Not initialized");
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
        assertThat(answer()).contains("\"id\":4", "get_my_queue");
        send(stateless(5, "tools/list", "", "2026-07-28"));
        assertThat(answer()).contains("\"id\":5", "get_my_queue");
    }

    @Test
    void aRequestOfAnUnknownRevisionIsAnErrorThatNamesTheSupportedOne() throws Exception {
        send(stateless(
                9, "tools/call", "\"name\":\"create_task\",\"arguments\":{\"description\":\"x\"}", "2099-01-01"));

        assertThat(answer()).contains("\"id\":9", "\"error\"", "2026-07-28");
        // Nothing was created: the next stateless call sees an empty queue, and the server still answers.
        send(stateless(
                10, "tools/call", "\"name\":\"get_my_queue\",\"arguments\":{\"agent_name\":\"x\"}", "2026-07-28"));
        assertThat(answer()).contains("\"id\":10", "No tasks for x");
    }

    @Test
    void aStatelessRequestOverTheSizeLimitIsRefusedAndTheNextOneServed() throws Exception {
        send(stateless(
                11,
                "tools/call",
                "\"name\":\"create_task\",\"arguments\":{\"description\":\"" + "x".repeat(8192) + "\"}",
                "2026-07-28"));
        assertThat(answer()).contains("\"error\"", "size limit");

        send(stateless(
                12, "tools/call", "\"name\":\"get_my_queue\",\"arguments\":{\"agent_name\":\"x\"}", "2026-07-28"));
        assertThat(answer()).contains("\"id\":12", "No tasks for x");
    }
}
