package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Tasks extension of revision 2026-07-28 over HTTP, on an H2 file store: a Taskfile run answered with a
 * task, polled to its result, cancelled for real (its process is killed), and every refusal.
 */
class TasksExtensionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path data;

    @TempDir
    Path project;

    private JdbcTaskStore store;
    private TaskQueue queue;
    private TaskMcpServer server;
    private TasksWire declaring;
    private TasksWire plain;
    private Set<Long> childrenBefore;

    @BeforeEach
    void start() throws IOException {
        childrenBefore = ChildProcesses.descendants();
        Files.createDirectories(project.resolve(".agent"));
        Files.writeString(project.resolve(".agent/Taskfile.yml"), """
                version: '3'
                tasks:
                  hello:
                    desc: Says hello
                    cmds: [echo hello from a task]
                  broken:
                    desc: Fails
                    cmds: [echo about to fail; exit 3]
                  slow:
                    desc: Sleeps until stopped
                    cmds: ['sleep 300 & echo $! > sleep.pid; wait']
                """);
        store = JdbcTaskStore.open("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath());
        queue = TaskQueue.builder(store).build();
        server = TaskMcpServer.builder(queue)
                .toolsets(Toolset.QUEUE, Toolset.TASKFILE)
                .taskfileProject(project)
                .bind("127.0.0.1", 0)
                .build()
                .start();
        declaring = new TasksWire(server.endpoint(), true);
        plain = new TasksWire(server.endpoint(), false);
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
        ChildProcesses.assertNoneLeftBesides(childrenBefore);
    }

    @Test
    void discoverAdvertisesTheExtension() {
        JsonNode discovered = TasksWire.response(
                declaring.send(declaring.request("server/discover", TasksWire.JSON.createObjectNode()), null));
        assertThat(discovered
                        .path("result")
                        .path("capabilities")
                        .path("extensions")
                        .has(TasksExtension.ID))
                .as(discovered.toString())
                .isTrue();
    }

    @Test
    void aRunIsAnsweredWithATaskThatEndsWithTheRunsResultInTheStore() {
        JsonNode created = declaring.callTool("run_user_task", Map.of("task_name", "hello"));

        JsonNode result = created.path("result");
        assertThat(result.path("resultType").asText()).as(created.toString()).isEqualTo("task");
        assertThat(result.has("task")).isFalse();
        assertThat(result.has("result")).isFalse();
        assertThat(result.path("status").asText()).isEqualTo("working");
        assertThat(result.path("createdAt").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*");
        assertThat(result.path("lastUpdatedAt").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*");
        assertThat(result.has("ttlMs")).isTrue();
        assertThat(result.path("pollIntervalMs").asLong()).isPositive();
        String taskId = result.path("taskId").asText();

        JsonNode ended = declaring.awaitEnd(taskId, TIMEOUT);
        assertThat(ended.path("resultType").asText()).isEqualTo("complete");
        assertThat(ended.path("taskId").asText()).isEqualTo(taskId);
        assertThat(ended.path("status").asText()).isEqualTo("completed");
        assertThat(ended.path("result").path("isError").asBoolean()).isFalse();
        assertThat(ended.path("result").path("content").get(0).path("text").asText())
                .contains("hello from a task");
        assertThat(ended.has("error")).isFalse();

        Task record = store.findTask(Long.parseLong(taskId)).orElseThrow();
        assertThat(record.sessionId()).isEqualTo(StoredToolTasks.SESSION_ID);
        assertThat(record.tags()).containsExactly(StoredToolTasks.TAG);
        assertThat(record.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(record.description()).startsWith("run_user_task ").contains("\"hello\"");
    }

    @Test
    void aRunThatFailsCompletesWithAnErrorResultNotAsAFailedTask() {
        String taskId = declaring.startRun("broken");

        JsonNode ended = declaring.awaitEnd(taskId, TIMEOUT);
        assertThat(ended.path("status").asText()).isEqualTo("completed");
        assertThat(ended.path("result").path("isError").asBoolean()).isTrue();
        assertThat(ended.path("result").path("content").get(0).path("text").asText())
                .contains("about to fail");
        assertThat(store.findTask(Long.parseLong(taskId)).orElseThrow().status())
                .isEqualTo(TaskStatus.FAILED);
    }

    @Test
    void aClientThatDidNotDeclareTheExtensionGetsTheResultAtOnceOnBothRevisions() {
        JsonNode answered = plain.callTool("run_user_task", Map.of("task_name", "hello"));
        assertThat(answered.path("result").has("taskId"))
                .as(answered.toString())
                .isFalse();
        assertThat(answered.path("result").path("resultType").asText()).isEqualTo("complete");
        assertThat(answered.path("result").path("content").get(0).path("text").asText())
                .contains("hello from a task");

        // The SDK's own 2026-07-28 client, which declares no extension, gets the run's result.
        io.modelcontextprotocol.modern.client.McpSyncClient modern =
                io.modelcontextprotocol.modern.client.McpClient.sync(
                                io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport.builder(
                                                server.endpoint())
                                        .jsonMapper(WireJson.mapper())
                                        .build())
                        .jsonMapper(WireJson.mapper())
                        .callTimeout(McpClients.TIMEOUT)
                        .build();
        io.modelcontextprotocol.modern.McpSchema.CallToolResult modernResult = modern.tool("run_user_task")
                .arguments(Map.of("task_name", "hello"))
                .call();
        assertThat(((io.modelcontextprotocol.modern.McpSchema.TextContent)
                                modernResult.content().get(0))
                        .text())
                .contains("hello from a task");

        try (io.modelcontextprotocol.client.McpSyncClient legacy = McpClients.http(server.endpoint())) {
            String text = McpClients.text(McpClients.call(legacy, "run_user_task", Map.of("task_name", "hello")));
            assertThat(text).contains("hello from a task");
        }
        assertThat(store.listTasks(StoredToolTasks.SESSION_ID)).isEmpty();
    }

    @Test
    void tasksMethodsNeedTheExtensionDeclared() {
        String taskId = declaring.startRun("hello");
        for (String method : List.of("tasks/get", "tasks/cancel", "tasks/update")) {
            JsonNode refused = plain.tasks(method, taskId);
            assertThat(refused.path("error").path("code").asInt())
                    .as(method + ": " + refused)
                    .isEqualTo(-32021);
            assertThat(refused.path("error")
                            .path("data")
                            .path("requiredCapabilities")
                            .path("extensions")
                            .has(TasksExtension.ID))
                    .as(refused.toString())
                    .isTrue();
        }
        declaring.awaitEnd(taskId, TIMEOUT);
    }

    @Test
    void cancelKillsTheRunsProcessesAndTheTaskReadsCancelledEverywhere() throws IOException {
        String taskId = declaring.startRun("slow");
        Path pidFile = project.resolve("sleep.pid");
        McpClients.await(
                "the run to start its sleep", TIMEOUT, () -> readPid(pidFile).isPresent());
        long sleepPid = readPid(pidFile).orElseThrow();
        assertThat(ProcessHandle.of(sleepPid)).isPresent();
        assertThat(declaring
                        .tasks("tasks/get", taskId)
                        .path("result")
                        .path("status")
                        .asText())
                .isEqualTo("working");

        assertEmptyAck(declaring.tasks("tasks/cancel", taskId));

        McpClients.await("the sleep of the cancelled run to be killed", TIMEOUT, () -> ProcessHandle.of(sleepPid)
                .map(process -> !process.isAlive())
                .orElse(true));
        JsonNode ended = declaring.awaitEnd(taskId, TIMEOUT);
        assertThat(ended.path("status").asText()).isEqualTo("cancelled");
        assertThat(ended.has("result")).isFalse();
        Task record = store.findTask(Long.parseLong(taskId)).orElseThrow();
        assertThat(record.status()).isEqualTo(TaskStatus.CANCELLED);
        // A second cancel of the ended task is acknowledged the same, and changes nothing.
        long version = store.findTask(record.id()).orElseThrow().version();
        assertEmptyAck(declaring.tasks("tasks/cancel", taskId));
        assertThat(store.findTask(record.id()).orElseThrow().version()).isEqualTo(version);
    }

    /** A {@code tasks/cancel} answer: {@code resultType} complete and none of a task's fields. */
    private static void assertEmptyAck(JsonNode response) {
        JsonNode result = response.path("result");
        assertThat(result.path("resultType").asText()).as(response.toString()).isEqualTo("complete");
        List<String> fields = new java.util.ArrayList<>();
        result.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).doesNotContain("taskId", "status", "result", "error", "inputRequests");
    }

    @Test
    void aServerThatStopsEndsItsRunningTasksAsFailedAndStopsTheirRuns() {
        String taskId = declaring.startRun("slow");
        Path pidFile = project.resolve("sleep.pid");
        McpClients.await(
                "the run to start its sleep", TIMEOUT, () -> readPid(pidFile).isPresent());
        long sleepPid = readPid(pidFile).orElseThrow();

        server.close();

        McpClients.await("the sleep of the stopped run to be killed", TIMEOUT, () -> ProcessHandle.of(sleepPid)
                .map(process -> !process.isAlive())
                .orElse(true));
        Task record = store.findTask(Long.parseLong(taskId)).orElseThrow();
        assertThat(record.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(record.comments())
                .anySatisfy(comment -> assertThat(comment.author()).isEqualTo(StoredToolTasks.ERROR_AUTHOR))
                .noneMatch(comment -> comment.author().equals(StoredToolTasks.RESULT_AUTHOR));
        assertThat(record.comments().get(record.comments().size() - 1).text())
                .contains("The server stopped while the task ran");
    }

    @Test
    void unknownTasksAndMalformedParamsAreInvalidParams() {
        long ordinary = queue.create(queue.newTask("Not an MCP task").build()).id();
        for (String unknown : List.of("no-such-task", "0", "-3", "99999999", Long.toString(ordinary))) {
            for (String method : List.of("tasks/get", "tasks/cancel", "tasks/update")) {
                JsonNode refused = declaring.tasks(method, unknown);
                assertThat(refused.path("error").path("code").asInt())
                        .as(method + " " + unknown + ": " + refused)
                        .isEqualTo(-32602);
                assertThat(refused.path("error").path("message").asText())
                        .isEqualTo("Unknown task '" + unknown + "': no task of this server's store has that id."
                                + " Use the taskId a tools/call answered with.");
            }
        }
        assertThat(store.findTask(ordinary).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);

        ObjectNode noTaskId = TasksWire.JSON.createObjectNode();
        JsonNode missing = TasksWire.response(declaring.send(declaring.request("tasks/get", noTaskId), "x"));
        assertThat(missing.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(missing.path("error").path("message").asText())
                .isEqualTo("tasks/get needs params.taskId, the task id a tools/call answered with (a string)");

        ObjectNode numericTaskId = TasksWire.JSON.createObjectNode().put("taskId", 7);
        JsonNode numeric = TasksWire.response(declaring.send(declaring.request("tasks/get", numericTaskId), "7"));
        assertThat(numeric.path("error").path("code").asInt()).isEqualTo(-32602);

        for (String removed : List.of("tasks/result", "tasks/list")) {
            ObjectNode params = TasksWire.JSON.createObjectNode().put("taskId", "1");
            JsonNode refused = TasksWire.response(declaring.send(declaring.request(removed, params), "1"));
            assertThat(refused.path("error").path("code").asInt()).as(removed).isEqualTo(-32601);
        }
    }

    @Test
    void updateOfATaskThatAskedForNothingIsRefused() {
        String taskId = declaring.startRun("hello");
        declaring.awaitEnd(taskId, TIMEOUT);
        JsonNode refused = declaring.tasks("tasks/update", taskId);
        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("error").path("message").asText())
                .isEqualTo("Task " + taskId + " is completed, not input_required: it asked for no input, so"
                        + " tasks/update has nothing to answer");
    }

    @Test
    void anMcpNameHeaderThatNamesAnotherTaskIsRefused() {
        String taskId = declaring.startRun("hello");
        HttpResponse<String> mismatched = declaring.send(declaring.taskRequest("tasks/get", taskId), "other-task");
        assertThat(mismatched.statusCode()).isEqualTo(400);
        assertThat(TasksWire.response(mismatched).path("error").path("code").asInt())
                .isEqualTo(-32020);
        declaring.awaitEnd(taskId, TIMEOUT);
    }

    @Test
    void aTaskWhoseServerStoppedRenewingItsLeaseReadsAsFailedWithTheReasonOnceAReaperTookItBack() {
        // What a killed server leaves behind: a running MCP task whose lease ran out.
        String agent = "mcp-task-gone";
        long id = store.inTransaction(transaction -> {
                    transaction.appendTask(
                            dev.taskagent.task.NewTask.builder(StoredToolTasks.SESSION_ID, "run_user_task {}")
                                    .assignee(agent)
                                    .maxAttempts(1)
                                    .tags(StoredToolTasks.TAG)
                                    .build());
                    return transaction.claimNext(agent, Duration.ofMillis(1)).orElseThrow();
                })
                .id();
        McpClients.await(
                "the lease to run out",
                TIMEOUT,
                () -> store.findTask(id).orElseThrow().leaseExpiresAt().isBefore(java.time.Instant.now()));

        assertThat(declaring
                        .tasks("tasks/get", Long.toString(id))
                        .path("result")
                        .path("status")
                        .asText())
                .as("a read takes nothing back: that is a lease reaper's work, with the application's settings")
                .isEqualTo("working");
        queue.reclaimExpired(); // what a LeaseReaper does

        JsonNode read = declaring.tasks("tasks/get", Long.toString(id)).path("result");
        assertThat(read.path("status").asText()).isEqualTo("failed");
        assertThat(read.has("result")).isFalse();
        assertThat(read.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(read.path("error").path("message").asText())
                .startsWith("The server that ran this task stopped before it finished");
        // Failed by a reclaim, on the store's clock, whose comment says when the lease ran out.
        assertThat(read.path("error").path("data").path("reaper").asText())
                .contains("expired at")
                .contains("dead letter");
        Task record = store.findTask(id).orElseThrow();
        assertThat(record.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(record.comments())
                .anySatisfy(comment -> assertThat(comment.author()).isEqualTo(Leases.REAPER))
                .noneMatch(comment -> comment.author().equals(StoredToolTasks.ERROR_AUTHOR));
    }

    @Test
    void aTaskThatALeaseReaperFailedReadsAsFailedBecauseItsServerStopped() {
        String agent = "mcp-task-reaped";
        long id = store.inTransaction(transaction -> {
                    transaction.appendTask(
                            dev.taskagent.task.NewTask.builder(StoredToolTasks.SESSION_ID, "run_user_task {}")
                                    .assignee(agent)
                                    .maxAttempts(1)
                                    .tags(StoredToolTasks.TAG)
                                    .build());
                    return transaction.claimNext(agent, Duration.ofMillis(1)).orElseThrow();
                })
                .id();
        McpClients.await("the reaper to fail the task", TIMEOUT, () -> {
            queue.reclaimExpired();
            return store.findTask(id).orElseThrow().status() == TaskStatus.FAILED;
        });

        JsonNode read = declaring.tasks("tasks/get", Long.toString(id)).path("result");
        assertThat(read.path("status").asText()).isEqualTo("failed");
        assertThat(read.path("error").path("message").asText())
                .isEqualTo("The server that ran this task stopped before it finished (its lease ran out and the"
                        + " store's lease reaper failed it); the outcome is unknown. Run it again if it is still"
                        + " needed.");
    }

    private static Optional<Long> readPid(Path file) {
        try {
            String text = Files.exists(file) ? Files.readString(file).strip() : "";
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
