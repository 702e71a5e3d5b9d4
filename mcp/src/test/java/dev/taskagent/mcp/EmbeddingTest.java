package dev.taskagent.mcp;

import static dev.taskagent.mcp.McpClients.call;
import static dev.taskagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.TaskStatus;
import io.modelcontextprotocol.client.McpSyncClient;
import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/** What an application that embeds the server relies on: its own container, its queue, the reaper. */
class EmbeddingTest {
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @Test
    void theServletServesMcpFromTheApplicationsOwnContainer() throws Exception {
        HttpServlet servlet =
                TaskMcpServer.builder(store).toolsets(Toolset.WORKER).buildServlet();
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/app");
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/mcp");
        jetty.setHandler(context);
        jetty.start();
        try (McpSyncClient client =
                McpClients.http(URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/app/mcp"))) {
            assertThat(client.listTools().tools()).hasSize(5);
            assertThat(text(call(client, "signup_for_task", Map.of("agent_name", "alice"))))
                    .isEqualTo("No idle task is available for alice");
        } finally {
            jetty.stop();
        }
    }

    @Test
    void aServletIsBuiltWithoutATransportOfItsOwn() {
        assertThatThrownBy(
                        () -> TaskMcpServer.builder(store).bind("127.0.0.1", 0).buildServlet())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "buildServlet() serves through your container: do not choose stdio() or bind(address, port)");
    }

    @Test
    void theServerReclaimsTheTasksOfAgentsThatVanished() {
        TaskQueue queue =
                TaskQueue.builder(store).leaseDuration(Duration.ofMillis(50)).build();
        long id = queue.create(queue.newTask("Index the docs").assignee("alice").build())
                .id();
        try (TaskMcpServer server = TaskMcpServer.builder(queue)
                .bind("127.0.0.1", 0)
                .reclaimInterval(Duration.ofMillis(20))
                .build()
                .start()) {
            try (McpSyncClient client = McpClients.http(server.endpoint())) {
                assertThat(text(call(client, "signup_for_task", Map.of("agent_name", "alice"))))
                        .startsWith("Task #" + id + " claimed");
            }
            // alice vanishes without completing: the reaper puts the task back in her queue.
            McpClients.await(
                    "the expired claim to be reclaimed",
                    Duration.ofSeconds(10),
                    () -> queue.get(id).orElseThrow().status().equals(TaskStatus.PENDING));
        }
        assertThat(queue.get(id).orElseThrow().attempt()).isEqualTo(1);
    }
}
