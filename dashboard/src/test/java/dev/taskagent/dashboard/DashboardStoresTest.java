package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The board on the JDBC stores (H2 always; PostgreSQL and MariaDB when their test URLs are set): it lists
 * sessions and queues, and a change that another store instance commits (as another process would) reaches
 * its event stream.
 */
class DashboardStoresTest {
    static List<String> databases() {
        return TestDatabases.all();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theBoardListsSessionsAndQueuesAndHearsAnotherProcessesChanges(String database) throws Exception {
        try (TestDatabases.Database db = TestDatabases.create(database);
                JdbcTaskStore store = JdbcTaskStore.open(db.url());
                JdbcTaskStore otherProcess = JdbcTaskStore.open(db.url());
                TaskDashboard board = TaskDashboard.builder(store)
                        .bind("127.0.0.1", 0)
                        .build()
                        .start()) {
            TaskQueue queue = TaskQueue.builder(otherProcess).build();
            queue.create(NewTask.builder("b-session", "second").assignee("zed").build());
            queue.create(NewTask.builder("a-session", "first").assignee("amy").build());
            Task archived = queue.create(
                    NewTask.builder("a-session", "archived").assignee("gone").build());
            queue.update(TaskUpdate.of(archived.id()).archived(true).build());
            queue.claimNext("amy", Duration.ofMinutes(1));
            store.inTransaction(tx -> {
                tx.linkMessagesToPlanningSection("planning-only", List.of("m1"));
                return null;
            });
            BoardClient client = new BoardClient(board);

            JsonNode sessions = client.get("/api/sessions").json();
            JsonNode queues = client.get("/api/queues").json();

            assertThat(sessions.get("sessions")).extracting(JsonNode::asText).containsExactly("a-session", "b-session");
            assertThat(queues.get("agents"))
                    .extracting(agent -> agent.get("agent").asText())
                    .containsExactly("amy", "zed");
            assertThat(queues.get("agents")
                            .get(0)
                            .get("tasks")
                            .get(0)
                            .get("lease_until")
                            .isNull())
                    .isFalse();

            // The cards carry the work graph's fields on every store; a store without the graph (the JDBC
            // store until it implements TS-12) answers the session's cards anyway, and 501 only for the
            // lists that need the reverse edges.
            BoardClient.Reply tasks = client.get("/api/sessions/a-session/tasks");
            assertThat(tasks.status()).as(tasks.body()).isEqualTo(200);
            JsonNode first = tasks.json().get("tasks").get(0);
            assertThat(first.get("blockers")).isEmpty();
            assertThat(first.get("dependants")).isEmpty();
            assertThat(first.get("children_total").asInt()).isZero();
            BoardClient.Reply dependants =
                    client.get("/api/tasks/" + first.get("id").asLong() + "/dependants");
            assertThat(dependants.status())
                    .as(dependants.body())
                    .isEqualTo(tasks.json().get("graph_complete").asBoolean() ? 200 : 501);
            assertThat(client.get("/api/tasks/" + first.get("id").asLong() + "/blockers")
                            .status())
                    .isEqualTo(200);

            try (EventClient events = new EventClient(client, Map.of())) {
                assertThat(events.status(Duration.ofSeconds(10))).isEqualTo(200);
                Task created = queue.create(NewTask.of("c-session", "from the other process"));

                EventClient.Event event = events.next(Duration.ofSeconds(10));

                assertThat(event.data().get("task_id").asLong()).isEqualTo(created.id());
                assertThat(event.data().get("kind").asText()).isEqualTo("created");
            }
        }
    }
}
