package dev.taskagent.mcp;

import static dev.taskagent.mcp.McpClients.call;
import static dev.taskagent.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The official Java SDK client starts the server as a child process and talks to it over stdio. */
class JavaClientStdioTest {

    @Test
    void theJavaClientDrivesTheServerItStartedOverStdioAndNoProcessIsLeft() {
        Set<Long> before = ChildProcesses.descendants();
        List<String> command =
                ChildProcesses.serverCommand("--store", "memory", "--stdio", "--toolsets", "worker,tasks");
        ServerParameters parameters = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
                .requestTimeout(McpClients.TIMEOUT)
                .initializationTimeout(McpClients.TIMEOUT)
                .build();
        try {
            McpSchema.InitializeResult initialized = client.initialize();

            assertThat(initialized.serverInfo().name()).isEqualTo("taskagent");
            assertThat(client.listTools().tools())
                    .extracting(McpSchema.Tool::name)
                    .containsExactly(
                            "signup_for_task",
                            "complete_task",
                            "move_task",
                            "add_comment",
                            "get_task",
                            "list_tasks",
                            "get_task_with_steps");
            assertThat(text(call(client, "signup_for_task", Map.of("agent_name", "alice"))))
                    .isEqualTo("No idle task is available for alice");
            assertThat(call(client, "get_task", Map.of("task_id", 42)).isError())
                    .isTrue();
        } finally {
            client.closeGracefully();
        }
        ChildProcesses.assertNoneLeftBesides(before);
    }
}
