package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.SynchronousQueue;
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

/**
 * How late a task with a not-before time starts: an idle {@link TaskWorker} (one handler thread, its feed
 * followed, the default poll interval of one second), a task created due {@value #AHEAD_MS} ms ahead, and the
 * time from that due time until its handler runs. The score is the whole wait, so the lateness is the score less
 * {@value #AHEAD_MS} ms. The worker learns of the task from the feed (PostgreSQL: a notification; H2 and
 * MariaDB: the feed's poll), asks the store when the task is due and sleeps until then; it must not poll in a
 * busy loop, which {@code cpuMsPerTask} (the process's CPU time per task) would show.
 */
@Fork(1)
@State(Scope.Benchmark)
public class NotBeforeBenchmark {
    /** How far ahead each task is due. */
    static final long AHEAD_MS = 500;

    private static final String AGENT = "scheduled";

    /** The database: {@code postgres}, {@code mariadb} or {@code h2} (a file). */
    @Param({"postgres", "mariadb", "h2"})
    public String database;

    private BenchDatabase bench;
    private JdbcTaskStore store;
    private TaskQueue queue;
    private TaskWorker worker;
    private final SynchronousQueue<Long> started = new SynchronousQueue<>();

    /** The process's CPU time over the iteration, per task (a busy loop would show here). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        /** Total CPU milliseconds of the process spent in the iteration, divided by the tasks run. */
        public double cpuMsPerTask;

        private long startNanos;
        private long tasks;

        /** Reads the process's CPU time at the start of an iteration. */
        @Setup(Level.Iteration)
        public void start() {
            startNanos = cpuNanos();
            tasks = 0;
            cpuMsPerTask = 0;
        }

        /** Counts the tasks and divides. */
        @TearDown(Level.Iteration)
        public void stop() {
            cpuMsPerTask = tasks == 0 ? 0 : (cpuNanos() - startNanos) / 1e6 / tasks;
        }

        private static long cpuNanos() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }
    }

    /** Opens the store and starts the idle worker. */
    @Setup(Level.Trial)
    public void open() {
        bench = BenchDatabase.create(BenchDatabase.Kind.of(database), "notbefore", 4);
        store = BenchStore.jdbcStore(bench, false);
        queue = TaskQueue.builder(store).build();
        worker = TaskWorker.builder(queue)
                .agent(AGENT)
                .concurrency(1)
                .handler(task -> started.put(System.nanoTime()))
                .start();
    }

    /**
     * Creates a task due {@value #AHEAD_MS} ms from now and waits until its handler runs.
     *
     * @param cpu the CPU counter
     * @return the task's lateness in microseconds (negative if it started early)
     * @throws InterruptedException if interrupted
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1, time = 3)
    @Measurement(iterations = 3, time = 10)
    @Threads(1)
    public long dueIn500ms(Cpu cpu) throws InterruptedException {
        long created = System.nanoTime();
        queue.create(queue.newTask("Send the reminder")
                .assignee(AGENT)
                .notBefore(Instant.now().plusMillis(AHEAD_MS))
                .build());
        Long handled = started.poll(30, TimeUnit.SECONDS);
        if (handled == null) {
            throw new IllegalStateException("the task did not start within 30 s of its due time");
        }
        long lateness = TimeUnit.NANOSECONDS.toMicros(handled - created) - AHEAD_MS * 1_000;
        if (lateness < -Duration.ofMillis(1).toNanos() / 1_000) {
            throw new IllegalStateException("the task started " + -lateness + " µs before its due time");
        }
        cpu.tasks++;
        return lateness;
    }

    /** Stops the worker, closes the store and drops the database. */
    @TearDown(Level.Trial)
    public void close() {
        try {
            worker.close();
            store.close();
        } finally {
            bench.close();
        }
    }
}
