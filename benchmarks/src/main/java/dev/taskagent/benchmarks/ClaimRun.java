package dev.taskagent.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * One claim benchmark trial: every worker thread keeps its share of the queue stocked before each
 * iteration and checks after it that no task was claimed twice and, in measurement, that no claim came
 * back empty.
 *
 * <p>The stocking is done by the worker threads themselves, in their own (thread-scoped) iteration
 * set-up: JMH busy-waits all other threads while one thread runs a benchmark-scoped iteration set-up,
 * which on two cores would slow the stocking sixteenfold. A worker that has stocked waits for the others
 * before its first claim. Each worker sizes its share from the fastest
 * rate it has seen (twice what the next iteration could take) and makes the tasks it claimed pending
 * again, so the tables keep their size from one iteration to the next.
 */
final class ClaimRun implements AutoCloseable {
    private static final double SAFETY_FACTOR = 2.0;
    private static final int MINIMUM_PER_WORKER = 100;

    /**
     * Overrides every claim benchmark's guess of its rate for the first iteration: a smoke run on a busy
     * machine passes a small one ({@code -jvmArgsAppend -Dtaskagent.bench.expectedClaimsPerSecond=2000})
     * to skip stocking for a rate it cannot reach.
     */
    static final String EXPECTED_RATE_PROPERTY = "taskagent.bench.expectedClaimsPerSecond";

    private final ClaimTarget target;
    private final Worker[] workers;
    private volatile Set<Long> claimedThisIteration = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch allStocked = new CountDownLatch(0);
    private volatile int iteration;
    /** The fastest rate any worker has reached: with 16 threads on 2 cores, their shares of the CPU vary. */
    private volatile double fastestWorkerRate;

    /**
     * @param target what to claim from; closed with this run
     * @param assigneeCount 1 (every worker shares one assignee) or more (each worker has its own)
     * @param threads the number of worker threads of the benchmark
     * @param expectedRatePerSecond a generous guess of the claims per second of all threads together, for
     *     the first iteration
     */
    ClaimRun(ClaimTarget target, int assigneeCount, int threads, double expectedRatePerSecond) {
        expectedRatePerSecond =
                Double.parseDouble(System.getProperty(EXPECTED_RATE_PROPERTY, Double.toString(expectedRatePerSecond)));
        if (assigneeCount < 1 || threads < 1) {
            throw new IllegalArgumentException(
                    "assignees and threads must be at least 1, were " + assigneeCount + " and " + threads);
        }
        this.target = target;
        List<String> assignees = Fixtures.assignees(assigneeCount);
        workers = new Worker[threads];
        for (int thread = 0; thread < threads; thread++) {
            workers[thread] = new Worker(assigneesOf(assignees, thread, threads), expectedRatePerSecond / threads);
        }
    }

    /**
     * The assignees a worker thread claims for, in turn: all share one when there is one; with several,
     * each thread takes every {@code threads}-th, so no two threads share an assignee while there are at
     * least as many assignees as threads.
     */
    private static String[] assigneesOf(List<String> assignees, int thread, int threads) {
        if (assignees.size() <= threads) {
            return new String[] {assignees.get(thread % assignees.size())};
        }
        return IntStream.range(0, assignees.size())
                .filter(index -> index % threads == thread)
                .mapToObj(assignees::get)
                .toArray(String[]::new);
    }

    private synchronized void recordFastest(double rate) {
        if (rate > fastestWorkerRate) {
            fastestWorkerRate = rate;
        }
    }

    /** Starts an iteration: cheap, because JMH busy-waits the other threads meanwhile. */
    void startIteration() {
        iteration++;
        claimedThisIteration = ConcurrentHashMap.newKeySet();
        allStocked = new CountDownLatch(workers.length);
    }

    /**
     * The worker of a thread.
     *
     * @param threadIndex JMH's index of the thread, 0-based
     * @return its worker
     */
    Worker worker(int threadIndex) {
        return workers[threadIndex];
    }

    @Override
    public void close() {
        target.close();
    }

    @Override
    public String toString() {
        return target.toString();
    }

    /** What one benchmark thread does: claims for its assignees in turn and records what it got. */
    final class Worker {
        private final String[] assignees;
        private final int[] stocked;
        private double fastestRatePerSecond;
        private int boost = 1;
        private int next;
        private long[] ids = new long[4096];
        private int count;
        private long emptyClaims;
        private long iterationStart;
        private long firstEmptyClaim;
        private boolean released;

        private Worker(String[] assignees, double expectedRatePerSecond) {
            this.assignees = assignees;
            this.stocked = new int[assignees.length];
            this.fastestRatePerSecond = expectedRatePerSecond;
        }

        /**
         * Makes the tasks this worker claimed pending again and adds tasks until its share of the queue
         * covers twice the fastest rate seen.
         *
         * @param params the coming iteration
         */
        void beforeIteration(IterationParams params) {
            target.recycle(ids, count);
            double seconds = params.getTime().convertTo(TimeUnit.MILLISECONDS) / 1000.0;
            // Sized from the fastest worker, not from this one alone: how the scheduler shares two cores
            // among 16 threads changes from one iteration to the next, and a worker that was slow in the
            // last one may be the fastest in the next.
            double rate = Math.max(fastestRatePerSecond, fastestWorkerRate);
            double expected = rate * boost * seconds * SAFETY_FACTOR;
            int perAssignee = (int) Math.ceil(Math.max(MINIMUM_PER_WORKER, expected) / assignees.length);
            for (int index = 0; index < assignees.length; index++) {
                int missing = perAssignee - stocked[index];
                if (missing > 0) {
                    target.addTasks(assignees[index], missing);
                    stocked[index] += missing;
                }
            }
            count = 0;
            emptyClaims = 0;
            firstEmptyClaim = 0;
            released = false;
            allStocked.countDown();
        }

        /**
         * Waits until every worker has stocked its share. JMH lets a thread that is ready run the benchmark
         * while it waits for the others; here that would drain the queue while the others still stock.
         */
        private void awaitStock() {
            try {
                allStocked.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the other workers to stock", e);
            }
            released = true;
            iterationStart = System.nanoTime();
        }

        /**
         * Claims once for the next of this worker's assignees.
         *
         * @param blackhole takes the claimed task
         * @return true if a task was claimed, false if the claim came back empty
         */
        boolean claim(Blackhole blackhole) {
            if (!released) {
                awaitStock();
            }
            String assignee = assignees[next];
            next = next + 1 == assignees.length ? 0 : next + 1;
            long id = target.claim(assignee, blackhole);
            if (id < 0) {
                if (emptyClaims++ == 0) {
                    firstEmptyClaim = System.nanoTime();
                }
                return false;
            }
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, ids.length * 2);
            }
            ids[count++] = id;
            return true;
        }

        /**
         * Checks this worker's iteration: fails when a task it claimed was also claimed by another
         * worker or by itself (always), or when a claim came back empty in a measured iteration (the
         * figure would count cheap empty claims).
         *
         * @param params the iteration that ended
         * @throws IllegalStateException when a check fails, which makes JMH report the benchmark as failed
         */
        void afterIteration(IterationParams params) {
            // Up to the first empty claim the rate is a real one even when the stock ran out, but it may be
            // the slow rate of code not yet compiled: then the next stock (only) is four times larger.
            long end = emptyClaims > 0 ? firstEmptyClaim : System.nanoTime();
            double seconds = Math.max(1e-3, (end - iterationStart) / 1e9);
            fastestRatePerSecond = Math.max(fastestRatePerSecond, count / seconds);
            recordFastest(fastestRatePerSecond);
            boost = emptyClaims > 0 ? 4 : 1;
            Set<Long> claimed = claimedThisIteration;
            for (int index = 0; index < count; index++) {
                if (!claimed.add(ids[index])) {
                    throw new IllegalStateException("Double claim: task " + ids[index] + " was claimed more than"
                            + " once in iteration " + iteration + " on " + target + "; a claim must hand each"
                            + " task to exactly one caller (TS-7.2)");
                }
            }
            if (emptyClaims > 0) {
                String message = "The queue ran dry: " + emptyClaims + " of " + (count + emptyClaims)
                        + " claims of a worker came back empty in " + params.getType() + " iteration " + iteration
                        + " on " + target + " (its stock covered twice the fastest rate it had seen)";
                if (params.getType() == IterationType.MEASUREMENT) {
                    throw new IllegalStateException(message + "; the figure would count empty claims, so it is"
                            + " discarded: rerun, or raise the expected rate of the benchmark");
                }
                System.err.println("WARNING: " + message + "; the next iterations get a larger stock");
            }
        }
    }
}
