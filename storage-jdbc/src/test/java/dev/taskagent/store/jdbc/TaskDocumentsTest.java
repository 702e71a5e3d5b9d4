package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.queue.Completion;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task's progresses, preferences, comments and links live in its row as JSON arrays ({@link
 * TaskDocument}) and nowhere else: a person reads them with SQL, appends keep every entry under
 * concurrency, and a document damaged by hand makes the reads and claims of its task fail with a clear
 * error while every other task keeps working and nothing is overwritten.
 */
class TaskDocumentsTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    static Stream<TestDatabase> databases() {
        return TestDatabase.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theDocumentsAreJsonArraysInTheTaskRow(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            Task task = store.inTransaction(tx -> {
                Task created = tx.appendTask(NewTask.of("s", "Ship it"));
                tx.appendProgress(created.id(), "first \"quoted\"\nline");
                tx.addComment(created.id(), "bob", "Grüße 🧪");
                tx.updateTask(TaskUpdate.of(created.id())
                        .userPreferences(List.of("terse"))
                        .build());
                return tx.addLink(created.id(), "https://example.org", "", "carol");
            });

            assertThat(column(dataSource, task.id(), "progresses")).isEqualTo("[\"first \\\"quoted\\\"\\nline\"]");
            assertThat(column(dataSource, task.id(), "preferences")).isEqualTo("[\"terse\"]");
            assertThat(column(dataSource, task.id(), "comments"))
                    .isEqualTo("[{\"author\":\"bob\",\"text\":\"Grüße 🧪\",\"at\":\""
                            + task.comments().get(0).createdAt() + "\"}]");
            assertThat(column(dataSource, task.id(), "links"))
                    .startsWith("[{\"url\":\"https://example.org\",\"description\":\"\",\"author\":\"carol\"");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void concurrentCommentsOnOneTaskAreAllKeptInCommitOrder(TestDatabase database) throws Exception {
        try (JdbcTaskStore store =
                JdbcTaskStore.builder(database.newDataSource()).build()) {
            long id = store.inTransaction(
                    tx -> tx.appendTask(NewTask.of("s", "Busy")).id());
            int threads = 4;
            int perThread = 25;
            CyclicBarrier start = new CyclicBarrier(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<List<Integer>>> results = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    int writer = thread;
                    results.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        List<Integer> sizes = new ArrayList<>();
                        for (int index = 0; index < perThread; index++) {
                            String text = writer + "/" + index;
                            sizes.add(store.inTransaction(tx -> tx.addComment(id, "agent-" + writer, text))
                                    .comments()
                                    .size());
                        }
                        return sizes;
                    }));
                }
                List<Integer> sizes = new ArrayList<>();
                for (Future<List<Integer>> result : results) {
                    sizes.addAll(result.get(60, TimeUnit.SECONDS));
                }
                Task task = store.findTask(id).orElseThrow();
                assertThat(task.comments()).hasSize(threads * perThread);
                // Each append saw the ones committed before it: the sizes it returned are 1..N, each once.
                assertThat(sizes)
                        .containsExactlyInAnyOrderElementsOf(
                                java.util.stream.IntStream.rangeClosed(1, threads * perThread)
                                        .boxed()
                                        .toList());
                for (int writer = 0; writer < threads; writer++) {
                    String author = "agent-" + writer;
                    assertThat(task.comments().stream()
                                    .filter(comment -> comment.author().equals(author))
                                    .map(Comment::text))
                            .as("the comments of %s, in the order it wrote them", author)
                            .containsExactlyElementsOf(java.util.stream.IntStream.range(0, perThread)
                                    .mapToObj(index -> author.substring(6) + "/" + index)
                                    .toList());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aDamagedDocumentFailsTheReadsAndClaimsOfItsTaskOnlyAndIsNeverOverwritten(TestDatabase database)
            throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            long damaged = store.inTransaction(tx -> {
                Task task = tx.appendTask(NewTask.builder("s", "First in the queue")
                        .assignee("alice")
                        .priority(9)
                        .build());
                tx.addComment(task.id(), "bob", "kept");
                return task.id();
            });
            long healthy = store.inTransaction(tx -> tx.appendTask(NewTask.builder("s", "Next in the queue")
                            .assignee("alice")
                            .build())
                    .id());
            List<String> damages = List.of(
                    "[{\"author\":\"bob\",\"text\":\"kept\"", // cut short
                    "{\"author\":\"bob\"}", // not an array
                    "[{\"author\":\"bob\",\"text\":7,\"at\":\"2026-11-28T10:00:00Z\"}]", // wrong type
                    "[{\"author\":\"bob\",\"text\":\"x\",\"at\":\"yesterday\"}]"); // not a time
            for (String damage : damages) {
                setColumn(dataSource, damaged, "comments", damage);

                assertThatThrownBy(() -> store.findTask(damaged))
                        .isInstanceOf(TaskStoreException.class)
                        .hasMessageStartingWith("Task " + damaged + " cannot be read: its comments column")
                        .hasMessageContaining("UPDATE taskagent_tasks SET comments = '[]' WHERE id = " + damaged);
                assertThatThrownBy(() -> store.inTransaction(tx -> tx.listTasks("s")))
                        .hasMessageStartingWith("Task " + damaged + " cannot be read");
                assertThatThrownBy(() -> store.inTransaction(tx -> tx.addComment(damaged, "carol", "lost?")))
                        .hasMessageStartingWith("Task " + damaged + " cannot be read");
                assertThat(store.findTask(healthy)).isPresent();
                assertThat(column(dataSource, damaged, "comments"))
                        .as("the damaged document as it was written by hand")
                        .isEqualTo(damage);
            }

            // A claim that meets it takes it out of the way, names it, and the next claim goes on.
            assertThatThrownBy(() -> store.claimNext("alice", LEASE))
                    .isInstanceOf(TaskStoreException.class)
                    .hasMessageStartingWith("Claimed task " + damaged + " for 'alice', but it cannot be read")
                    .hasMessageContaining("holds the task until its lease expires");
            assertThat(store.claimNext("alice", LEASE)).map(Task::id).contains(healthy);
            assertThat(column(dataSource, damaged, "comments")).isEqualTo(damages.get(damages.size() - 1));
            assertThat(column(dataSource, damaged, "status")).isEqualTo(TaskStatus.RUNNING.wireName());

            // Repaired as the message says, it reads again.
            setColumn(dataSource, damaged, "comments", "[]");
            assertThat(store.findTask(damaged).orElseThrow().comments()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theReaperLeavesADamagedTaskAloneAndReclaimsTheOthers(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            TaskQueue queue = TaskQueue.builder(store).build();
            long damaged = queue.create(queue.newTask("Damaged")
                            .assignee("alice")
                            .priority(9)
                            .build())
                    .id();
            long healthy = queue.create(
                            queue.newTask("Healthy").assignee("alice").build())
                    .id();
            assertThat(store.claimNext("alice", Duration.ofMillis(1)))
                    .map(Task::id)
                    .contains(damaged);
            assertThat(store.claimNext("alice", Duration.ofMillis(1)))
                    .map(Task::id)
                    .contains(healthy);
            setColumn(dataSource, damaged, "links", "[{\"url\":");

            List<ReclaimedTask> reclaimed = new ArrayList<>();
            Instant deadline = Instant.now().plusSeconds(10);
            while (reclaimed.isEmpty() && Instant.now().isBefore(deadline)) {
                reclaimed.addAll(queue.reclaimExpired()); // the leases expire on the database's clock
            }

            assertThat(reclaimed).extracting(r -> r.task().id()).containsExactly(healthy);
            assertThat(store.findTask(healthy).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
            assertThat(column(dataSource, damaged, "status")).isEqualTo(TaskStatus.RUNNING.wireName());
            assertThat(column(dataSource, damaged, "links")).isEqualTo("[{\"url\":");
            assertThat(queue.reclaimExpired())
                    .as("the damaged task is skipped again, not retried forever")
                    .isEmpty();
        }
    }

    /**
     * A batch of completions that meets a damaged task writes nothing and names it: the healthy claims stay
     * held (their worker's lease brings them back), and the damaged document stays as it was.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aBatchCompletionThatMeetsADamagedTaskWritesNothingAndNamesIt(TestDatabase database) throws SQLException {
        DataSource dataSource = database.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build()) {
            TaskQueue queue = TaskQueue.builder(store).build();
            queue.create(queue.newTask("Damaged").assignee("alice").priority(9).build());
            queue.create(queue.newTask("Healthy").assignee("alice").build());
            List<Task> claimed = queue.claimUpTo("alice", 2);
            assertThat(claimed).hasSize(2);
            long damaged = claimed.get(0).id();
            long healthy = claimed.get(1).id();
            setColumn(dataSource, damaged, "progresses", "{\"not\": \"an array\"}");

            assertThatThrownBy(() -> queue.completeAll(
                            "alice",
                            List.of(
                                    Completion.success(healthy, claimed.get(1).attempt()),
                                    Completion.success(damaged, claimed.get(0).attempt()))))
                    .isInstanceOf(TaskStoreException.class)
                    .hasMessageStartingWith("Task " + damaged + " cannot be read");

            assertThat(store.findTask(healthy).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
            assertThat(column(dataSource, damaged, "status")).isEqualTo(TaskStatus.RUNNING.wireName());
            assertThat(column(dataSource, damaged, "progresses")).isEqualTo("{\"not\": \"an array\"}");
        }
    }

    private static String column(DataSource dataSource, long taskId, String column) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement =
                        connection.prepareStatement("SELECT " + column + " FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, taskId);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static void setColumn(DataSource dataSource, long taskId, String column, String value) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement =
                        connection.prepareStatement("UPDATE taskagent_tasks SET " + column + " = ? WHERE id = ?")) {
            connection.setAutoCommit(true);
            statement.setString(1, value);
            statement.setLong(2, taskId);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }
}
