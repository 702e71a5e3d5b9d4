package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded default: an H2 file database opened with a URL. */
class H2FileStoreTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private final MutableClock clock = MutableClock.standard();

    @TempDir
    Path folder;

    private String url() {
        return "jdbc:h2:file:" + folder.resolve("tasks").toAbsolutePath();
    }

    @Test
    void aStoreClosedAndReopenedKeepsEverything() {
        List<Task> written;
        List<String> planning;
        try (JdbcTaskStore store = JdbcTaskStore.builder(url()).clock(clock).build()) {
            written = store.inTransaction(tx -> {
                Task first = tx.appendTask(NewTask.builder("s", "write the report")
                        .assignee("ann")
                        .priority(3)
                        .createdBy("lead")
                        .steps("- [ ] draft\n- [ ] send")
                        .build());
                clock.advance(Duration.ofSeconds(1));
                Task second = tx.insertTask(NewTask.of("s", "before it"), 0);
                tx.appendProgress(first.id(), "drafted");
                tx.addComment(first.id(), "lead", "thanks");
                tx.addLink(first.id(), "https://example.test/doc", "the doc", "ann");
                tx.updateTask(TaskUpdate.of(first.id())
                        .userPreference("short")
                        .currentStep(1)
                        .build());
                tx.linkMessages(second.id(), List.of("m1", "m2"));
                tx.linkMessagesToPlanningSection("s", List.of("m0"));
                return tx.listTasks("s");
            });
            store.claimNext("ann", LEASE);
            written = store.listTasks("s");
            planning = store.inTransaction(tx -> tx.planningMessageIds("s"));
        }

        try (JdbcTaskStore reopened = JdbcTaskStore.builder(url()).clock(clock).build()) {
            assertThat(reopened.listTasks("s")).isEqualTo(written);
            List<String> reopenedPlanning = reopened.inTransaction(tx -> tx.planningMessageIds("s"));
            assertThat(reopenedPlanning).isEqualTo(planning).containsExactly("m0");
            assertThat(written.get(1).comments()).hasSize(1);
            long next = reopened.inTransaction(tx -> tx.appendTask(NewTask.of("s", "third")))
                    .id();
            assertThat(next)
                    .isGreaterThan(written.get(0).id())
                    .isGreaterThan(written.get(1).id());
        }
    }

    @Test
    void refusesASchemaNewerThanItKnows() throws Exception {
        JdbcTaskStore.open(url()).close();
        try (Connection connection = DriverManager.getConnection(url());
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO taskagent_schema_version VALUES (99, 'future', CURRENT_TIMESTAMP)");
        }

        assertThatThrownBy(() -> JdbcTaskStore.open(url()))
                .isInstanceOf(TaskStoreException.class)
                .hasMessage("The taskagent schema in this database is at version 99, newer than this"
                        + " taskagent-storage-jdbc knows (up to " + SchemaMigrator.latestVersion() + ")."
                        + " Upgrade taskagent-storage-jdbc to the version that wrote it, or give the store a schema"
                        + " of its own.");
    }
}
