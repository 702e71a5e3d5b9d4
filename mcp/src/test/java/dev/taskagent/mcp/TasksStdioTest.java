package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Tasks extension over stdio, where the server picks the revision per message: a 2026-07-28 call that
 * declares the extension gets a task, polled to its result on the same connection; the server is a child
 * process fed line by line.
 */
class TasksStdioTest {
    @TempDir
    Path project;

    private Set<Long> before;
    private Process server;
    private OutputStream toServer;
    private BufferedReader fromServer;

    @BeforeEach
    void startServer() throws IOException {
        Files.createDirectories(project.resolve(".agent"));
        Files.writeString(project.resolve(".agent/Taskfile.yml"), """
                version: '3'
                tasks:
                  hello:
                    desc: Says hello
                    cmds: [echo hello over stdio]
                """);
        before = ChildProcesses.descendants();
        server = new ProcessBuilder(ChildProcesses.serverCommand(
                        "--store",
                        "memory",
                        "--stdio",
                        "--toolsets",
                        "taskfile",
                        "--taskfile-project",
                        project.toString()))
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

    private JsonNode exchange(JsonNode request) {
        try {
            toServer.write((TasksWire.JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8));
            toServer.flush();
            String line = CompletableFuture.supplyAsync(() -> {
                        try {
                            return fromServer.readLine();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .get(20, TimeUnit.SECONDS);
            assertThat(line).as("a line from the server").isNotNull();
            return TasksWire.JSON.readTree(line);
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aDeclaringClientGetsATaskAndItsResultOverStdio() {
        TasksWire wire = new TasksWire(true, this::exchange);
        String taskId = wire.startRun("hello");

        JsonNode ended = wire.awaitEnd(taskId, Duration.ofSeconds(30));
        assertThat(ended.path("status").asText()).as(ended.toString()).isEqualTo("completed");
        assertThat(ended.path("result").path("content").get(0).path("text").asText())
                .contains("hello over stdio");

        JsonNode unknown = wire.tasks("tasks/get", "nope");
        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32602);
    }
}
