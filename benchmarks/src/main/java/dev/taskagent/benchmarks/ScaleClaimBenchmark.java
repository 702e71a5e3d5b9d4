package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The claim on a big queue: {@value #TASKS} pending tasks over {@value #ASSIGNEES} assignees (100 each,
 * two comments and two links each, written with {@code generate_series}) on PostgreSQL, claimed by 16
 * workers, each going round its own assignees. Compared with {@link DatabaseClaimBenchmark}'s PostgreSQL
 * figure at 16 workers on 16 assignees, whose queue holds a few thousand tasks, in the same run: the claim
 * must use its index, so that its p99 stays within twice that figure. The set-up writes the plan of the
 * claim's query ({@code EXPLAIN}) to {@code target/scale-claim-plan.txt} and to the log.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(16)
public class ScaleClaimBenchmark {
    static final int TASKS = 1_000_000;
    static final int ASSIGNEES = 10_000;
    static final int WORKERS = 16;
    private static final int TASKS_PER_SESSION = 1_000;

    /** postgres: the database of the target. */
    @Param({"postgres"})
    public String database;

    private BenchDatabase fresh;
    private JdbcTaskStore store;

    /**
     * Creates the database and writes the tasks.
     *
     * @throws SQLException if the database fails
     */
    @Setup(Level.Trial)
    public void fill() throws SQLException {
        fresh = BenchDatabase.create(BenchDatabase.Kind.of(database), "scale", WORKERS);
        try {
            store = BenchStore.jdbcStore(fresh, false);
            // The comments and links of every task: the documents of a template the store wrote itself.
            long template = new JdbcStoreLoader(fresh.dataSource(), "scale").templateId();
            try (Connection connection = fresh.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                statement.executeUpdate("INSERT INTO taskagent_sessions (session_id) SELECT 'scale-' || s"
                        + " FROM generate_series(0, " + (TASKS / TASKS_PER_SESSION - 1) + ") s");
                statement.executeUpdate("INSERT INTO taskagent_tasks (session_id, task_order, description, status,"
                        + " priority, assignee, previous_assignee, created_by, archived, steps, current_step,"
                        + " created_at, updated_at, version, progresses, preferences, comments, links) SELECT"
                        + " 'scale-' || (i / " + TASKS_PER_SESSION + "),"
                        + " i % " + TASKS_PER_SESSION + " + 1, 'Scale task ' || i || ': ' || '"
                        + Fixtures.description(0).replace("'", "''") + "', 'pending', i % 3, 'agent-' || (i % "
                        + ASSIGNEES + "), NULL, '" + Fixtures.CREATED_BY + "', FALSE, NULL, 0,"
                        + " TIMESTAMP '2026-01-01 00:00:00' + i * INTERVAL '1 microsecond',"
                        + " TIMESTAMP '2026-01-01 00:00:00', 1, t.progresses, t.preferences, t.comments, t.links"
                        + " FROM generate_series(0, " + (TASKS - 1) + ") i CROSS JOIN taskagent_tasks t WHERE t.id = "
                        + template);
                statement.execute("ANALYZE");
                writePlan(statement);
            }
        } catch (SQLException | RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    private static void writePlan(Statement statement) throws SQLException {
        StringBuilder plan = new StringBuilder("EXPLAIN (ANALYZE, BUFFERS) of the claim's choice of task, " + TASKS
                + " pending tasks over " + ASSIGNEES + " assignees:\n");
        try (ResultSet rows = statement.executeQuery("EXPLAIN (ANALYZE, BUFFERS) SELECT id FROM taskagent_tasks"
                + " WHERE assignee = 'agent-4242' AND status = 'pending' AND archived = FALSE AND open_blockers = 0"
                + " ORDER BY priority DESC, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED")) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        System.out.print(plan);
        Path file = BenchDatabase.workDirectory().resolve("scale-claim-plan.txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, plan, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A worker: goes round its own assignees, one claim each, so that none runs dry. */
    @State(Scope.Thread)
    public static class Worker {
        int next;

        /**
         * Starts at the thread's first assignee.
         *
         * @param thread the thread's parameters
         */
        @Setup(Level.Trial)
        public void start(ThreadParams thread) {
            next = thread.getThreadIndex();
        }

        String nextAssignee() {
            String assignee = "agent-" + next;
            next = (next + WORKERS) % ASSIGNEES;
            return assignee;
        }
    }

    /**
     * One claim.
     *
     * @param worker the thread's state
     * @param blackhole takes the claimed task
     */
    @Benchmark
    public void claim(Worker worker, Blackhole blackhole) {
        String assignee = worker.nextAssignee();
        Optional<Task> claimed = store.claimNext(assignee, TaskQueue.DEFAULT_LEASE);
        if (claimed.isEmpty()) {
            throw new IllegalStateException("no pending task left for " + assignee);
        }
        blackhole.consume(claimed.get());
    }

    /** Closes the store and drops the database. */
    @TearDown(Level.Trial)
    public void drop() {
        try {
            store.close();
        } finally {
            fresh.close();
        }
    }
}
