package dev.taskagent.benchmarks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A peer in the same run: draining {@value #TASKS} tasks with 16 worker threads on PostgreSQL, through
 * taskagent's {@link TaskWorker} (free threads claim together in one transaction, successes are written
 * together), through a loop per thread on taskagent's queue (claim, then complete: two transactions per
 * task, each claim returning the task with its two comments and two links) and through db-scheduler (one-time tasks with an empty handler, its
 * {@code lock-and-fetch} polling, 16 executor threads, a 100 ms polling interval). One operation drains
 * them all; tasks per second = {@value #TASKS} / its time. Both sides get a HikariCP pool of 16 on a fresh
 * schema; the tasks are written before each iteration, db-scheduler's with an execution time in the
 * future that the operation moves to now, so that it starts no earlier than the operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class PeerQueueBenchmark {
    static final int TASKS = 20_000;
    static final int WORKERS = 16;
    private static final String AGENT = "worker";

    /**
     * taskagent through {@link TaskWorker} (batch claims, group-committed completions), taskagent with a
     * claim-then-complete loop per thread, or db-scheduler.
     */
    @Param({"taskagent-worker", "taskagent", "db-scheduler"})
    public String implementation;

    private BenchDatabase fresh;
    private JdbcTaskStore store;
    private TaskQueue queue;
    private ExecutorService workers;
    private Scheduler scheduler;
    private volatile CountDownLatch drained;
    private int iteration;

    /**
     * Creates the schema of the implementation and starts db-scheduler.
     *
     * @throws SQLException if the database fails
     */
    @Setup(Level.Trial)
    public void open() throws SQLException {
        fresh = BenchDatabase.create(BenchDatabase.Kind.POSTGRES, "peer", WORKERS);
        try {
            switch (implementation) {
                case "taskagent" -> {
                    store = BenchStore.jdbcStore(fresh, false);
                    queue = TaskQueue.builder(store).build();
                    workers = Executors.newFixedThreadPool(WORKERS);
                }
                case "taskagent-worker" -> {
                    store = BenchStore.jdbcStore(fresh, false);
                    queue = TaskQueue.builder(store).build();
                }
                case "db-scheduler" -> {
                    execute("CREATE TABLE scheduled_tasks (task_name TEXT NOT NULL, task_instance TEXT NOT NULL,"
                            + " task_data BYTEA, execution_time TIMESTAMP WITH TIME ZONE, picked BOOLEAN NOT NULL,"
                            + " picked_by TEXT, last_success TIMESTAMP WITH TIME ZONE, last_failure TIMESTAMP WITH"
                            + " TIME ZONE, consecutive_failures INT, last_heartbeat TIMESTAMP WITH TIME ZONE,"
                            + " version BIGINT NOT NULL, priority SMALLINT, state TEXT,"
                            + " PRIMARY KEY (task_name, task_instance))");
                    execute("CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)");
                    execute("CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
                    execute("CREATE INDEX priority_execution_time_idx ON scheduled_tasks"
                            + " (priority DESC, execution_time ASC)");
                    OneTimeTask<Void> task = Tasks.oneTime("bench").execute((instance, context) -> {
                        CountDownLatch latch = drained;
                        if (latch != null) {
                            latch.countDown();
                        }
                    });
                    scheduler = Scheduler.create(fresh.dataSource(), task)
                            .threads(WORKERS)
                            .pollUsingLockAndFetch(0.5, 1.0)
                            .pollingInterval(Duration.ofMillis(100))
                            .build();
                    scheduler.start();
                }
                default ->
                    throw new IllegalArgumentException("Unknown implementation '" + implementation
                            + "'; use taskagent-worker, taskagent or db-scheduler");
            }
        } catch (SQLException | RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    /**
     * Writes the iteration's tasks.
     *
     * @throws SQLException if the database fails
     */
    @Setup(Level.Iteration)
    public void stock() throws SQLException {
        iteration++;
        if (queue != null) {
            new JdbcStoreLoader(fresh.dataSource(), "peer-" + iteration).addTasks(AGENT, TASKS);
        } else {
            drained = new CountDownLatch(TASKS);
            execute("INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, version)"
                    + " SELECT 'bench', '" + iteration + "-' || i, now() + INTERVAL '1 day', FALSE, 1"
                    + " FROM generate_series(1, " + TASKS + ") i");
        }
    }

    /**
     * Drains the queue.
     *
     * @return how many tasks were done
     * @throws Exception if a worker fails or the tasks are not all done within five minutes
     */
    @Benchmark
    public int drain() throws Exception {
        if (queue == null) {
            execute("UPDATE scheduled_tasks SET execution_time = now() WHERE picked = FALSE");
            if (!drained.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException(drained.getCount() + " db-scheduler tasks left after five minutes");
            }
            return TASKS;
        }
        if (workers == null) {
            return drainThroughTaskWorker();
        }
        List<Future<Integer>> done = new ArrayList<>();
        for (int worker = 0; worker < WORKERS; worker++) {
            done.add(workers.submit(() -> {
                int count = 0;
                while (true) {
                    Optional<Task> claimed = queue.claimNext(AGENT);
                    if (claimed.isEmpty()) {
                        return count;
                    }
                    Task task = claimed.get();
                    queue.complete(task.id(), AGENT, task.attempt(), TaskStatus.SUCCESS, null);
                    count++;
                }
            }));
        }
        int total = 0;
        for (Future<Integer> worker : done) {
            total += worker.get(5, TimeUnit.MINUTES);
        }
        if (total != TASKS) {
            throw new IllegalStateException("completed " + total + " of " + TASKS + " tasks");
        }
        return total;
    }

    private int drainThroughTaskWorker() throws InterruptedException {
        CountDownLatch handled = new CountDownLatch(TASKS);
        TaskWorker worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(WORKERS)
                .handler(task -> handled.countDown())
                .start();
        try {
            if (!handled.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException(handled.getCount() + " tasks left after five minutes");
            }
        } finally {
            worker.close(); // returns once every handler finished and its success is written
        }
        long running = store.countTasks().running();
        if (running != 0) {
            throw new IllegalStateException(running + " tasks still running after the worker closed");
        }
        return TASKS;
    }

    /** Stops the workers and db-scheduler, closes the store and drops the schema. */
    @TearDown(Level.Trial)
    public void close() {
        try {
            if (scheduler != null) {
                scheduler.stop();
            }
            if (workers != null) {
                workers.shutdownNow();
            }
            if (store != null) {
                store.close();
            }
        } finally {
            fresh.close();
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = fresh.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.executeUpdate(sql);
        }
    }
}
