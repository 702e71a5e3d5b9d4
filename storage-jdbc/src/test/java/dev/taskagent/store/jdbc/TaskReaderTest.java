package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@link TaskReader} that no database run can pin down: its statement has no ORDER BY, so
 * the order in which a database returns child rows is its own choice, and the reader must not depend on
 * it.
 */
class TaskReaderTest {

    @Test
    void childrenThatArriveOutOfSequenceComeOutInSequence() {
        TaskReader.Children<String> children = new TaskReader.Children<>();
        children.add(30, "third");
        children.add(10, "first");
        children.add(20, "second");

        assertThat(children.inOrder()).containsExactly("first", "second", "third");
    }

    @Test
    void childrenThatArriveInSequenceKeepIt() {
        TaskReader.Children<String> children = new TaskReader.Children<>();
        children.add(1, "a");
        children.add(2, "b");
        children.add(7, "c");

        assertThat(children.inOrder()).containsExactly("a", "b", "c");
    }

    @Test
    void everyReadOnH2IsAPlainSelectSoThatH2KeepsItPrepared() {
        for (TaskReader.Shape shape : TaskReader.Shape.values()) {
            assertThat(TaskReader.sql(shape, H2Dialect.INSTANCE)).startsWith("SELECT * FROM (SELECT 'T'");
            assertThat(TaskReader.sql(shape, PostgresDialect.INSTANCE)).startsWith("SELECT 'T'");
        }
    }

    @Test
    void aClaimingReadWhoseSnapshotSawTheVersionBeforeTheClaimReturnsTheTask() throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed = readClaimed(claimingRows(8, 7));

        assertThat(claimed).isPresent();
        assertThat(claimed.get().taskId()).isEqualTo(5);
        Task task = claimed.get().task();
        assertThat(task).isNotNull();
        assertThat(task.version()).isEqualTo(8);
        assertThat(task.comments()).extracting(comment -> comment.text()).containsExactly("first", "second");
    }

    @Test
    void aClaimingReadWhoseSnapshotMissedACommitAsksForTheChildrenAgain() throws SQLException {
        // The claim locked version 8 (and made it 9), but the children were read at version 7: a commit
        // touched the task in between, so they may miss what it added.
        Optional<TaskReader.ClaimedRead> claimed = readClaimed(claimingRows(9, 7));

        assertThat(claimed).isPresent();
        assertThat(claimed.get().taskId()).isEqualTo(5);
        assertThat(claimed.get().task()).isNull();
    }

    @Test
    void aClaimingReadThatClaimedNothingIsEmpty() throws SQLException {
        assertThat(readClaimed(claimingRows(8, 7) + " WHERE FALSE")).isEmpty();
    }

    /** The rows a claiming read returns for task 5 claimed at {@code version}, with two comments. */
    private static String claimingRows(long version, long snapshotVersion) {
        String time = "TIMESTAMP '2026-11-23 10:00:00'";
        String nulls13 = "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL";
        return "SELECT * FROM ("
                + "SELECT 'T' AS kind, CAST(5 AS BIGINT) AS task_id, CAST(0 AS BIGINT) AS seq,"
                + " CAST('Ship it' AS VARCHAR) AS text_a, CAST(NULL AS VARCHAR) AS text_b, 's1' AS text_c,"
                + " " + time + " AS time_a, " + time + " AS time_b, 1 AS int_a, 2 AS int_b, 0 AS int_c,"
                + " CAST(" + version + " AS BIGINT) AS long_a, 'running' AS status, 'alice' AS assignee,"
                + " CAST(NULL AS VARCHAR) AS previous_assignee, 'bob' AS created_by, FALSE AS archived,"
                + " 0 AS attempt, CAST(NULL AS TIMESTAMP) AS lease_expires_at, 0 AS max_attempts"
                + " UNION ALL SELECT 'C', 5, 12, 'second', 'bob', NULL, " + time + ", " + nulls13
                + " UNION ALL SELECT 'C', 5, 11, 'first', 'bob', NULL, " + time + ", " + nulls13
                + " UNION ALL SELECT 'V', 5, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                + snapshotVersion + ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) u";
    }

    private static Optional<TaskReader.ClaimedRead> readClaimed(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return TaskReader.readClaimed(rows);
        }
    }
}
