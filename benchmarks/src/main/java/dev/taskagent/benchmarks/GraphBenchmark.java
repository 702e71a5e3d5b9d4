package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
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
 * The work graph on PostgreSQL, each case on a database of its own written with {@code generate_series}:
 *
 * <ul>
 *   <li>{@code claim}: 16 workers claim from {@value #QUEUE_TASKS} pending tasks of {@value #ASSIGNEES}
 *       assignees, with {@code edges=none} no dependency at all, with {@code edges=blocked30} 30% of them
 *       waiting for a task that never ends: the claim must stay one range of its index, so both figures
 *       should be alike.
 *   <li>{@code completeWithThousandDependants}: completing a running task on which {@value #DEPENDANTS} tasks
 *       wait, which unblocks them all in the same unit of work (one shot per iteration, each on a new
 *       blocker).
 *   <li>{@code addDependencyAcrossPlans} and {@code addDependencyClosingACycle}: a dependency added to a
 *       graph of {@value #PLANS} plans of {@value #PLAN_TASKS} tasks, each task waiting for the two before
 *       it ({@value #PLAN_EDGES} edges in all), rolled back so the graph stays as it is; the cycle check walks
 *       the dependant's plan. The first is accepted, the second refused as a cycle (its chain is walked too).
 * </ul>
 */
@Fork(1)
public class GraphBenchmark {
    static final int QUEUE_TASKS = 1_000_000;
    static final int ASSIGNEES = 1_000;
    static final int WORKERS = 16;
    static final int DEPENDANTS = 1_000;
    static final int PLANS = 1_010;
    static final int PLAN_TASKS = 51;
    static final int PLAN_EDGES = PLANS * (2 * PLAN_TASKS - 3);

    private static final String EPOCH = "TIMESTAMP '2026-01-01 00:00:00'";

    /** The unit of work's own exception, which rolls it back. */
    private static final class RollBack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RollBack() {
            super(null, null, false, false);
        }
    }

    private static final RollBack ROLL_BACK = new RollBack();

    /** Inserts tasks with {@code generate_series}: {@code i} in 0..count-1, the columns as SQL of {@code i}. */
    private static void insertTasks(
            Statement statement, String session, String order, String assignee, String priority, int count)
            throws SQLException {
        statement.executeUpdate("INSERT INTO taskagent_sessions (session_id) SELECT DISTINCT " + session
                + " FROM generate_series(0, " + (count - 1) + ") i ON CONFLICT DO NOTHING");
        statement.executeUpdate("INSERT INTO taskagent_tasks (session_id, task_order, description, status, priority,"
                + " assignee, archived, current_step, created_at, updated_at, version, progresses, preferences,"
                + " comments, links) SELECT " + session + ", " + order + ", 'graph task ' || i, 'pending', "
                + priority + ", " + assignee + ", FALSE, 0, " + EPOCH + " + i * INTERVAL '1 microsecond', " + EPOCH
                + ", 1, '[]', '[]', '[]', '[]' FROM generate_series(0, " + (count - 1) + ") i");
    }

    /** Copies the edges into the dependants' rows: their blocker ids and how many of them are open. */
    private static void denormalise(Statement statement) throws SQLException {
        statement.executeUpdate("UPDATE taskagent_tasks t SET blocked_by = s.ids, open_blockers = s.open FROM"
                + " (SELECT d.dependant_id, string_agg(d.blocker_id::text, ',' ORDER BY d.blocker_id) AS ids,"
                + " COUNT(*) FILTER (WHERE b.status <> 'success') AS open FROM taskagent_dependencies d JOIN"
                + " taskagent_tasks b ON b.id = d.blocker_id GROUP BY d.dependant_id) s WHERE t.id = s.dependant_id");
        statement.execute("ANALYZE");
    }

    private static long queryLong(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** A queue of {@value #QUEUE_TASKS} pending tasks, none or 30% of them blocked. */
    @State(Scope.Benchmark)
    public static class Queue {
        /** none: no dependency; blocked30: 30% of the tasks wait for a task that never ends. */
        @Param({"none", "blocked30"})
        public String edges;

        BenchDatabase database;
        JdbcTaskStore store;

        /**
         * Writes the queue.
         *
         * @throws SQLException if the database fails
         */
        @Setup(Level.Trial)
        public void fill() throws SQLException {
            database = BenchDatabase.create(BenchDatabase.Kind.POSTGRES, "graph_claim", WORKERS);
            store = BenchStore.jdbcStore(database, false);
            try (Connection connection = database.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                insertTasks(statement, "'never'", "1", "NULL", "0", 1);
                long blocker = queryLong(statement, "SELECT MAX(id) FROM taskagent_tasks");
                insertTasks(
                        statement,
                        "'queue-' || (i / 1000)",
                        "i % 1000 + 1",
                        "'agent-' || (i % " + ASSIGNEES + ")",
                        "i % 3",
                        QUEUE_TASKS);
                if (edges.equals("blocked30")) {
                    // Task j of every assignee (i = assignee + ASSIGNEES * j) for j % 10 < 3: 30% of each queue,
                    // spread over its claim order.
                    statement.executeUpdate("INSERT INTO taskagent_dependencies (dependant_id, blocker_id) SELECT id, "
                            + blocker + " FROM taskagent_tasks WHERE id > " + blocker + " AND ((id - " + blocker
                            + " - 1) / " + ASSIGNEES + ") % 10 < 3");
                }
                denormalise(statement);
            }
        }

        /** Closes the store and drops the database. */
        @TearDown(Level.Trial)
        public void drop() {
            try {
                store.close();
            } finally {
                database.close();
            }
        }
    }

    /** A worker: goes round its own assignees, one claim each. */
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
     * One claim of a ready task.
     *
     * @param queue the queue
     * @param worker the thread's state
     * @param blackhole takes the claimed task
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 3, time = 2)
    @Threads(WORKERS)
    public void claim(Queue queue, Worker worker, Blackhole blackhole) {
        String assignee = worker.nextAssignee();
        Optional<Task> claimed = queue.store.claimNext(assignee, TaskQueue.DEFAULT_LEASE);
        if (claimed.isEmpty()) {
            throw new IllegalStateException("no ready task left for " + assignee);
        }
        blackhole.consume(claimed.get());
    }

    /** A running task on which {@value #DEPENDANTS} tasks wait, new for every iteration. */
    @State(Scope.Benchmark)
    public static class Wide {
        BenchDatabase database;
        JdbcTaskStore store;
        Task running;
        int round;

        /** Creates the database. */
        @Setup(Level.Trial)
        public void create() {
            database = BenchDatabase.create(BenchDatabase.Kind.POSTGRES, "graph_wide", 2);
            store = BenchStore.jdbcStore(database, false);
        }

        /**
         * Writes a blocker and its dependants, and claims the blocker.
         *
         * @throws SQLException if the database fails
         */
        @Setup(Level.Iteration)
        public void blocker() throws SQLException {
            round++;
            try (Connection connection = database.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                insertTasks(statement, "'wide-" + round + "'", "1", "'builder'", "0", 1);
                long blocker = queryLong(statement, "SELECT MAX(id) FROM taskagent_tasks");
                insertTasks(statement, "'wide-" + round + "'", "i + 2", "'assembler'", "0", DEPENDANTS);
                statement.executeUpdate("INSERT INTO taskagent_dependencies (dependant_id, blocker_id) SELECT id, "
                        + blocker + " FROM taskagent_tasks WHERE id > " + blocker);
                statement.executeUpdate("UPDATE taskagent_tasks SET blocked_by = '" + blocker
                        + "', open_blockers = 1 WHERE id > " + blocker);
            }
            running = store.claimNext("builder", TaskQueue.DEFAULT_LEASE).orElseThrow();
        }

        /** Closes the store and drops the database. */
        @TearDown(Level.Trial)
        public void drop() {
            try {
                store.close();
            } finally {
                database.close();
            }
        }
    }

    /**
     * Completes a task with success, unblocking its {@value #DEPENDANTS} dependants in the same unit of work.
     *
     * @param wide the blocker
     * @return the completed task
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 20)
    public Task completeWithThousandDependants(Wide wide) {
        Task running = wide.running;
        return wide.store.inTransaction(
                tx -> tx.complete(running.id(), "builder", running.attempt(), TaskStatus.SUCCESS));
    }

    /** {@value #PLANS} plans of {@value #PLAN_TASKS} tasks, each waiting for the two before it. */
    @State(Scope.Benchmark)
    public static class Plans {
        BenchDatabase database;
        JdbcTaskStore store;
        long firstId;

        /**
         * Writes the plans and their edges.
         *
         * @throws SQLException if the database fails
         */
        @Setup(Level.Trial)
        public void fill() throws SQLException {
            database = BenchDatabase.create(BenchDatabase.Kind.POSTGRES, "graph_plans", 2);
            store = BenchStore.jdbcStore(database, false);
            try (Connection connection = database.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                insertTasks(
                        statement,
                        "'plan-' || (i / " + PLAN_TASKS + ")",
                        "i % " + PLAN_TASKS + " + 1",
                        "NULL",
                        "0",
                        PLANS * PLAN_TASKS);
                firstId = queryLong(statement, "SELECT MIN(id) FROM taskagent_tasks");
                long last = queryLong(
                        statement,
                        "SELECT id FROM taskagent_tasks WHERE session_id = 'plan-" + (PLANS - 1) + "' AND task_order = "
                                + PLAN_TASKS);
                if (last != task(PLANS - 1, PLAN_TASKS - 1)) {
                    throw new IllegalStateException("the plans' ids are not in order");
                }
                long edges = statement.executeUpdate("INSERT INTO taskagent_dependencies (dependant_id, blocker_id)"
                        + " SELECT d.id, b.id FROM taskagent_tasks d JOIN taskagent_tasks b ON b.session_id ="
                        + " d.session_id AND b.task_order IN (d.task_order - 1, d.task_order - 2)");
                if (edges != PLAN_EDGES) {
                    throw new IllegalStateException("wrote " + edges + " edges, not " + PLAN_EDGES);
                }
                denormalise(statement);
            }
        }

        /** The id of a plan's task; ids were given in order of the plans and their tasks. */
        long task(int plan, int index) {
            return firstId + (long) plan * PLAN_TASKS + index;
        }

        /** Closes the store and drops the database. */
        @TearDown(Level.Trial)
        public void drop() {
            try {
                store.close();
            } finally {
                database.close();
            }
        }
    }

    /**
     * Makes the first task of a random plan wait for a task of the next plan, which closes no cycle; the
     * check walks the whole first plan. Rolled back.
     *
     * @param plans the graph
     * @return whether it was accepted
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 3, time = 2)
    public boolean addDependencyAcrossPlans(Plans plans) {
        int plan = ThreadLocalRandom.current().nextInt(PLANS - 1);
        long dependant = plans.task(plan, 0);
        long blocker = plans.task(plan + 1, ThreadLocalRandom.current().nextInt(PLAN_TASKS));
        try {
            plans.store.inTransaction(tx -> {
                tx.addDependency(dependant, blocker);
                throw ROLL_BACK;
            });
        } catch (RollBack accepted) {
            return true;
        }
        return false;
    }

    /**
     * Makes the first task of a random plan wait for its last, which closes a cycle through the whole plan:
     * refused, with the cycle.
     *
     * @param plans the graph
     * @return the cycle's length
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 3, time = 2)
    public int addDependencyClosingACycle(Plans plans) {
        int plan = ThreadLocalRandom.current().nextInt(PLANS);
        long dependant = plans.task(plan, 0);
        long blocker = plans.task(plan, PLAN_TASKS - 1);
        try {
            plans.store.inTransaction(tx -> tx.addDependency(dependant, blocker));
        } catch (TaskGraphException refused) {
            return refused.tasks().size();
        }
        throw new IllegalStateException("a cycle through plan " + plan + " was accepted");
    }
}
