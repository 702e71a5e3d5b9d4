package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.event.FeedEvent;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The work graph (TS-12) in the JDBC store beyond the conformance kit, on one database: the migration of
 * version 6 with data to version 7, the ready claim as one range of the claim index, and the graph under
 * concurrency. Subclassed once per database.
 */
abstract class JdbcWorkGraphTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private static final String OLD = "TIMESTAMP '2026-01-01 00:00:00'";

    protected final MutableClock clock = MutableClock.standard();
    private final List<JdbcTaskStore> stores = new CopyOnWriteArrayList<>();
    private ExecutorService executor;

    /** @return the database under test */
    protected abstract TestDatabase database();

    @AfterEach
    void closeEverything() {
        if (executor != null) {
            executor.shutdownNow();
        }
        stores.forEach(JdbcTaskStore::close);
    }

    private JdbcTaskStore track(JdbcTaskStore store) {
        stores.add(store);
        return store;
    }

    private <T> List<T> runConcurrently(int threads, java.util.function.IntFunction<Callable<T>> tasks)
            throws Exception {
        executor = Executors.newFixedThreadPool(threads);
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<T>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            Callable<T> task = tasks.apply(thread);
            futures.add(executor.submit(() -> {
                start.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                return task.call();
            }));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        }
        executor.shutdown();
        executor = null;
        return results;
    }

    // ---- migration

    @Test
    void aDatabaseAtVersionSixWithTasksMigratesToVersionSevenWithoutAGraph() throws Exception {
        DataSource dataSource = database().newDataSource();
        try (Connection connection = dataSource.getConnection()) {
            Dialect dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                List<String> scripts = new ArrayList<>(List.of(SchemaMigrator.VERSION_TABLE_SCRIPT));
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(0, 6));
                scripts.add(SchemaMigrator.DOCUMENTS_FINISH);
                for (String script : scripts) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                for (int version = 1; version <= 6; version++) {
                    statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                            + " VALUES (" + version + ", 'old', " + OLD + ")");
                }
                statement.execute("INSERT INTO taskagent_sessions (session_id) VALUES ('six')");
                for (int order = 1; order <= 3; order++) {
                    statement.execute("INSERT INTO taskagent_tasks (session_id, task_order, description, status,"
                            + " priority, assignee, archived, current_step, created_at, updated_at, version, attempt,"
                            + " max_attempts, progresses, preferences, comments, links) VALUES ('six', " + order
                            + ", 'from version 6 #" + order + "', '" + (order == 3 ? "success" : "pending") + "', "
                            + order + ", 'veteran', FALSE, 0, " + OLD + ", " + OLD + ", 1, 0, 0,"
                            + " '[\"half done\"]', '[]', '[]', '[]')");
                }
            }
        }

        JdbcTaskStore store =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());

        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM taskagent_schema_version")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(SchemaMigrator.latestVersion());
        }
        List<Task> old = store.listTasks("six");
        assertThat(old).hasSize(3);
        assertThat(old).allSatisfy(task -> {
            assertThat(task.parentId()).isZero();
            assertThat(task.blockedBy()).isEmpty();
            assertThat(task.openBlockers()).isZero();
            assertThat(task.tags()).isEmpty();
            assertThat(task.metadata()).isNull();
            assertThat(task.progresses()).containsExactly("half done");
        });
        assertThat(old.get(0).isReady()).isTrue();

        // The old tasks take part in the graph: the second waits for the first, then for the finished third.
        Task waiting = store.inTransaction(
                tx -> tx.addDependency(old.get(1).id(), old.get(0).id()));
        assertThat(waiting.openBlockers()).isEqualTo(1);
        Task claimed = store.claimNext("veteran", LEASE).orElseThrow();
        assertThat(claimed.id())
                .as("the ready one, though of lower priority")
                .isEqualTo(old.get(0).id());
        assertThat(store.claimNext("veteran", LEASE)).isEmpty();
        store.inTransaction(tx -> tx.complete(claimed.id(), "veteran", claimed.attempt(), TaskStatus.SUCCESS));
        Task unblocked = store.claimNext("veteran", LEASE).orElseThrow();
        assertThat(unblocked.id()).isEqualTo(old.get(1).id());
        assertThat(unblocked).isEqualTo(store.findTask(unblocked.id()).orElseThrow());
    }

    // ---- the claim reads one range of its index

    @Test
    void theReadyClaimIsOneRangeOfTheClaimIndexInItsOrder() throws Exception {
        DataSource dataSource = database().newDataSource();
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());
        Task blocker = store.inTransaction(tx -> tx.appendTask(NewTask.of("plan", "blocker")));
        store.inTransaction(tx -> {
            for (int index = 0; index < 300; index++) {
                NewTask.Builder spec = NewTask.builder("plan", "task " + index)
                        .assignee("worker")
                        .priority(index % 5);
                tx.appendTask(index % 3 == 0 ? spec.blockedBy(blocker.id()).build() : spec.build());
            }
            return null;
        });
        String plan = plan(dataSource, store.dialect());

        assertThat(plan).as(plan).containsIgnoringCase("taskagent_tasks_claim");
        switch (store.dialect()) {
            case POSTGRESQL -> {
                assertThat(plan)
                        .as(plan)
                        .doesNotContain("Sort")
                        .doesNotContain("Seq Scan")
                        .contains("open_blockers = 0");
            }
            case MARIADB, MYSQL -> {
                assertThat(plan).as(plan).doesNotContainIgnoringCase("filesort");
            }
            default -> {
                assertThat(plan)
                        .as(plan)
                        .containsIgnoringCase("OPEN_BLOCKERS = 0")
                        .containsIgnoringCase("index sorted");
            }
        }
    }

    /** The plan of the claim's choice of task, as each dialect's claim asks for it. */
    private static String plan(DataSource dataSource, JdbcDialect dialect) throws SQLException {
        String sql =
                switch (dialect) {
                    case POSTGRESQL -> "EXPLAIN " + Claims.Postgres.NEXT_CLAIMABLE.replace("?", "'worker'");
                    case MARIADB, MYSQL ->
                        "EXPLAIN SELECT id FROM taskagent_tasks FORCE INDEX (taskagent_tasks_claim) WHERE "
                                + Claims.claimable(MySqlFamilyDialect.NOW).replace("?", "'worker'")
                                + " ORDER BY claim_rank, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED";
                    default ->
                        "EXPLAIN SELECT id FROM taskagent_tasks WHERE "
                                + Claims.claimable(H2Dialect.NOW).replace("?", "'worker'")
                                + " ORDER BY assignee, status, archived, open_blockers, priority DESC, created_at, id"
                                + " LIMIT 8";
                };
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            if (dialect == JdbcDialect.POSTGRESQL) {
                // A table this small is read whole otherwise; what matters is which index serves the claim.
                statement.execute("SET enable_seqscan = off");
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery(sql)) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    for (int column = 1; column <= columns; column++) {
                        plan.append(rows.getMetaData().getColumnLabel(column))
                                .append('=')
                                .append(rows.getString(column))
                                .append(' ');
                    }
                    plan.append('\n');
                }
            }
            if (dialect == JdbcDialect.POSTGRESQL) {
                statement.execute("RESET enable_seqscan");
            }
            return plan.toString();
        }
    }

    // ---- concurrency

    @Test
    void ofTwoConcurrentDependenciesThatTogetherCloseACycleExactlyOneCommits() throws Exception {
        JdbcTaskStore store = track(database().newStore(clock));
        for (int round = 1; round <= 20; round++) {
            String session = "cycle-" + round;
            // A chain a ← b ← c ← d; "a waits for d" and "d waits for x", "x waits for a" close it two ways.
            Task a = store.inTransaction(tx -> tx.appendTask(NewTask.of(session, "a")));
            Task b = store.inTransaction(tx -> tx.appendTask(
                    NewTask.builder(session, "b").blockedBy(a.id()).build()));
            Task c = store.inTransaction(tx -> tx.appendTask(
                    NewTask.builder(session, "c").blockedBy(b.id()).build()));
            Task x = store.inTransaction(tx -> tx.appendTask(NewTask.of(session, "x")));
            long[][] edges = {{x.id(), c.id()}, {a.id(), x.id()}};
            List<Optional<TaskGraphException>> outcomes = runConcurrently(2, worker -> () -> {
                try {
                    store.inTransaction(tx -> tx.addDependency(edges[worker][0], edges[worker][1]));
                    return Optional.empty();
                } catch (TaskGraphException e) {
                    return Optional.of(e);
                }
            });

            assertThat(outcomes)
                    .as("round %d", round)
                    .filteredOn(Optional::isEmpty)
                    .hasSize(1);
            TaskGraphException refused =
                    outcomes.stream().flatMap(Optional::stream).findFirst().orElseThrow();
            assertThat(refused.reason()).isEqualTo(TaskGraphException.Reason.DEPENDENCY_CYCLE);
            assertThat(refused.tasks()).hasSize(5); // a, b, c, x and back
            int kept = store.findTask(x.id()).orElseThrow().blockedBy().size()
                    + store.findTask(a.id()).orElseThrow().blockedBy().size();
            assertThat(kept).as("round %d: edges kept besides the chain", round).isEqualTo(1);
        }
    }

    @Test
    void sixteenClaimersGetEachDependantOnceAndNeverBeforeItsLastBlockerCommitted() throws Exception {
        JdbcTaskStore store = track(database().newStore(clock));
        String session = "race";
        String agent = "graph-worker";
        int blockerCount = 30;
        int dependantCount = 240;
        Random random = new Random(7);
        List<Long> blockers = new ArrayList<>();
        Map<Long, List<Long>> blockersOf = new HashMap<>();
        store.inTransaction(tx -> {
            for (int index = 0; index < blockerCount; index++) {
                blockers.add(
                        tx.appendTask(NewTask.of(session, "blocker " + index)).id());
            }
            for (int index = 0; index < dependantCount; index++) {
                Set<Long> mine = new HashSet<>();
                int count = 1 + random.nextInt(3);
                while (mine.size() < count) {
                    mine.add(blockers.get(random.nextInt(blockerCount)));
                }
                Task task = tx.appendTask(NewTask.builder(session, "dependant " + index)
                        .assignee(agent)
                        .priority(index % 4)
                        .blockedBy(List.copyOf(mine))
                        .build());
                blockersOf.put(task.id(), List.copyOf(mine));
            }
            return null;
        });
        // Set in the completing unit of work, before it commits: a claim that comes before it is a claim too early.
        Set<Long> completing = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<Long> toComplete = new ConcurrentLinkedQueue<>(shuffled(blockers, random));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicInteger completersLeft = new AtomicInteger(4);
        int claimers = 16;

        List<List<Long>> claimed = runConcurrently(claimers + 4, worker -> () -> {
            List<Long> mine = new ArrayList<>();
            if (worker >= claimers) {
                for (Long blockerId = toComplete.poll(); blockerId != null; blockerId = toComplete.poll()) {
                    long id = blockerId;
                    store.inTransaction(tx -> {
                        completing.add(id);
                        return tx.updateTask(
                                TaskUpdate.of(id).status(TaskStatus.SUCCESS).build());
                    });
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
                completersLeft.decrementAndGet();
                return mine;
            }
            while (true) {
                boolean completersDone = completersLeft.get() == 0;
                Optional<Task> next = store.claimNext(agent, LEASE);
                if (next.isEmpty()) {
                    if (completersDone) {
                        return mine;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    continue;
                }
                Task task = next.get();
                mine.add(task.id());
                for (long blockerId : blockersOf.get(task.id())) {
                    if (!completing.contains(blockerId)) {
                        violations.add(task.id() + " claimed before blocker " + blockerId + " was completed");
                    } else if (store.findTask(blockerId).orElseThrow().status() != TaskStatus.SUCCESS) {
                        violations.add(task.id() + " claimed before blocker " + blockerId + " committed");
                    }
                }
                if (task.openBlockers() != 0) {
                    violations.add(task.id() + " claimed with open blockers " + task.openBlockers());
                }
            }
        });

        List<Long> all = claimed.stream().flatMap(List::stream).toList();
        assertThat(violations).isEmpty();
        assertThat(all).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(blockersOf.keySet());
    }

    @Test
    void aBlockerWithAThousandDependantsUnblocksThemAllInItsCompletion() {
        JdbcTaskStore store = track(database().newStore(clock));
        Task blocker = store.inTransaction(tx -> tx.appendTask(
                NewTask.builder("wide", "build").assignee("builder").build()));
        store.inTransaction(tx -> {
            for (int index = 0; index < 1000; index++) {
                tx.appendTask(NewTask.builder("wide", "part " + index)
                        .assignee("assembler")
                        .blockedBy(blocker.id())
                        .build());
            }
            return null;
        });
        Task claimed = store.claimNext("builder", LEASE).orElseThrow();
        long start = store.eventFeed().lastPosition();

        store.inTransaction(tx -> tx.complete(claimed.id(), "builder", claimed.attempt(), TaskStatus.SUCCESS));

        List<FeedEvent> events = new ArrayList<>();
        for (List<FeedEvent> page = store.eventFeed().read(start, 500);
                !page.isEmpty();
                page = store.eventFeed().read(page.get(page.size() - 1).position(), 500)) {
            events.addAll(page);
        }
        List<FeedEvent> unblocked = events.stream()
                .filter(event -> event.kind().equals(FeedEncoding.UNBLOCKED))
                .toList();
        assertThat(unblocked).hasSize(1000);
        assertThat(unblocked.get(0).payload()).contains("\"assignee\":\"assembler\"");
        List<Task> dependants = store.inTransaction(tx -> tx.listDependants(blocker.id()));
        assertThat(dependants).hasSize(1000).allSatisfy(task -> {
            assertThat(task.openBlockers()).isZero();
            assertThat(task.version()).as("the count is derived").isEqualTo(1);
        });
        assertThat(store.claimUpTo("assembler", LEASE, 10)).hasSize(10);
    }

    @Test
    void anUnblockedEventIsWrittenAsTheFeedEncodesIt() {
        Task task = dev.taskagent.store.spi.TaskBuilder.from(dev.taskagent.store.spi.TaskSnapshots.created(
                        NewTask.builder("s", "d")
                                .assignee("a \"quoted\" agent ü")
                                .build(),
                        5,
                        1,
                        clock.instant()))
                .version(3)
                .build();

        assertThat(Graph.unblocked(5, "s", 3, "a \"quoted\" agent ü"))
                .isEqualTo(FeedEncoding.encode(new dev.taskagent.event.TaskEvent.Unblocked(task)));
        Task unassigned =
                dev.taskagent.store.spi.TaskBuilder.from(task).assignee(null).build();
        assertThat(Graph.unblocked(5, "s", 3, null))
                .isEqualTo(FeedEncoding.encode(new dev.taskagent.event.TaskEvent.Unblocked(unassigned)));
    }

    private static List<Long> shuffled(List<Long> ids, Random random) {
        List<Long> copy = new ArrayList<>(ids);
        Collections.shuffle(copy, random);
        return copy;
    }
}
