package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official TypeScript SDK clients run two agents against the runnable jar on PostgreSQL, over
 * Streamable HTTP and over stdio, once per protocol revision: the v1 SDK ({@code @modelcontextprotocol/sdk})
 * for 2025-11-25 and the v2 SDK ({@code @modelcontextprotocol/client}, pinned to the revision) for the
 * stateless 2026-07-28: alice creates, claims, comments and
 * hands a task to bob, who claims, comments and completes it ({@code src/test/node/two-agents.mjs}).
 * The store is checked afterwards. Runs when {@code TASKAGENT_TEST_POSTGRES_URL} is set (CI sets it).
 */
class TypeScriptClientIT {
    private TestDatabase.Own schema;
    private Set<Long> before;

    @BeforeEach
    void createSchema() throws Exception {
        assumeTrue(TestDatabase.POSTGRES.configured(), TestDatabase.POSTGRES.variable() + " is not set");
        NodeHarness.install();
        schema = TestDatabase.POSTGRES.create();
        before = ChildProcesses.descendants();
    }

    @AfterEach
    void dropSchema() throws Exception {
        if (schema != null) {
            ChildProcesses.assertNoneLeftBesides(before);
            schema.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2026-07-28"})
    void twoTypeScriptAgentsHandATaskOverThroughStreamableHttp(String revision) throws Exception {
        NodeHarness.Result result;
        try (JarProcess server =
                JarProcess.start("ts-http-server-" + revision, "--store", schema.url(), "--http", "127.0.0.1:0")) {
            String endpoint = server.awaitEndpoint().toString();
            result = NodeHarness.run(
                    "ts-client-http-" + revision,
                    Duration.ofMinutes(3),
                    List.of("node", "two-agents.mjs", revision, "http", endpoint));
        }

        assertTheHandOverIsInTheStore(result);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2026-07-28"})
    void twoTypeScriptAgentsEachWithItsOwnStdioServerShareTheQueue(String revision) throws Exception {
        NodeHarness.Result result = NodeHarness.run(
                "ts-client-stdio-" + revision,
                Duration.ofMinutes(3),
                List.of(
                        "node",
                        "two-agents.mjs",
                        revision,
                        "stdio",
                        JarProcess.java(),
                        JarProcess.jar().toAbsolutePath().toString(),
                        schema.url()));

        assertTheHandOverIsInTheStore(result);
    }

    private void assertTheHandOverIsInTheStore(NodeHarness.Result result) throws Exception {
        assertThat(result.exitCode()).as(result.output()).isZero();
        String summary = result.output()
                .lines()
                .filter(line -> line.startsWith("{\"taskId\""))
                .findFirst()
                .orElseThrow();
        JsonNode reported = new ObjectMapper().readTree(summary);
        try (JdbcTaskStore store = JdbcTaskStore.open(schema.url())) {
            Task task = store.findTask(reported.get("taskId").asLong()).orElseThrow();

            assertThat(task.status()).isEqualTo(TaskStatus.SUCCESS);
            assertThat(task.assignee()).isEqualTo("bob");
            assertThat(task.previousAssignee()).isEqualTo("alice");
            assertThat(task.createdBy()).isEqualTo("alice");
            assertThat(task.attempt())
                    .isEqualTo(2)
                    .isEqualTo(reported.get("attempt").asInt());
            assertThat(task.isLeased()).isFalse();
            assertThat(task.comments())
                    .extracting(Comment::author, Comment::text)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("alice", "Drafted the notes."),
                            org.assertj.core.groups.Tuple.tuple("alice", "Bob, please publish them."),
                            org.assertj.core.groups.Tuple.tuple("bob", "Published."),
                            org.assertj.core.groups.Tuple.tuple("bob", "Live on the site."));
        }
    }
}
