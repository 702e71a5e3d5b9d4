package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource change notifications over stdio, from a server process to its client, for a task that another
 * process (this test's JVM, on the same H2 file served with {@code AUTO_SERVER}) changes: a 2025-11-25
 * subscription and a 2026-07-28 {@code subscriptions/listen} stream on one connection; the open stream does
 * not hold the server when its input ends.
 */
class ResourcesStdioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}";

    @TempDir
    Path data;

    private Set<Long> before;
    private Process server;
    private OutputStream toServer;
    private BufferedReader fromServer;
    private JdbcTaskStore otherProcess;

    @BeforeEach
    void startServer() throws IOException {
        String url = "jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath() + ";AUTO_SERVER=TRUE";
        otherProcess = JdbcTaskStore.open(url);
        before = ChildProcesses.descendants();
        server = new ProcessBuilder(ChildProcesses.serverCommand("--store", url, "--stdio"))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        toServer = server.getOutputStream();
        fromServer = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    }

    @AfterEach
    void stopServer() {
        ChildProcesses.stop(server);
        ChildProcesses.assertNoneLeftBesides(before);
        otherProcess.close();
    }

    private void send(String line) throws IOException {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    private JsonNode next() throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return fromServer.readLine();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .get(30, TimeUnit.SECONDS);
        assertThat(line).as("a line from the server").isNotNull();
        return JSON.readTree(line);
    }

    /** Reads lines until one has this method or this id; returns it and the ones skipped. */
    private JsonNode until(String method, int id, List<JsonNode> seen) throws Exception {
        while (true) {
            JsonNode message = next();
            seen.add(message);
            if ((!method.isEmpty() && message.path("method").asText().equals(method))
                    || message.path("id").asInt(-1) == id) {
                return message;
            }
        }
    }

    @Test
    void bothRevisionsAreToldOfAChangeByAnotherProcessAndAnOpenStreamDoesNotHoldTheServer() throws Exception {
        TaskQueue other = TaskQueue.builder(otherProcess).build();
        Task task = other.create(other.newTask("Watched over stdio").build());
        String uri = "taskagent://tasks/" + task.id();
        List<JsonNode> seen = new ArrayList<>();

        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(until("", 1, seen)
                        .path("result")
                        .path("capabilities")
                        .path("resources")
                        .path("subscribe")
                        .asBoolean())
                .isTrue();
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"" + uri + "\"}}");
        assertThat(until("", 2, seen).has("result")).isTrue();
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                + "{\"resourceSubscriptions\":[\"" + uri + "\"]}," + META + "}}");
        JsonNode acknowledged = until("notifications/subscriptions/acknowledged", -1, seen);
        assertThat(acknowledged
                        .path("params")
                        .path("notifications")
                        .path("resourceSubscriptions")
                        .get(0)
                        .asText())
                .isEqualTo(uri);

        other.comment(task.id(), "carol", "Changed by another process");

        List<JsonNode> updates = new ArrayList<>();
        while (updates.size() < 2) {
            JsonNode update = until("notifications/resources/updated", -1, seen);
            updates.add(update);
        }
        assertThat(updates)
                .allSatisfy(update ->
                        assertThat(update.path("params").path("uri").asText()).isEqualTo(uri));
        // One from each revision: the 2026-07-28 one names its stream.
        assertThat(updates)
                .filteredOn(update -> update.path("params").path("_meta").has("io.modelcontextprotocol/subscriptionId"))
                .hasSize(1);

        toServer.close();
        // The input ended: the server answers what it was answering and exits; the open stream is no reply to
        // wait for (StdioTransport.DRAIN_TIMEOUT, 60 s, would otherwise pass first).
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the server exited").isTrue();
        assertThat(server.exitValue()).isZero();
    }
}
