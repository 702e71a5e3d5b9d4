package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;
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
 * Taking back {@value #TASKS} running tasks whose leases expired: one call of {@link
 * TaskQueue#reclaimExpired()}, which works in batches of one transaction each and writes a comment and a
 * {@code LeaseExpired} event per task. Before each iteration {@value #TASKS} fresh tasks (two comments and
 * two links each, as a claim left them) are made running under a lease that expired in the year 2000, by
 * plain SQL: 10,000 claims through the API would make the set-up the run's time. Fresh tasks every shot, so
 * that no shot reads back the reaper comments of the shots before it; the tasks of earlier shots stay
 * pending, outside the lease index.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class ReclaimBenchmark {
    static final int TASKS = 10_000;

    /** postgres (the figure of the target), h2 or mariadb. */
    @Param({"postgres"})
    public String database;

    private BenchDatabase fresh;
    private JdbcTaskStore store;
    private TaskQueue queue;
    private JdbcStoreLoader loader;

    /** Creates the database and the store. */
    @Setup(Level.Trial)
    public void openDatabase() {
        fresh = BenchDatabase.create(BenchDatabase.Kind.of(database), "reclaim", 2);
        try {
            store = BenchStore.jdbcStore(fresh, false);
            queue = TaskQueue.builder(store).maxAttempts(1_000).build();
            loader = new JdbcStoreLoader(fresh.dataSource(), "reclaim");
        } catch (RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    /** Adds {@value #TASKS} fresh tasks, running under a lease that expired long ago. */
    @Setup(Level.Iteration)
    public void expireLeases() throws SQLException {
        long[] ids = loader.addTasks("worker", TASKS);
        try (Connection connection = fresh.dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET status ="
                        + " 'running', attempt = 1, lease_expires_at = ?, " + JdbcStoreLoader.BUMP_VERSION
                        + " WHERE id BETWEEN ? AND ?")) {
            statement.setTimestamp(1, Timestamp.valueOf(LocalDateTime.of(2000, 1, 1, 0, 0)));
            statement.setLong(2, ids[0]);
            statement.setLong(3, ids[ids.length - 1]);
            int expired = statement.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            if (expired != TASKS) {
                throw new IllegalStateException("expected " + TASKS + " tasks, found " + expired);
            }
        }
    }

    /**
     * Takes back every expired task.
     *
     * @return what was taken back
     */
    @Benchmark
    public List<ReclaimedTask> reclaimExpired() {
        List<ReclaimedTask> reclaimed = queue.reclaimExpired();
        if (reclaimed.size() != TASKS) {
            throw new IllegalStateException("reclaimed " + reclaimed.size() + " of " + TASKS + " expired tasks");
        }
        return reclaimed;
    }

    /** Closes the store and drops the database. */
    @TearDown(Level.Trial)
    public void dropDatabase() {
        try {
            store.close();
        } finally {
            fresh.close();
        }
    }
}
