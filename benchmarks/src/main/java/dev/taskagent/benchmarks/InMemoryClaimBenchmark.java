package dev.taskagent.benchmarks;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
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
 * Claims per second and claim latency of {@link InMemoryTaskStore}, with 1, 4 and 16 worker threads on
 * one shared assignee or on 16 assignees. Each claim is one transaction that returns the task with its
 * two comments and two links. Iterations are short (0.5 s): the store claims hundreds of thousands of
 * tasks a second, every one of them has to be stocked beforehand through the store's API (five writes
 * each), and that stocking, not the measurement, is what takes the time of a trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class InMemoryClaimBenchmark {
    /** A generous guess for the first iteration; later ones are sized from the measured rate. */
    private static final double EXPECTED_CLAIMS_PER_SECOND = 500_000;

    /** 1: every worker claims for the same assignee; 16: the tasks are spread over 16 assignees. */
    @Param({"1", "16"})
    public int assignees;

    private ClaimRun run;

    /**
     * Creates the store.
     *
     * @param params the benchmark's parameters (for the thread count)
     */
    @Setup(Level.Trial)
    public void openStore(BenchmarkParams params) {
        run = new ClaimRun(
                new StoreClaimTarget(new InMemoryTaskStore()),
                assignees,
                params.getThreads(),
                EXPECTED_CLAIMS_PER_SECOND);
    }

    /** Starts an iteration (the workers stock the queue themselves, in their own set-up). */
    @Setup(Level.Iteration)
    public void startIteration() {
        run.startIteration();
    }

    /** Releases the store. */
    @TearDown(Level.Trial)
    public void closeStore() {
        run.close();
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
        public void stock(InMemoryClaimBenchmark benchmark, ThreadParams thread, IterationParams iteration) {
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
