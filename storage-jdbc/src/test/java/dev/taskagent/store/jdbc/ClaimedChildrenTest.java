package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim returns a task's children from the copy its row keeps ({@link ChildrenText}) while that copy is
 * valid, and from the child tables when it is not: either way exactly what a read of the task returns right
 * after the claim. Each test checks which of the two paths it took, by the row's columns.
 */
class ClaimedChildrenTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    static Stream<TestDatabase> databases() {
        return TestDatabase.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aClaimReturnsEveryKindOfChildAsAReadDoes(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            long id = store.inTransaction(tx -> {
                Task task = tx.appendTask(
                        NewTask.builder("s", "Ship it").assignee("alice").build());
                Task other = tx.appendTask(NewTask.builder("s", "Other").build());
                tx.appendProgress(task.id(), "12:34 first step: done");
                tx.updateTask(TaskUpdate.of(task.id())
                        .userPreferences(List.of("terse", "no emoji \uD83D\uDE00"))
                        .build());
                tx.addComment(task.id(), "bob", "P3:x C2:y — a comment that looks like the format");
                tx.addLink(task.id(), "https://example.com/a:b", "", "carol");
                tx.linkMessages(task.id(), List.of("m1", "m2", "m3"));
                // m2 moves away: the task loses a message id without an append.
                tx.linkMessages(other.id(), List.of("m2"));
                tx.appendProgress(task.id(), "second\nline");
                return task.id();
            });
            assertThat(text(dataSource, id).valid())
                    .as("the row's copy is valid")
                    .isTrue();

            Task claimed = store.claimNext("alice", LEASE).orElseThrow();

            assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(claimed.messageIds()).containsExactly("m1", "m3");
            assertThat(claimed.userPreferences()).containsExactly("terse", "no emoji \uD83D\uDE00");
            assertThat(claimed.progresses()).containsExactly("12:34 first step: done", "second\nline");
            assertThat(text(dataSource, id).valid())
                    .as("the claim carried the copy along")
                    .isTrue();

            // Released and claimed again, through the copy.
            store.inTransaction(tx -> tx.release(id, "alice", claimed.attempt()));
            Task again = store.claimNext("alice", LEASE).orElseThrow();
            assertThat(again).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(again.comments()).isEqualTo(claimed.comments());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aTaskWhoseChildrenOutgrowTheCopyIsClaimedFromItsTables(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            String longText = "x".repeat(ChildrenText.MAX_CHARS / 3);
            long id = store.inTransaction(tx -> {
                Task task = tx.appendTask(
                        NewTask.builder("s", "Long").assignee("alice").build());
                for (int index = 0; index < 4; index++) {
                    tx.addComment(task.id(), "bob", index + longText);
                }
                return task.id();
            });
            assertThat(text(dataSource, id).text()).as("dropped past the limit").isNull();

            Task claimed = store.claimNext("alice", LEASE).orElseThrow();

            assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(claimed.comments())
                    .extracting(Comment::text)
                    .hasSize(4)
                    .allMatch(text -> text.endsWith(longText));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aChildWrittenWithoutTheCopyIsStillClaimed(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            long id = store.inTransaction(tx -> {
                Task task = tx.appendTask(
                        NewTask.builder("s", "Old writer").assignee("alice").build());
                tx.addComment(task.id(), "bob", "through the store");
                return task.id();
            });
            // A writer that knows nothing of the copy, as an older taskagent: it bumps the version only.
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement bump = connection.prepareStatement(
                            "UPDATE taskagent_tasks SET version = version + 1 WHERE id = ?");
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO taskagent_comments"
                            + " (task_id, author, content, created_at) VALUES (?, 'dave', 'behind its back', ?)")) {
                connection.setAutoCommit(true);
                bump.setLong(1, id);
                bump.executeUpdate();
                insert.setLong(1, id);
                insert.setObject(2, LocalDateTime.of(2026, 11, 25, 10, 0));
                insert.executeUpdate();
            }
            assertThat(text(dataSource, id).valid()).isFalse();
            // The next append through the store does not make the stale copy valid again.
            store.inTransaction(tx -> tx.addComment(id, "bob", "after"));
            assertThat(text(dataSource, id).valid()).isFalse();

            Task claimed = store.claimNext("alice", LEASE).orElseThrow();

            assertThat(claimed.comments())
                    .extracting(Comment::text)
                    .containsExactly("through the store", "behind its back", "after");
            assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(text(dataSource, id).valid())
                    .as("the claim wrote the copy back from the tables")
                    .isTrue();

            store.inTransaction(tx -> tx.release(id, "alice", claimed.attempt()));
            Task again = store.claimNext("alice", LEASE).orElseThrow();
            assertThat(again.comments()).isEqualTo(claimed.comments());
            assertThat(again).isEqualTo(store.findTask(id).orElseThrow());

            // Linking messages writes the copy whole, from the tables, as well.
            execute(dataSource, "UPDATE taskagent_tasks SET version = version + 1 WHERE id = " + id);
            assertThat(text(dataSource, id).valid()).isFalse();
            store.inTransaction(tx -> tx.linkMessages(id, List.of("m1")));
            assertThat(text(dataSource, id).valid()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aClaimInAUnitOfWorkWritesAStaleCopyBack(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            long id = store.inTransaction(tx -> {
                Task task = tx.appendTask(NewTask.builder("s", "In a unit of work")
                        .assignee("alice")
                        .build());
                tx.addLink(task.id(), "https://example.com", "spec", "bob");
                return task.id();
            });
            execute(
                    dataSource,
                    "UPDATE taskagent_tasks SET children_text = NULL, children_version = 0 WHERE id = " + id);

            Task claimed =
                    store.inTransaction(tx -> tx.claimNext("alice", LEASE)).orElseThrow();

            assertThat(claimed.links()).extracting(link -> link.url()).containsExactly("https://example.com");
            assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(text(dataSource, id).valid()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aDamagedCopyIsClaimedFromTheTablesAndRepaired(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            long id = store.inTransaction(tx -> {
                Task task = tx.appendTask(
                        NewTask.builder("s", "Damaged").assignee("alice").build());
                tx.appendProgress(task.id(), "half done");
                return task.id();
            });
            // Valid by its version, but not a text the store wrote: cut off in the middle of a field.
            execute(dataSource, "UPDATE taskagent_tasks SET children_text = 'P9:half' WHERE id = " + id);
            assertThat(text(dataSource, id).valid()).isTrue();

            Task claimed = store.claimNext("alice", LEASE).orElseThrow();

            assertThat(claimed.progresses()).containsExactly("half done");
            assertThat(claimed).isEqualTo(store.findTask(id).orElseThrow());
            assertThat(text(dataSource, id).text()).isEqualTo(ChildrenText.progress("half done"));
        }
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                java.sql.Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute(sql);
        }
    }

    /** A task row's copy of its children, and whether it is valid for the row's version. */
    private record RowText(String text, boolean valid) {}

    private static RowText text(DataSource dataSource, long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT children_text, children_version, version FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).isTrue();
                String text = row.getString(1);
                return new RowText(text, text != null && row.getLong(2) == row.getLong(3));
            }
        }
    }
}
