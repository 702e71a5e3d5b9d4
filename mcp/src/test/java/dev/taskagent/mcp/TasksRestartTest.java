package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP tasks outlive their server: real server processes on one store (an H2 file shared with {@code
 * AUTO_SERVER}, and the test PostgreSQL and MariaDB when {@code TASKAGENT_TEST_POSTGRES_URL} and {@code
 * TASKAGENT_TEST_MARIADB_URL} are set), one of them killed with SIGKILL while it runs a task.
 */
class TasksRestartTest {
    /** The lease of a running task, plus the time to notice it ran out and to poll. */
    private static final Duration LEASE_RUNS_OUT = StoredToolTasks.LEASE.plusSeconds(20);

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path data;

    @TempDir
    Path project;

    @Test
    void onASharedH2FileATaskOutlivesItsKilledServerAndAnotherServerCancelsARunOfAThird() throws Exception {
        Set<Long> before = ChildProcesses.descendants();
        writeTaskfile();
        roundTrip("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath() + ";AUTO_SERVER=TRUE");
        ChildProcesses.assertNoneLeftBesides(before);
    }

    @Test
    void onPostgresqlATaskOutlivesItsKilledServerAndAnotherServerCancelsARunOfAThird() throws Exception {
        onServer(TestDatabase.POSTGRES);
    }

    @Test
    void onMariadbATaskOutlivesItsKilledServerAndAnotherServerCancelsARunOfAThird() throws Exception {
        onServer(TestDatabase.MARIADB);
    }

    private void onServer(TestDatabase server) throws Exception {
        Assumptions.assumeTrue(server.configured(), server.variable() + " is not set");
        Set<Long> before = ChildProcesses.descendants();
        writeTaskfile();
        try (TestDatabase.Own database = server.create()) {
            roundTrip(database.url());
        }
        ChildProcesses.assertNoneLeftBesides(before);
    }

    private void writeTaskfile() throws IOException {
        Files.createDirectories(project.resolve(".agent"));
        Files.writeString(project.resolve(".agent/Taskfile.yml"), """
                version: '3'
                tasks:
                  hello:
                    desc: Says hello
                    cmds: [echo hello from a task]
                  slow-a:
                    desc: Sleeps, leaving its pid in a.pid
                    cmds: ['sleep 300 & echo $! > a.pid; wait']
                  slow-b:
                    desc: Sleeps, leaving its pid in b.pid
                    cmds: ['sleep 300 & echo $! > b.pid; wait']
                """);
    }

    private void roundTrip(String store) throws IOException {
        String[] arguments = {
            "--store",
            store,
            "--http",
            "127.0.0.1:0",
            "--toolsets",
            "queue,taskfile",
            "--taskfile-project",
            project.toString(),
            // The servers' own lease reapers fail a dead server's task once its lease ran out.
            "--reclaim-interval",
            "1s"
        };
        try (JarProcess first = JarProcess.startFromClassPath("tasks-first", arguments);
                JarProcess second = JarProcess.startFromClassPath("tasks-second", arguments)) {
            TasksWire firstClient = new TasksWire(first.awaitEndpoint(), true);
            TasksWire secondClient = new TasksWire(second.awaitEndpoint(), true);

            String done = firstClient.startRun("hello");
            firstClient.awaitEnd(done, TIMEOUT);
            String orphan = firstClient.startRun("slow-a");
            long orphanSleep = awaitPid(project.resolve("a.pid"));
            // The other server sees the task the first one runs.
            assertThat(status(secondClient.tasks("tasks/get", orphan))).isEqualTo("working");

            first.killHard();
            try {
                // Once the dead server's lease has run out, the task reads as failed, with the reason.
                JsonNode failed = secondClient.awaitEnd(orphan, LEASE_RUNS_OUT);
                assertThat(failed.path("status").asText()).isEqualTo("failed");
                assertThat(failed.path("error").path("message").asText())
                        .startsWith("The server that ran this task stopped before it finished");
                assertThat(failed.has("result")).isFalse();
            } finally {
                // The killed server's command is not the kernel's to stop: stop it here.
                ProcessHandle.of(orphanSleep).ifPresent(ProcessHandle::destroyForcibly);
            }

            try (JarProcess restarted = JarProcess.startFromClassPath("tasks-restarted", arguments)) {
                TasksWire restartedClient = new TasksWire(restarted.awaitEndpoint(), true);
                JsonNode completed = restartedClient.tasks("tasks/get", done).path("result");
                assertThat(completed.path("status").asText()).isEqualTo("completed");
                assertThat(completed
                                .path("result")
                                .path("content")
                                .get(0)
                                .path("text")
                                .asText())
                        .contains("hello from a task");
                assertThat(status(restartedClient.tasks("tasks/get", orphan))).isEqualTo("failed");

                // A cancel sent to one server stops the run on the server that runs it.
                String running = secondClient.startRun("slow-b");
                long sleep = awaitPid(project.resolve("b.pid"));
                restartedClient.tasks("tasks/cancel", running);
                McpClients.await("the run on the other server to be killed", TIMEOUT, () -> ProcessHandle.of(sleep)
                        .map(process -> !process.isAlive())
                        .orElse(true));
                assertThat(status(secondClient.tasks("tasks/get", running))).isEqualTo("cancelled");
            }
        }
    }

    private static String status(JsonNode response) {
        return response.path("result").path("status").asText();
    }

    private static long awaitPid(Path file) {
        McpClients.await(
                "the run to write " + file, TIMEOUT, () -> readPid(file).isPresent());
        return readPid(file).orElseThrow();
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
