package dev.taskagent.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Real threads for the conformance kit: workers released together by a start barrier, and every wait
 * bounded by a deadline, so that a deadlocked store fails a test instead of hanging the build.
 *
 * <p>Thread-safe (stateless).
 */
final class KitThreads {
    private KitThreads() {}

    /** The body of one worker. */
    @FunctionalInterface
    interface Worker<T> {
        /**
         * Does the worker's part.
         *
         * @param index the worker's number, 0 to count - 1
         * @return what the worker found
         * @throws Exception anything; it fails the test
         */
        T run(int index) throws Exception;
    }

    /**
     * Runs workers on their own threads, released together by a barrier, and waits for all of them.
     *
     * @param count how many workers
     * @param what what they do, for thread names and failure messages
     * @param deadline how long to wait for all of them together
     * @param worker the body
     * @param <T> what each worker returns
     * @return the workers' results, by index
     * @throws AssertionError if a worker failed or they did not finish in time
     */
    static <T> List<T> runTogether(int count, String what, Duration deadline, Worker<T> worker) {
        AtomicInteger threadNumber = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(count, runnable -> {
            Thread thread = new Thread(runnable, "taskstore-kit-" + what + "-" + threadNumber.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        });
        CyclicBarrier start = new CyclicBarrier(count);
        long end = System.nanoTime() + deadline.toNanos();
        try {
            List<Future<T>> futures = new ArrayList<>(count);
            for (int index = 0; index < count; index++) {
                int workerIndex = index;
                futures.add(pool.submit(() -> {
                    start.await(remainingNanos(end), TimeUnit.NANOSECONDS);
                    return worker.run(workerIndex);
                }));
            }
            List<T> results = new ArrayList<>(count);
            for (Future<T> future : futures) {
                results.add(await(future, end, what, deadline));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs one body on another thread and waits for it with a deadline.
     *
     * @param what what the body does, for the thread name and failure messages
     * @param deadline how long to wait
     * @param body the body
     * @param <T> its result type
     * @return what the body returned
     * @throws AssertionError if the body failed or did not return in time
     */
    static <T> T callOnOtherThread(String what, Duration deadline, Callable<T> body) {
        return runTogether(1, what, deadline, index -> body.call()).get(0);
    }

    /**
     * Waits until a condition holds or a time has passed, without failing: for hand-shakes where the
     * other side may legitimately be unobservable (blocked inside a database driver, say).
     *
     * @param condition what to wait for
     * @param atMost how long to wait at most
     * @return whether the condition held
     */
    static boolean awaitQuietly(BooleanSupplier condition, Duration atMost) {
        long end = System.nanoTime() + atMost.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end >= 0) {
                return false;
            }
            Thread.onSpinWait();
            Thread.yield();
        }
        return true;
    }

    /**
     * Tells whether a thread has finished or is parked or blocked (on a lock, a monitor, a pool).
     *
     * @param thread the thread
     * @return true when it can make no progress on its own right now
     */
    static boolean finishedOrWaiting(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.TERMINATED
                || state == Thread.State.WAITING
                || state == Thread.State.TIMED_WAITING
                || state == Thread.State.BLOCKED;
    }

    private static <T> T await(Future<T> future, long end, String what, Duration deadline) {
        try {
            return future.get(remainingNanos(end), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(
                    what + ": the threads did not finish within " + deadline.toSeconds()
                            + " s; is the store deadlocked, or does a loop never end?",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(what + ": interrupted while waiting for the threads", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof AssertionError assertion) {
                throw assertion;
            }
            throw new AssertionError(what + ": a thread failed: " + cause, cause);
        }
    }

    private static long remainingNanos(long end) {
        return Math.max(0, end - System.nanoTime());
    }
}
