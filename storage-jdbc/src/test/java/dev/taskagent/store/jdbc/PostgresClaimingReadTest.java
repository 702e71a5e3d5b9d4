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
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The PostgreSQL claim returns the claimed task from the row its own statement updated, and its message ids
 * from the statement's snapshot, which may be older than the row the claim locked: a write that committed
 * between the two must not go unseen. The statement tells by the row's version in its snapshot, and the
 * claim reads the message ids again then. A trigger plays such a writer: while the claim updates the row, it
 * bumps the version once more and links a message.
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
    void aWriteTheStatementsSnapshotMissedMakesTheClaimReadTheMessagesAgain() throws SQLException {
        long id = store.inTransaction(tx -> {
                    Task task = tx.appendTask(NewTask.builder("s", "Ship the release")
                            .assignee("alice")
                            .build());
                    return tx.linkMessages(task.id(), List.of("before the claim"));
                })
                .id();
        execute("CREATE FUNCTION write_during_claim() RETURNS trigger AS $$ BEGIN"
                + " IF OLD.status = 'pending' AND NEW.status = 'running' THEN"
                + " NEW.version := NEW.version + 1;"
                + " INSERT INTO taskagent_messages (session_id, message_id, task_id, seq)"
                + " VALUES (NEW.session_id, 'during the claim', NEW.id, 2);"
                + " END IF; RETURN NEW; END $$ LANGUAGE plpgsql");
        execute("CREATE TRIGGER write_during_claim BEFORE UPDATE ON taskagent_tasks"
                + " FOR EACH ROW EXECUTE FUNCTION write_during_claim()");

        Task claimed = store.inTransaction((TaskTransaction tx) -> tx.claimNext("alice", LEASE))
                .orElseThrow();

        assertThat(claimed.id()).isEqualTo(id);
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.messageIds()).containsExactly("before the claim", "during the claim");
        assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
    }

    @Test
    void aClaimWithNoOtherWriteReturnsTheTaskFromItsOwnStatement() {
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
