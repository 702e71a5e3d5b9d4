package dev.taskagent.mcp;

import static dev.taskagent.mcp.McpClients.call;
import static dev.taskagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable jar, as the README tells users to run it. */
class RunnableJarIT {
    @TempDir
    Path data;

    @Test
    void helpAndVersionAnswerAndExitWithZero() throws Exception {
        NodeHarness.Result help = run("jar-help", "--help");
        NodeHarness.Result version = run("jar-version", "--version");

        assertThat(help.exitCode()).isZero();
        assertThat(help.output()).startsWith("Usage: java -jar taskagent-mcp-all.jar --store URL");
        assertThat(version.exitCode()).isZero();
        assertThat(version.output()).startsWith("taskagent-mcp ");
    }

    @Test
    void aBadOptionExitsWithTwoAndSaysWhy() throws Exception {
        NodeHarness.Result result = run("jar-bad-option", "--store", "memory", "--http", "127.0.0.1:99999");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output())
                .contains("taskagent-mcp: Port 99999 is out of range: set --http [HOST:]PORT to 0-65535 (0 picks a"
                        + " free port)");
    }

    @Test
    void aPortInUseIsOneLineWithoutAStackTraceAndExitsWithOne() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();

            NodeHarness.Result result = run("jar-port-in-use", "--store", "memory", "--http", "127.0.0.1:" + port);

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.output())
                    .isEqualTo("taskagent-mcp: 127.0.0.1:" + port + " is already in use: choose another port with"
                            + " --http [HOST:]PORT (0 picks a free port), or stop the process that listens there\n");
        }
    }

    @Test
    void theJarServesHttpOnAnH2FileAndKeepsTheTasks() throws Exception {
        Set<Long> before = ChildProcesses.descendants();
        String store = "jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath();
        try (JarProcess server = JarProcess.start("jar-h2", "--store", store, "--http", "127.0.0.1:0")) {
            try (McpSyncClient client = McpClients.http(server.awaitEndpoint())) {
                assertThat(text(call(client, "create_task", Map.of("description", "Kept", "assignee", "alice"))))
                        .isEqualTo("Task #1 created");
            }
        }
        try (JarProcess server = JarProcess.start("jar-h2-again", "--store", store, "--http", "127.0.0.1:0")) {
            try (McpSyncClient client = McpClients.http(server.awaitEndpoint())) {
                assertThat(text(call(client, "get_my_queue", Map.of("agent_name", "alice"))))
                        .isEqualTo("Tasks of alice:\n#1 pending p0: Kept");
            }
        }
        ChildProcesses.assertNoneLeftBesides(before);
    }

    @Test
    void aSecondServerOnAnH2FileInUseExitsWithOneAndOneLineThatSaysHowToShareIt() throws Exception {
        Set<Long> before = ChildProcesses.descendants();
        String store = "jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath();
        try (JarProcess first = JarProcess.start("jar-h2-holder", "--store", store, "--http", "127.0.0.1:0")) {
            first.awaitEndpoint();

            NodeHarness.Result second = run("jar-h2-in-use", "--store", store, "--http", "127.0.0.1:0");

            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.output().lines().toList())
                    .containsExactly("taskagent-mcp: could not open the store: The H2 database " + store
                            + " is in use by another process: an embedded H2 file opens in one process at a time."
                            + " Stop the other process, or share the database: add ;AUTO_SERVER=TRUE to the URL in"
                            + " every process, serve it with an H2 TCP server (jdbc:h2:tcp://...), or use PostgreSQL"
                            + " or MariaDB");
        }
        ChildProcesses.assertNoneLeftBesides(before);
    }

    private static NodeHarness.Result run(String name, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                JarProcess.java(), "-jar", JarProcess.jar().toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        return NodeHarness.run(name, Duration.ofMinutes(1), command);
    }
}
