package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The PostgreSQL claim reads the claimed task in the claim's own statement, whose parts all see the
 * snapshot taken before the claim locked the row. When something changed the task in between, the
 * store must read the children again. A real race cannot be produced on demand, so a trigger plays
 * the other writer: while the claim updates the row, it bumps the version once more and adds a
 * comment, which the claim statement's snapshot cannot see.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresClaimingReadTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private final DataSource dataSource = TestDatabase.POSTGRES.newDataSource();
    private final JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aClaimWhoseSnapshotMissedAWriteReadsTheChildrenAgain() throws SQLException {
        long id = store.inTransaction(tx -> {
                    Task task = tx.appendTask(NewTask.builder("s", "Ship the release")
                            .assignee("alice")
                            .build());
                    tx.addComment(task.id(), "bob", "before the claim");
                    return task;
                })
                .id();
        execute("CREATE FUNCTION write_during_claim() RETURNS trigger AS $$ BEGIN"
                + " IF OLD.status = 'pending' AND NEW.status = 'running' THEN"
                + " NEW.version := NEW.version + 1;"
                + " INSERT INTO taskagent_comments (task_id, author, content, created_at)"
                + " VALUES (NEW.id, 'carol', 'during the claim', NEW.updated_at);"
                + " END IF; RETURN NEW; END $$ LANGUAGE plpgsql");
        execute("CREATE TRIGGER write_during_claim BEFORE UPDATE ON taskagent_tasks"
                + " FOR EACH ROW EXECUTE FUNCTION write_during_claim()");

        Task claimed = store.inTransaction((TaskTransaction tx) -> tx.claimNext("alice", LEASE))
                .orElseThrow();

        assertThat(claimed.id()).isEqualTo(id);
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.comments())
                .extracting(Comment::text)
                .containsExactly("before the claim", "during the claim");
        assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
    }

    @Test
    void aClaimWithNoWriteInBetweenReturnsWhatItRead() {
        long id = store.inTransaction(tx -> {
                    Task task = tx.appendTask(NewTask.builder("s", "Ship the release")
                            .assignee("alice")
                            .build());
                    tx.addComment(task.id(), "bob", "before the claim");
                    return task;
                })
                .id();

        Task claimed = store.inTransaction((TaskTransaction tx) -> tx.claimNext("alice", LEASE))
                .orElseThrow();

        assertThat(claimed.comments()).extracting(Comment::text).containsExactly("before the claim");
        assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
