package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.AddressInUseException;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder refuses configurations that cannot work, with a message that names the conflict. */
class TaskMcpServerBuilderTest {
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @TempDir
    Path project;

    @Test
    void aServerNeedsATransport() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Choose a transport: stdio() or bind(address, port); or buildServlet() for your own"
                        + " container");
    }

    @Test
    void aServerNeedsAStore() {
        assertThatThrownBy(() -> TaskMcpServer.builder((TaskStore) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("store");
        assertThatThrownBy(() -> TaskMcpServer.builder((TaskQueue) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("queue");
    }

    @Test
    void theTaskfileToolsetNeedsAProjectAndAProjectNeedsTheToolset() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store)
                        .toolsets(Toolset.TASKFILE)
                        .bind("127.0.0.1", 0)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The taskfile toolset runs a project's Taskfile: set taskfileProject(directory)");
        assertThatThrownBy(() -> TaskMcpServer.builder(store)
                        .taskfileProject(project)
                        .bind("127.0.0.1", 0)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("A Taskfile project was set but the taskfile toolset was not chosen: add Toolset.TASKFILE");
    }

    @Test
    void theTaskfileToolsetIsServedOnlyWhenAskedFor() {
        TaskMcpServer server = TaskMcpServer.builder(store).bind("127.0.0.1", 0).build();

        assertThat(server.toolNames()).doesNotContain("run_user_task", "list_user_tasks");
        assertThat(server.toolNames()).hasSize(14);
    }

    @Test
    void stdioAndHttpExcludeEachOther() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).stdio().bind("127.0.0.1", 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Choose stdio or HTTP, not both");
    }

    @Test
    void aTokenOnStdioIsRefused() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store)
                        .stdio()
                        .token("0123456789abcdef0123")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("A bearer token protects HTTP; stdio has no use for one");
    }

    @Test
    void toolsetsAreNamedAsOnTheCommandLine() {
        assertThat(Toolset.fromWireName(" Worker ")).isEqualTo(Toolset.WORKER);
        assertThatThrownBy(() -> Toolset.fromWireName("admin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown toolset 'admin'; choose from queue, worker, taskfile, tasks, graph, todo, claude-tasks");
    }

    @Test
    void aToolSharedByTwoToolsetsIsServedOnce() {
        TaskMcpServer server = TaskMcpServer.builder(store)
                .toolsets(Toolset.WORKER, Toolset.QUEUE)
                .bind("127.0.0.1", 0)
                .build();

        assertThat(server.toolNames()).hasSize(14).startsWith("signup_for_task", "complete_task", "heartbeat_task");
    }

    @Test
    void theDialectToolsetsServeTheToolsCodingAgentsArePromptedWith() {
        try (TaskMcpServer server = TaskMcpServer.builder(store)
                .toolsets(Toolset.TODO, Toolset.CLAUDE_TASKS)
                .bind("127.0.0.1", 0)
                .build()
                .start()) {
            assertThat(server.toolNames())
                    .containsExactly("TodoWrite", "TodoRead", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList");
        }
        assertThat(Toolset.fromWireName("claude-tasks")).isEqualTo(Toolset.CLAUDE_TASKS);
    }

    @Test
    void aClosedServerLeavesNoListeningPortAndNoThreadBehind() {
        TaskMcpServer server = TaskMcpServer.builder(store)
                .bind("127.0.0.1", 0)
                .reclaimInterval(Duration.ofSeconds(1))
                .build()
                .start();
        int port = server.port();

        server.close();

        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        McpClients.await(
                "the server's threads to end",
                Duration.ofSeconds(10),
                () -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(thread -> thread.getName().startsWith("taskagent-mcp-")));
    }

    @Test
    void aServerStartsOnceAndClosesIdempotently() {
        TaskMcpServer server =
                TaskMcpServer.builder(store).bind("127.0.0.1", 0).build().start();
        server.close();
        server.close();

        assertThatThrownBy(server::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The MCP server was already started and closed");
    }

    @Test
    void aPortInUseIsATypedExceptionNamingTheAddressAndTheFix() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();
            TaskMcpServer server =
                    TaskMcpServer.builder(store).bind("127.0.0.1", port).build();

            assertThatThrownBy(server::start)
                    .isInstanceOf(AddressInUseException.class)
                    .hasMessage("127.0.0.1:" + port + " is already in use: choose another port with bind(address,"
                            + " port) (0 picks a free port), or stop the process that listens there");
        }
    }

    @Test
    void aReclaimIntervalOutOfTheReapersRangeIsRefused() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).reclaimInterval(Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reclaimInterval must be between 10ms and 1d, was PT0.001S");
    }

    @Test
    @SuppressWarnings("deprecation")
    void theOldNameOfBindStillWorksAndSaysTheNewOne() {
        TaskMcpServer server =
                TaskMcpServer.builder(store).http("127.0.0.1", 0).build().start();
        try {
            assertThat(server.port()).isPositive();
        } finally {
            server.close();
        }
        assertThatThrownBy(() -> TaskMcpServer.builder(store).http("127.0.0.1", 70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Port 70000 is out of range: set bind(address, port) to 0-65535 (0 picks a free port)");
    }

    @Test
    void anAllowedOriginOrHostThatIsNotOneIsRefusedWithTheBoardsMessage() {
        assertThatThrownBy(() -> TaskMcpServer.builder(store).allowedOrigins("https://board.example.com/board"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowedOrigins(...) takes origins as a browser sends them in its Origin header: http or"
                        + " https, a host and an optional port, or :* for any port, e.g. https://tasks.example.com;"
                        + " was 'https://board.example.com/board'");
        assertThatThrownBy(() -> TaskMcpServer.builder(store).allowedHosts("https://board.example.com"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowedHosts(...) takes hosts as a browser sends them in its Host header: a host and an"
                        + " optional port, or :* for any port, e.g. tasks.example.com:8443; was"
                        + " 'https://board.example.com'");
    }
}
