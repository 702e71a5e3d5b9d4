package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.CommitOutcomeUnknownException;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server kills the pool's connections while eight workers claim and complete 2,000 tasks: a claim
 * whose commit reply is lost is found on a fresh connection once the server has ended the killed session (on
 * another again when the server kills the lookup's connection too), so every claim that committed reaches its
 * claimer, and no task is lost or completed twice. On PostgreSQL ({@code pg_terminate_backend}) and MariaDB ({@code KILL
 * CONNECTION}) when their URLs are set.
 */
class ConnectionKillTest {
    private static final String AGENT = "survivor";
    private static final int TASKS = 2_000;
    private static final int WORKERS = 8;
    private static final int KILLS = 6;
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    static Stream<TestDatabase> databases() {
        return Stream.of(TestDatabase.POSTGRES, TestDatabase.MARIADB).filter(TestDatabase::isConfigured);
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("databases")
    void noTaskIsLostOrCompletedTwiceWhileTheServerKillsTheConnections(TestDatabase database) throws Exception {
        String url = database.newUrl();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(WORKERS + 2);
        config.setPoolName("kill-test");
        if (database == TestDatabase.POSTGRES) {
            config.addDataSourceProperty("ApplicationName", "taskagent-kill-test");
        }
        Map<Long, Integer> completions = new ConcurrentHashMap<>();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        Set<String> handedOut = ConcurrentHashMap.newKeySet();
        AtomicInteger unknownClaims = new AtomicInteger();
        List<String> misreported = Collections.synchronizedList(new ArrayList<>());
        int killed = 0;
        try (HikariDataSource pool = new HikariDataSource(config);
                JdbcTaskStore store = new JdbcTaskStore(pool)) {
            TaskQueue queue = TaskQueue.builder(store)
                    .leaseDuration(LEASE)
                    .maxAttempts(50)
                    .build();
            Set<Long> ids = createTasks(store);
            ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
            LeaseReaper reaper = LeaseReaper.builder(queue)
                    .reclaimInterval(Duration.ofMillis(200))
                    .start();
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int worker = 0; worker < WORKERS; worker++) {
                    running.add(workers.submit(
                            () -> work(queue, completions, failures, lost, handedOut, unknownClaims, misreported)));
                }
                for (int kill = 1; kill <= KILLS; kill++) {
                    awaitCompletions(completions, TASKS * kill / (KILLS + 1));
                    killed += killConnections(database, url);
                }
                for (Future<?> future : running) {
                    future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                }
            } finally {
                workers.shutdownNow();
                reaper.close();
            }

            List<Task> tasks = store.inTransaction(tx -> tx.listTasks("kill-test"));
            System.out.printf(
                    "%s: %d connections killed in %d rounds, %d calls failed, %d claims lost to a reclaim,"
                            + " %d claims told 'unknown'%n",
                    database, killed, KILLS, failures.get(), lost.get(), unknownClaims.get());
            assertThat(killed).as("connections the server killed").isPositive();
            assertThat(failures.get()).as("calls that met a killed connection").isPositive();
            assertThat(tasks).hasSize(TASKS).allSatisfy(task -> {
                assertThat(task.status()).as("task %d", task.id()).isEqualTo(TaskStatus.SUCCESS);
                assertThat(task.leaseExpiresAt()).as("task %d", task.id()).isNull();
            });
            assertThat(completions.keySet()).as("tasks completed").containsExactlyInAnyOrderElementsOf(ids);
            assertThat(completions.values()).as("completions per task").containsOnly(1);
            assertThat(misreported)
                    .as("completions that committed although their caller was told they failed for sure")
                    .isEmpty();
            // Every claim that committed was handed to its claimer, found after a lost reply if need be: the
            // lookup runs again on another connection when the server kills its connection too.
            List<String> stranded = new ArrayList<>();
            for (Task task : tasks) {
                for (int attempt = 1; attempt <= task.attempt(); attempt++) {
                    if (!handedOut.contains(task.id() + "/" + attempt)) {
                        stranded.add(task.id() + "/" + attempt);
                    }
                }
            }
            assertThat(stranded)
                    .as(
                            "claims that committed but were never handed out (claims told 'unknown': %d)",
                            unknownClaims.get())
                    .isEmpty();
        }
    }

    private static Void work(
            TaskQueue queue,
            Map<Long, Integer> completions,
            AtomicInteger failures,
            AtomicInteger lost,
            Set<String> handedOut,
            AtomicInteger unknownClaims,
            List<String> misreported) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (Instant.now().isBefore(deadline)) {
            Optional<Task> claimed;
            try {
                claimed = queue.claimNext(AGENT);
            } catch (TaskStoreException e) {
                failures.incrementAndGet();
                if (e instanceof CommitOutcomeUnknownException) {
                    unknownClaims.incrementAndGet();
                    System.out.println("UNKNOWN: " + e + " / "
                            + java.util.Arrays.toString(e.getCause().getSuppressed()));
                }
                continue;
            }
            if (claimed.isEmpty()) {
                if (queue.listQueue(AGENT).stream()
                        .allMatch(task -> task.status().isTerminal())) {
                    return null;
                }
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                continue;
            }
            Task task = claimed.get();
            handedOut.add(task.id() + "/" + task.attempt());
            try {
                queue.complete(task.id(), AGENT, task.attempt(), TaskStatus.SUCCESS, null);
                completions.merge(task.id(), 1, Integer::sum);
            } catch (ClaimLostException e) {
                lost.incrementAndGet(); // a reclaim or a later claim got there first: its claim stands
            } catch (TaskStoreException e) {
                // The commit of the completion may or may not have landed: if not, the lease brings the
                // task back; if it did, the task is complete and nobody claims it again.
                failures.incrementAndGet();
                if (completedByThisClaim(queue, task, failures)) {
                    completions.merge(task.id(), 1, Integer::sum);
                    if (!(e instanceof CommitOutcomeUnknownException)) {
                        misreported.add(task.id() + ": " + e.getMessage());
                    }
                }
            }
        }
        throw new AssertionError("the worker did not finish within " + DEADLINE);
    }

    /** Reads, through however many killed connections it takes, whether this claim's completion landed. */
    private static boolean completedByThisClaim(TaskQueue queue, Task claimed, AtomicInteger failures) {
        while (true) {
            try {
                Task now = queue.get(claimed.id()).orElseThrow();
                return now.status() == TaskStatus.SUCCESS && now.attempt() == claimed.attempt();
            } catch (TaskStoreException e) {
                failures.incrementAndGet();
            }
        }
    }

    private static Set<Long> createTasks(JdbcTaskStore store) {
        Set<Long> ids = new HashSet<>();
        for (int start = 0; start < TASKS; start += 500) {
            int from = start;
            ids.addAll(store.inTransaction(tx -> {
                List<Long> created = new ArrayList<>();
                for (int index = from; index < from + 500; index++) {
                    created.add(tx.appendTask(NewTask.builder("kill-test", "task " + index)
                                    .assignee(AGENT)
                                    .build())
                            .id());
                }
                return created;
            }));
        }
        return ids;
    }

    private static void awaitCompletions(Map<Long, Integer> completions, int count) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (completions.size() < count) {
            assertThat(Instant.now()).as("%d completions", count).isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }

    /** Has the server kill every connection of the test's pool; returns how many it killed. */
    private static int killConnections(TestDatabase database, String url) throws SQLException {
        try (Connection admin = DriverManager.getConnection(url)) {
            if (database == TestDatabase.POSTGRES) {
                try (Statement statement = admin.createStatement();
                        ResultSet rows = statement.executeQuery("SELECT pg_terminate_backend(pid)"
                                + " FROM pg_stat_activity WHERE application_name = 'taskagent-kill-test'"
                                + " AND pid <> pg_backend_pid()")) {
                    int killed = 0;
                    while (rows.next()) {
                        killed += rows.getBoolean(1) ? 1 : 0;
                    }
                    return killed;
                }
            }
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement statement = admin.prepareStatement("SELECT id FROM information_schema.processlist"
                    + " WHERE db = DATABASE() AND id <> CONNECTION_ID()")) {
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                    }
                }
            }
            int killed = 0;
            for (long id : ids) {
                try (Statement statement = admin.createStatement()) {
                    statement.execute("KILL CONNECTION " + id);
                    killed++;
                } catch (SQLException gone) {
                    // ended by itself meanwhile
                }
            }
            return killed;
        }
    }
}
