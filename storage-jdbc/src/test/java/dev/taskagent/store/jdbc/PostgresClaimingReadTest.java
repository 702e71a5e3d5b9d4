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
 * The PostgreSQL claim returns the claimed task from the row its own statement updated, with the children
 * from the row's copy of them ({@link ChildrenText}). A write that changes the children without keeping that
 * copy, even one made in the claim's own statement, must not go unseen: the claim reads the child tables
 * then. A trigger plays such a writer: while the claim updates the row, it bumps the version once more and
 * adds a comment.
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
    void aWriteThatDidNotKeepTheCopyMakesTheClaimReadTheChildTables() throws SQLException {
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
    void aClaimWithNoOtherWriteReturnsTheChildrenFromTheCopy() {
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
