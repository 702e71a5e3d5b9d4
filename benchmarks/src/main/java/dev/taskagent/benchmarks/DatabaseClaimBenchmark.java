package dev.taskagent.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Claims per second and claim latency on H2 (file), PostgreSQL and MariaDB, with 1, 4 and 16 worker
 * threads on one shared assignee or on 16 assignees: the taskagent JDBC store, and the floor (the
 * plainest hand-written claim over plain JDBC, {@link FloorClaimTarget}) in the same run. Each trial gets
 * a fresh database and a HikariCP pool as large as the thread count; each claim is one transaction that
 * returns the task with its two comments and two links.
 *
 * <p>The warmup is long (10 × 1 s): with 16 threads on two cores the JIT competes with the workers for
 * the CPU, and H2's claim path (which runs in this JVM) took about 20 s to reach a steady rate; a shorter
 * warmup measured the compiler, not the claim, and a longer one would lengthen the 72 trials further.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class DatabaseClaimBenchmark {
    /** h2 (a fresh file database under target/), postgres or mariadb. */
    @Param({"h2", "postgres", "mariadb"})
    public String database;

    /**
     * taskagent: the JDBC store; floor: the hand-written claim; taskagent-nofeed (not run by default: name
     * it with {@code -p implementation=taskagent,taskagent-nofeed}): the JDBC store without its event feed,
     * to measure what the feed adds to a claim.
     */
    @Param({"taskagent", "floor"})
    public String implementation;

    /** 1: every worker claims for the same assignee; 16: the tasks are spread over 16 assignees. */
    @Param({"1", "16"})
    public int assignees;

    /**
     * Kilobytes of progress text each task of the JDBC store carries beside its description and two comments
     * (0: none, the default); shows what a claim's write costs over a task's text.
     */
    @Param({"0"})
    public int textKb;

    private BenchDatabase fresh;
    private ClaimRun run;

    /**
     * Creates the database and the target.
     *
     * @param params the benchmark's parameters (for the thread count)
     */
    @Setup(Level.Trial)
    public void openDatabase(BenchmarkParams params) {
        BenchDatabase.Kind kind = BenchDatabase.Kind.of(database);
        fresh = BenchDatabase.create(kind, "claim", params.getThreads());
        ClaimTarget target;
        try {
            target = switch (implementation) {
                case "taskagent", "taskagent" + BenchStore.NO_FEED ->
                    new StoreClaimTarget(
                            BenchStore.jdbcStore(fresh, implementation.endsWith(BenchStore.NO_FEED)),
                            new JdbcStoreLoader(fresh.dataSource(), "claim", textKb));
                case "floor" -> FloorClaimTarget.create(fresh);
                default ->
                    throw new IllegalArgumentException("Unknown implementation '" + implementation
                            + "'; use taskagent, taskagent-nofeed or floor");
            };
        } catch (RuntimeException e) {
            // JMH runs no tear-down after a failed set-up: drop the database here.
            fresh.close();
            throw e;
        }
        run = new ClaimRun(target, assignees, params.getThreads(), expectedClaimsPerSecond(kind));
    }

    /** Generous guesses for the first iteration: a few times each database's claims/s target. */
    private static double expectedClaimsPerSecond(BenchDatabase.Kind kind) {
        return switch (kind) {
            case H2 -> 12_000;
            case POSTGRES -> 6_000;
            case MARIADB -> 3_000;
        };
    }

    /** Starts an iteration (the workers stock the queue themselves, in their own set-up). */
    @Setup(Level.Iteration)
    public void startIteration() {
        run.startIteration();
    }

    /** Closes the pool and drops the database. */
    @TearDown(Level.Trial)
    public void dropDatabase() {
        try {
            run.close();
        } finally {
            fresh.close();
        }
    }

    /** A worker thread. Its one public field is reported by JMH beside the score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Worker {
        /** Claims that came back empty: must stay 0 in measured iterations. */
        public long emptyClaims;

        ClaimRun.Worker worker;

        /**
         * Stocks this thread's share of the queue.
         *
         * @param benchmark the shared state
         * @param thread the thread's parameters
         * @param iteration the coming iteration
         */
        @Setup(Level.Iteration)
        public void stock(DatabaseClaimBenchmark benchmark, ThreadParams thread, IterationParams iteration) {
            worker = benchmark.run.worker(thread.getThreadIndex());
            worker.beforeIteration(iteration);
            emptyClaims = 0;
        }

        /**
         * Fails on a double claim, or on an empty claim in a measured iteration.
         *
         * @param iteration the iteration that ended
         */
        @TearDown(Level.Iteration)
        public void check(IterationParams iteration) {
            worker.afterIteration(iteration);
        }

        void claim(Blackhole blackhole) {
            if (!worker.claim(blackhole)) {
                emptyClaims++;
            }
        }
    }

    /**
     * One claim by one of 1 worker thread.
     *
     * @param worker the thread's state
     * @param blackhole takes the claimed task
     */
    @Benchmark
    @Threads(1)
    public void claim_01_threads(Worker worker, Blackhole blackhole) {
        worker.claim(blackhole);
    }

    /**
     * One claim by one of 4 worker threads.
     *
     * @param worker the thread's state
     * @param blackhole takes the claimed task
     */
    @Benchmark
    @Threads(4)
    public void claim_04_threads(Worker worker, Blackhole blackhole) {
        worker.claim(blackhole);
    }

    /**
     * One claim by one of 16 worker threads.
     *
     * @param worker the thread's state
     * @param blackhole takes the claimed task
     */
    @Benchmark
    @Threads(16)
    public void claim_16_threads(Worker worker, Blackhole blackhole) {
        worker.claim(blackhole);
    }
}
