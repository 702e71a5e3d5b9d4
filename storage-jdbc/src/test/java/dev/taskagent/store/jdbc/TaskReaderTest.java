package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
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
    void aClaimedRowWhoseTextIsValidReturnsTheTaskWithItsChildren() throws SQLException {
        String text = ChildrenText.comment("bob", "first", Instant.parse("2026-11-23T10:00:00.123456Z"))
                + ChildrenText.message("m1")
                + ChildrenText.comment("bob", "second", Instant.parse("2026-11-23T10:00:01Z"));
        Optional<TaskReader.ClaimedRead> claimed = readClaimed(claimedRow(8, "'" + text + "'", 8));

        assertThat(claimed).isPresent();
        assertThat(claimed.get().taskId()).isEqualTo(5);
        Task task = claimed.get().task();
        assertThat(task).isNotNull();
        assertThat(task.version()).isEqualTo(8);
        assertThat(task.comments()).extracting(comment -> comment.text()).containsExactly("first", "second");
        assertThat(task.comments().get(0).createdAt()).isEqualTo(Instant.parse("2026-11-23T10:00:00.123456Z"));
        assertThat(task.messageIds()).containsExactly("m1");
        assertThat(task.progresses()).isEmpty();
    }

    @Test
    void aClaimedRowWhoseTextIsBehindItsVersionAsksForTheChildTables() throws SQLException {
        // Written by something that bumped the version without carrying the text along.
        Optional<TaskReader.ClaimedRead> claimed =
                readClaimed(claimedRow(9, "'" + ChildrenText.message("m1") + "'", 8));

        assertThat(claimed).isPresent();
        assertThat(claimed.get().taskId()).isEqualTo(5);
        assertThat(claimed.get().task()).isNull();
    }

    @Test
    void aClaimedRowWithoutTextOrWithADamagedOneAsksForTheChildTables() throws SQLException {
        assertThat(readClaimed(claimedRow(8, "NULL", 8)).orElseThrow().task()).isNull();
        assertThat(readClaimed(claimedRow(8, "'C3:bob'", 8)).orElseThrow().task())
                .isNull();
    }

    @Test
    void aClaimThatClaimedNothingIsEmpty() throws SQLException {
        assertThat(readClaimed(claimedRow(8, "''", 8) + " WHERE FALSE")).isEmpty();
    }

    /** The row a claim returns for task 5 at {@code version}, with a children's text of its own version. */
    private static String claimedRow(long version, String textLiteral, long textVersion) {
        String time = "TIMESTAMP '2026-11-23 10:00:00'";
        return "SELECT * FROM ("
                + "SELECT 'T' AS kind, CAST(5 AS BIGINT) AS task_id, CAST(0 AS BIGINT) AS seq,"
                + " CAST('Ship it' AS VARCHAR) AS text_a, CAST(NULL AS VARCHAR) AS text_b, 's1' AS text_c,"
                + " " + time + " AS time_a, " + time + " AS time_b, 1 AS int_a, 2 AS int_b, 0 AS int_c,"
                + " CAST(" + version + " AS BIGINT) AS long_a, 'running' AS status, 'alice' AS assignee,"
                + " CAST(NULL AS VARCHAR) AS previous_assignee, 'bob' AS created_by, FALSE AS archived,"
                + " 0 AS attempt, CAST(NULL AS TIMESTAMP) AS lease_expires_at, 0 AS max_attempts,"
                + " CAST(" + textLiteral + " AS VARCHAR) AS children_text,"
                + " CAST(" + textVersion + " AS BIGINT) AS children_version) u";
    }

    private static Optional<TaskReader.ClaimedRead> readClaimed(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return TaskReader.readClaimed(rows);
        }
    }
}
