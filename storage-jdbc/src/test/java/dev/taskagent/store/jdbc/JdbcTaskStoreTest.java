package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.taskagent.store.AppendResult;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.AdditionalAnswers;

/**
 * What the JDBC store must do beyond the conformance kit, on one database: detection, migration,
 * verbatim text, exact claims under 16 threads, transient-conflict retries and injected connection
 * failures. Subclassed once per database.
 */
abstract class JdbcTaskStoreTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    protected final MutableClock clock = MutableClock.standard();
    private final List<JdbcTaskStore> stores = new CopyOnWriteArrayList<>();
    private ExecutorService executor;

    /** @return the database under test */
    protected abstract TestDatabase database();

    /** @return the dialect the store must detect on it */
    protected abstract JdbcDialect expectedDialect();

    @AfterEach
    void closeEverything() {
        if (executor != null) {
            executor.shutdownNow();
        }
        stores.forEach(JdbcTaskStore::close);
    }

    private JdbcTaskStore newStore() {
        return track(database().newStore(clock));
    }

    private JdbcTaskStore track(JdbcTaskStore store) {
        stores.add(store);
        return store;
    }

    private <T> List<T> runConcurrently(int threads, Callable<T> task) throws Exception {
        executor = Executors.newFixedThreadPool(threads);
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<T>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            futures.add(executor.submit(() -> {
                start.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                return task.call();
            }));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        }
        return results;
    }

    // ---- detection and migration

    @Test
    void detectsItsDialectFromTheDatabase() {
        assertThat(newStore().dialect()).isEqualTo(expectedDialect());
    }

    @Test
    void usesTheDialectItIsGiven() {
        JdbcTaskStore store = track(JdbcTaskStore.builder(database().newDataSource())
                .dialect(expectedDialect())
                .clock(clock)
                .build());

        Task task = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "works")));

        assertThat(store.dialect()).isEqualTo(expectedDialect());
        assertThat(store.findTask(task.id())).contains(task);
    }

    @Test
    void aSecondStartKeepsTheDataAndRecordsEachSchemaVersionOnce() throws SQLException {
        DataSource dataSource = database().newDataSource();
        JdbcTaskStore first =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());
        Task task = first.inTransaction(tx -> tx.appendTask(NewTask.of("s", "kept")));
        first.close();

        JdbcTaskStore second =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());

        assertThat(second.findTask(task.id())).contains(task);
        assertThat(schemaVersions(dataSource)).containsExactlyElementsOf(everySchemaVersion());
    }

    @Test
    void aDatabaseAtVersionOneIsMigratedAndItsTasksKeepWorking() throws Exception {
        DataSource dataSource = database().newDataSource();
        Dialect dialect;
        try (Connection connection = dataSource.getConnection()) {
            dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                for (String script : List.of(SchemaMigrator.VERSION_TABLE_SCRIPT, "V1__tasks.sql")) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                        + " VALUES (1, 'tasks', TIMESTAMP '2026-01-01 00:00:00')");
                statement.execute("INSERT INTO taskagent_sessions (session_id) VALUES ('old')");
                for (String status : List.of("pending", "running")) {
                    statement.execute("INSERT INTO taskagent_tasks (session_id, task_order, description, status,"
                            + " priority, assignee, archived, current_step, created_at, updated_at, version)"
                            + " VALUES ('old', " + (status.equals("pending") ? 1 : 2) + ", 'from before leases', '"
                            + status + "', 0, 'veteran', FALSE, 0, TIMESTAMP '2026-01-01 00:00:00',"
                            + " TIMESTAMP '2026-01-01 00:00:00', 1)");
                }
                statement.execute("INSERT INTO taskagent_comments (task_id, author, content, created_at)"
                        + " SELECT id, 'elder', 'written before version 5', TIMESTAMP '2026-01-01 00:00:00'"
                        + " FROM taskagent_tasks WHERE task_order = 1");
            }
        }

        JdbcTaskStore store =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());

        assertThat(schemaVersions(dataSource)).containsExactlyElementsOf(everySchemaVersion());
        List<Task> old = store.listTasks("old");
        assertThat(old).extracting(Task::attempt).containsExactly(0, 0);
        assertThat(old).extracting(Task::leaseExpiresAt).containsOnlyNulls();
        assertThat(old).extracting(Task::maxAttempts).containsExactly(0, 0);
        Task claimed = store.claimNext("veteran", LEASE).orElseThrow();
        assertThat(claimed.id()).isEqualTo(old.get(0).id());
        assertThat(claimed.attempt()).isEqualTo(1);
        assertThat(claimed.isLeased()).isTrue();
        assertThat(claimed.comments())
                .as("a task from before the documents is claimed with its children, moved into its row")
                .extracting(Comment::text)
                .containsExactly("written before version 5");
        List<ReclaimedTask> reclaimed = store.inTransaction(tx -> tx.reclaimExpired(3, 10));
        assertThat(reclaimed)
                .as("a task running from before leases has no lease to expire")
                .isEmpty();
        Task updated = store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(old.get(1).id()).status(TaskStatus.SUCCESS).build()));
        assertThat(updated.status()).isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void storesStartingTogetherOnAnEmptySchemaMigrateItOnce() throws Exception {
        DataSource dataSource = database().newDataSource();

        List<JdbcTaskStore> started = runConcurrently(
                4, () -> track(JdbcTaskStore.builder(dataSource).clock(clock).build()));

        List<Long> ids = new ArrayList<>();
        for (JdbcTaskStore store : started) {
            ids.add(store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "from " + store)))
                    .id());
        }
        assertThat(new HashSet<>(ids)).hasSize(4);
        assertThat(started.get(0).listTasks("s")).extracting(Task::order).containsExactly(1, 2, 3, 4);
        assertThat(schemaVersions(dataSource)).containsExactlyElementsOf(everySchemaVersion());
    }

    private static List<Integer> everySchemaVersion() {
        return SchemaMigrator.MIGRATIONS.stream().map(SchemaMigrator::version).toList();
    }

    private static List<Integer> schemaVersions(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT version FROM taskagent_schema_version ORDER BY version")) {
            List<Integer> versions = new ArrayList<>();
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
            return versions;
        }
    }

    // ---- verbatim text and exact ids

    @Test
    void storesTextVerbatim() {
        JdbcTaskStore store = newStore();
        List<String> texts = List.of(
                "It's \"quoted\" and `ticked`",
                "'; DROP TABLE taskagent_tasks; --",
                "Robert'); DELETE FROM taskagent_sessions WHERE ('1'='1",
                "back\\slash \\' \\\" %s %_ LIKE wildcards ?",
                "lines\nand\r\nreturns\tand tabs  trailing  ",
                "ünïcödé, 日本語, العربية, emoji 🚀👩‍💻🏳️‍🌈 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
                hundredKilobytes());
        String sessionId = "session '; DROP TABLE x; -- 🚀";
        String assignee = "agent \"O'Brien\" 🤖";

        Task task = store.inTransaction(tx -> {
            Task created = tx.appendTask(NewTask.builder(sessionId, texts.get(6))
                    .assignee(assignee)
                    .createdBy(texts.get(1).substring(0, 20))
                    .steps("- [ ] " + texts.get(5))
                    .build());
            for (String text : texts) {
                tx.appendProgress(created.id(), text);
                tx.addComment(created.id(), assignee, text);
                tx.addLink(created.id(), "https://example.test/?q=" + text, text, assignee);
            }
            tx.updateTask(
                    TaskUpdate.of(created.id()).userPreference(texts.get(5)).build());
            return tx.linkMessages(created.id(), List.of(texts.get(1), texts.get(5), "m'1"));
        });

        Task read = store.findTask(task.id()).orElseThrow();
        assertThat(read).isEqualTo(task);
        assertThat(read.description()).isEqualTo(texts.get(6));
        assertThat(read.sessionId()).isEqualTo(sessionId);
        assertThat(read.assignee()).isEqualTo(assignee);
        assertThat(read.steps()).isEqualTo("- [ ] " + texts.get(5));
        assertThat(read.progresses()).containsExactlyElementsOf(texts);
        assertThat(read.comments()).extracting(Comment::text).containsExactlyElementsOf(texts);
        assertThat(read.links()).extracting(Link::description).containsExactlyElementsOf(texts);
        assertThat(read.userPreferences()).containsExactly(texts.get(5));
        assertThat(read.messageIds()).containsExactly(texts.get(1), texts.get(5), "m'1");
        assertThat(store.listTasks(sessionId)).containsExactly(read);
        assertThat(store.claimNext(assignee, LEASE))
                .hasValueSatisfying(claimed -> assertThat(claimed.description()).isEqualTo(texts.get(6)));
    }

    @Test
    void storesTheLongestTextAllowed() {
        JdbcTaskStore store = newStore();
        String longest = "🚀".repeat(Task.MAX_TEXT_LENGTH / 2 - 1) + "ab";
        assertThat(longest).hasSize(Task.MAX_TEXT_LENGTH);

        Task task = store.inTransaction(
                tx -> tx.appendProgress(tx.appendTask(NewTask.of("s", longest)).id(), longest));

        Task read = store.findTask(task.id()).orElseThrow();
        assertThat(read.description()).isEqualTo(longest);
        assertThat(read.progresses()).containsExactly(longest);
    }

    private static String hundredKilobytes() {
        Random random = new Random(42);
        String alphabet = "abcXYZ 0123'\";\\%_\nü日🚀";
        StringBuilder text = new StringBuilder();
        while (text.length() < 100 * 1024) {
            text.appendCodePoint(alphabet.codePointAt(
                    alphabet.offsetByCodePoints(0, random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
        }
        return text.toString();
    }

    @Test
    void comparesIdsExactlyWithCaseAndTrailingSpaces() {
        JdbcTaskStore store = newStore();

        List<Task> tasks = store.inTransaction(tx -> List.of(
                tx.appendTask(NewTask.builder("s", "one").assignee("bob").build()),
                tx.appendTask(NewTask.builder("S", "two").assignee("Bob").build()),
                tx.appendTask(NewTask.builder("s ", "three").assignee("bob ").build())));
        store.inTransaction(tx -> {
            tx.linkMessages(tasks.get(0).id(), List.of("m"));
            tx.linkMessages(tasks.get(0).id(), List.of("M"));
            tx.linkMessages(tasks.get(0).id(), List.of("m "));
            return null;
        });

        assertThat(store.listTasks("s")).extracting(Task::description).containsExactly("one");
        assertThat(store.listTasks("S")).extracting(Task::description).containsExactly("two");
        assertThat(store.listTasks("s ")).extracting(Task::description).containsExactly("three");
        assertThat(store.claimNext("Bob", LEASE)).map(Task::description).contains("two");
        assertThat(store.claimNext("bob ", LEASE)).map(Task::description).contains("three");
        assertThat(store.findTask(tasks.get(0).id()).orElseThrow().messageIds()).containsExactly("m", "M", "m ");
    }

    // ---- claims

    @Test
    void sixteenThreadsClaimEveryTaskExactlyOnceEachInClaimOrder() throws Exception {
        JdbcTaskStore store = newStore();
        Random random = new Random(7);
        List<Task> claimable = new ArrayList<>();
        List<Long> notClaimable = new ArrayList<>();
        store.inTransaction(tx -> {
            for (int index = 0; index < 160; index++) {
                clock.advance(Duration.ofMillis(random.nextInt(3))); // some equal createdAt: id breaks the tie
                claimable.add(tx.appendTask(NewTask.builder("s" + index % 3, "task " + index)
                        .assignee("worker")
                        .priority(random.nextInt(4))
                        .build()));
            }
            for (int index = 0; index < 10; index++) {
                notClaimable.add(tx.appendTask(NewTask.builder("s", "other's " + index)
                                .assignee("other")
                                .priority(9)
                                .build())
                        .id());
                Task archived = tx.appendTask(NewTask.builder("s", "archived " + index)
                        .assignee("worker")
                        .priority(9)
                        .build());
                tx.updateTask(TaskUpdate.of(archived.id()).archived(true).build());
                notClaimable.add(archived.id());
            }
            return null;
        });
        List<Long> claimOrder =
                claimable.stream().sorted(TaskReader.CLAIM_ORDER).map(Task::id).toList();

        List<List<Long>> claimedPerThread = runConcurrently(16, () -> {
            List<Long> claimed = new ArrayList<>();
            for (Task task = store.claimNext("worker", LEASE).orElse(null);
                    task != null;
                    task = store.claimNext("worker", LEASE).orElse(null)) {
                assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
                claimed.add(task.id());
            }
            return claimed;
        });

        List<Long> all = claimedPerThread.stream().flatMap(List::stream).toList();
        assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(claimOrder);
        for (List<Long> claimed : claimedPerThread) {
            List<Integer> positions = claimed.stream().map(claimOrder::indexOf).toList();
            assertThat(positions)
                    .as("one thread's claims follow the claim order")
                    .isSorted();
        }
        for (long id : notClaimable) {
            assertThat(store.findTask(id).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        }
        assertThat(store.claimNext("worker", LEASE)).isEmpty();
    }

    @Test
    void aClaimReturnsTheTaskWithItsCommentsLinksAndANewVersion() {
        JdbcTaskStore store = newStore();
        Task task = store.inTransaction(tx -> {
            Task created = tx.appendTask(
                    NewTask.builder("s", "ship it").assignee("ann").build());
            tx.addComment(created.id(), "lead", "take this one");
            return tx.addLink(created.id(), "https://example.test/pr/1", "the PR", "lead");
        });
        clock.advance(Duration.ofMinutes(1));

        Task claimed = store.claimNext("ann", LEASE).orElseThrow();

        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.version()).isEqualTo(task.version() + 1);
        assertThat(claimed.updatedAt()).isEqualTo(clock.instant());
        assertThat(claimed.comments()).isEqualTo(task.comments());
        assertThat(claimed.links()).isEqualTo(task.links());
        assertThat(store.findTask(task.id())).contains(claimed);
    }

    // ---- concurrency

    @Test
    void concurrentInsertsIntoANewSessionKeepOrdersContiguous() throws Exception {
        JdbcTaskStore store = newStore();
        AtomicInteger counter = new AtomicInteger();

        List<List<Long>> inserted = runConcurrently(8, () -> {
            Random random = new Random(counter.incrementAndGet());
            List<Long> ids = new ArrayList<>();
            for (int index = 0; index < 8; index++) {
                int position = random.nextInt(4 * counter.get());
                ids.add(store.inTransaction(tx -> tx.insertTask(NewTask.of("fresh", "t"), position))
                        .id());
            }
            return ids;
        });

        List<Task> tasks = store.listTasks("fresh");
        assertThat(tasks)
                .extracting(Task::order)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 64).boxed().toList());
        assertThat(tasks)
                .extracting(Task::id)
                .containsExactlyInAnyOrderElementsOf(
                        inserted.stream().flatMap(List::stream).toList());
    }

    @Test
    void concurrentAppendsToOneTaskAreAllKept() throws Exception {
        JdbcTaskStore store = newStore();
        long id = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "busy")))
                .id();
        AtomicInteger thread = new AtomicInteger();

        runConcurrently(8, () -> {
            int me = thread.incrementAndGet();
            for (int index = 0; index < 6; index++) {
                String text = me + "/" + index;
                store.inTransaction(tx -> tx.appendProgress(id, text));
                store.inTransaction(tx -> tx.addComment(id, "agent" + me, text));
            }
            return null;
        });

        Task task = store.findTask(id).orElseThrow();
        assertThat(task.progresses()).hasSize(48).doesNotHaveDuplicates();
        assertThat(task.comments()).hasSize(48);
        assertThat(task.version()).isEqualTo(1 + 96);
    }

    @Test
    void twoThreadsRetryingOneRequestIdWriteOneEntryEveryTime() throws Exception {
        JdbcTaskStore store = newStore();
        for (int round = 0; round < 20; round++) {
            long id = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "retried")))
                    .id();
            String requestId = "retry-" + round;
            AtomicInteger thread = new AtomicInteger();

            List<AppendResult> results = runConcurrently(2, () -> {
                int me = thread.incrementAndGet();
                return store.inTransaction(tx -> me == 1
                        ? tx.addComment(id, "agent", "the comment", requestId)
                        : tx.appendProgress(id, "the progress", requestId));
            });

            Task task = store.findTask(id).orElseThrow();
            assertThat(task.comments().size() + task.progresses().size())
                    .as("round %d: entries", round)
                    .isEqualTo(1);
            assertThat(results).extracting(AppendResult::replayed).containsExactlyInAnyOrder(true, false);
            assertThat(results).extracting(AppendResult::task).containsOnly(task);
        }
    }

    @Test
    void aTaskKeepsTheRowsOfItsLastThirtyTwoRequestIdsOnly() throws SQLException {
        DataSource dataSource = database().newDataSource();
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());
        long id = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "busy")))
                .id();
        long other = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "other")))
                .id();
        store.inTransaction(tx -> tx.addComment(other, "agent", "kept", "other-1"));

        for (int index = 0; index < 100; index++) {
            String requestId = "request-" + index;
            store.inTransaction(tx -> tx.appendProgress(id, requestId, requestId));
            store.inTransaction(tx -> tx.appendProgress(id, "without an id"));
        }

        List<String> expected = IntStream.range(100 - TaskStore.REQUEST_ID_WINDOW, 100)
                .mapToObj(index -> "request-" + index)
                .toList();
        assertThat(requestIds(dataSource, id)).containsExactlyElementsOf(expected);
        assertThat(requestIds(dataSource, other)).containsExactly("other-1");
        assertThat(store.findTask(id).orElseThrow().progresses()).hasSize(200);
    }

    /** The request ids the table holds for a task, oldest first. */
    private static List<String> requestIds(DataSource dataSource, long taskId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT request_id FROM " + AppendRequests.TABLE
                        + " WHERE task_id = " + taskId + " ORDER BY seq")) {
            List<String> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
            return ids;
        }
    }

    @Test
    void ofConcurrentUpdatesExpectingTheSameVersionExactlyOneWins() throws Exception {
        JdbcTaskStore store = newStore();
        long id = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "contested")))
                .id();
        AtomicInteger thread = new AtomicInteger();

        List<String> outcomes = runConcurrently(8, () -> {
            String mine = "by " + thread.incrementAndGet();
            try {
                store.inTransaction(tx -> tx.updateTask(
                        TaskUpdate.of(id).expectVersion(1).description(mine).build()));
                return mine;
            } catch (StaleTaskException e) {
                return "stale";
            }
        });

        List<String> winners =
                outcomes.stream().filter(outcome -> !outcome.equals("stale")).toList();
        assertThat(winners).hasSize(1);
        Task task = store.findTask(id).orElseThrow();
        assertThat(task.description()).isEqualTo(winners.get(0));
        assertThat(task.version()).isEqualTo(2);
    }

    @Test
    void readersNeverSeeHalfOfACommittedUnitOfWork() throws Exception {
        JdbcTaskStore store = newStore();
        long id = store.inTransaction(tx ->
                        tx.appendProgress(tx.appendTask(NewTask.of("s", "v0")).id(), "v0"))
                .id();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger role = new AtomicInteger();
        List<String> torn = new CopyOnWriteArrayList<>();

        runConcurrently(3, () -> {
            if (role.getAndIncrement() == 0) {
                try {
                    for (int round = 1; round <= 60; round++) {
                        String value = "v" + round;
                        store.inTransaction(tx -> {
                            tx.updateTask(TaskUpdate.of(id).description(value).build());
                            tx.addComment(id, "writer", value);
                            return tx.appendProgress(id, value);
                        });
                    }
                } finally {
                    writing.set(false);
                }
            } else {
                while (writing.get()) {
                    Task task = store.findTask(id).orElseThrow();
                    String lastProgress =
                            task.progresses().get(task.progresses().size() - 1);
                    boolean consistent = task.description().equals(lastProgress)
                            && task.comments().size() == task.progresses().size() - 1
                            && task.version() == 2 + 3L * task.comments().size();
                    if (!consistent) {
                        torn.add(task.toString());
                    }
                }
            }
            return null;
        });

        assertThat(torn).isEmpty();
    }

    @Test
    void aUnitOfWorkThatDeadlocksRunsAgainAndBothCommit() throws Exception {
        JdbcTaskStore store = newStore();
        List<Long> ids = store.inTransaction(tx -> List.of(
                tx.appendTask(NewTask.of("s", "a")).id(),
                tx.appendTask(NewTask.of("s", "b")).id()));
        CyclicBarrier bothHoldALock = new CyclicBarrier(2);
        AtomicInteger thread = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();

        runConcurrently(2, () -> {
            int me = thread.getAndIncrement();
            long first = ids.get(me);
            long second = ids.get(1 - me);
            AtomicBoolean firstAttempt = new AtomicBoolean(true);
            store.inTransaction(tx -> {
                attempts.incrementAndGet();
                tx.appendProgress(first, "first by " + me);
                if (firstAttempt.getAndSet(false)) {
                    try {
                        bothHoldALock.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                return tx.appendProgress(second, "second by " + me);
            });
            return null;
        });

        assertThat(attempts.get()).as("the deadlock victim ran again").isGreaterThan(2);
        for (long id : ids) {
            assertThat(store.findTask(id).orElseThrow().progresses()).hasSize(2);
        }
    }

    // ---- failures that leave the unit of work usable, or roll it back

    @Test
    void aWriteToAnUnknownTaskThrowsAndTheUnitOfWorkGoesOn() {
        JdbcTaskStore store = newStore();

        List<Task> tasks = store.inTransaction(tx -> {
            Task first = tx.appendTask(NewTask.of("s", "first"));
            assertThatThrownBy(() -> tx.appendProgress(9_999, "lost")).isInstanceOf(TaskNotFoundException.class);
            assertThatThrownBy(() -> tx.updateTask(TaskUpdate.of(first.id())
                            .expectVersion(7)
                            .status(TaskStatus.FAILED)
                            .build()))
                    .isInstanceOf(StaleTaskException.class)
                    .hasMessageContaining("expected version 7 but the task is at version 1");
            return List.of(first, tx.appendTask(NewTask.of("s", "second")));
        });

        assertThat(store.listTasks("s")).containsExactlyElementsOf(tasks);
    }

    @Test
    void aCommitOnADyingConnectionLeavesNothing() {
        DataSource real = database().newDataSource();
        JdbcTaskStore healthy = track(JdbcTaskStore.builder(real).clock(clock).build());
        FaultyDataSource faulty = new FaultyDataSource(real);
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(faulty.dataSource).clock(clock).build());
        faulty.failCommit.set(true);

        assertThatThrownBy(() -> store.inTransaction(tx -> {
                    Task task = tx.appendTask(
                            NewTask.builder("s", "doomed").assignee("a").build());
                    tx.addComment(task.id(), "a", "doomed too");
                    tx.linkMessagesToPlanningSection("s", List.of("m1"));
                    return task;
                }))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageStartingWith("Could not commit the unit of work on ")
                .hasMessageContaining("Connection reset by the test");

        assertThat(healthy.listTasks("s")).isEmpty();
        assertThat(planning(healthy, "s")).isEmpty();
        faulty.failCommit.set(false);
        assertThat(store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "fine")))
                        .order())
                .isEqualTo(1);
    }

    @Test
    void aConnectionThatDiesAtAnyStatementLeavesNothingAndTheStoreGoesOn() {
        DataSource real = database().newDataSource();
        JdbcTaskStore healthy = track(JdbcTaskStore.builder(real).clock(clock).build());
        long existing = healthy.inTransaction(tx -> tx.appendTask(NewTask.of("s", "before")))
                .id();
        FaultyDataSource faulty = new FaultyDataSource(real);
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(faulty.dataSource).clock(clock).build());
        Task before = healthy.findTask(existing).orElseThrow();

        int statement = 1;
        for (; statement < 40; statement++) {
            faulty.failAtStatement.set(statement);
            faulty.statements.set(0);
            try {
                store.inTransaction(tx -> {
                    Task task = tx.insertTask(NewTask.builder("s", "new").build(), 0);
                    tx.appendProgress(existing, "progress");
                    tx.addComment(task.id(), "a", "comment");
                    tx.linkMessages(task.id(), List.of("m1", "m2"));
                    tx.linkMessagesToPlanningSection("s", List.of("m2", "m3"));
                    return tx.updateTask(
                            TaskUpdate.of(existing).userPreference("pref").build());
                });
                break; // the unit of work has fewer statements than this: every failure point was tried
            } catch (TaskStoreException e) {
                assertThat(e).hasMessageStartingWith("Could not ").hasMessageContaining("connection died");
                assertThat(healthy.listTasks("s"))
                        .as("after a failure at statement %d", statement)
                        .containsExactly(before);
                assertThat(planning(healthy, "s")).isEmpty();
            }
        }

        assertThat(statement).as("statements in the unit of work").isGreaterThan(10);
        assertThat(healthy.listTasks("s")).extracting(Task::description).containsExactly("new", "before");
        assertThat(planning(healthy, "s")).containsExactly("m2", "m3");
    }

    private static List<String> planning(JdbcTaskStore store, String sessionId) {
        return store.inTransaction(tx -> tx.planningMessageIds(sessionId));
    }

    /** Wraps a data source so that its connections die on commit or at the n-th prepared statement. */
    private static final class FaultyDataSource {
        final AtomicBoolean failCommit = new AtomicBoolean();
        final AtomicInteger failAtStatement = new AtomicInteger();
        final AtomicInteger statements = new AtomicInteger();
        final AtomicBoolean failNextStatement = new AtomicBoolean();
        final DataSource dataSource = mock(DataSource.class);

        FaultyDataSource(DataSource real) {
            try {
                when(dataSource.getConnection()).thenAnswer(invocation -> wrap(real.getConnection()));
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }

        private Connection wrap(Connection connection) throws SQLException {
            Connection wrapper = mock(Connection.class, AdditionalAnswers.delegatesTo(connection));
            doAnswer(invocation -> {
                        if (failCommit.get()) {
                            connection.close(); // the server rolls back what a lost connection left open
                            throw new SQLException("Connection reset by the test", "08006");
                        }
                        connection.commit();
                        return null;
                    })
                    .when(wrapper)
                    .commit();
            doAnswer(invocation -> {
                        if (statements.incrementAndGet() == failAtStatement.get()) {
                            connection.close();
                            throw new SQLException("The connection died (injected)", "08006");
                        }
                        if (failNextStatement.getAndSet(false)) {
                            throw new SQLException("A statement failed (injected)", "22000");
                        }
                        return connection.prepareStatement(invocation.getArgument(0));
                    })
                    .when(wrapper)
                    .prepareStatement(anyString());
            return wrapper;
        }
    }

    @Test
    void aUnitOfWorkThatGoesOnAfterAStorageFailureIsRolledBack() {
        DataSource real = database().newDataSource();
        FaultyDataSource faulty = new FaultyDataSource(real);
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(faulty.dataSource).clock(clock).build());

        assertThatThrownBy(() -> store.inTransaction(tx -> {
                    Task task = tx.appendTask(NewTask.of("s", "kept?"));
                    faulty.failNextStatement.set(true);
                    try {
                        tx.appendProgress(task.id(), "fails");
                    } catch (TaskStoreException swallowed) {
                        // A careless unit of work goes on after a storage failure.
                    }
                    return task;
                }))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageContaining("went on regardless; it was rolled back");

        assertThat(store.listTasks("s")).isEmpty();
    }
}
