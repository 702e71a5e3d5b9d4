package dev.taskagent.extraction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SessionLocksTest {
    private final SessionLocks locks = new SessionLocks();

    @Test
    void aSecondRunOfTheSameSessionWaitsForTheFirstAndTheMapEmptiesAfterwards() throws Exception {
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        Thread first = new Thread(() -> locks.withLock("s", () -> {
            order.add("first started");
            firstInside.countDown();
            await(releaseFirst);
            order.add("first ended");
            return null;
        }));
        Thread second = new Thread(() -> locks.withLock("s", () -> order.add("second started")));
        first.start();
        assertThat(firstInside.await(10, TimeUnit.SECONDS)).isTrue();
        second.start();
        waitUntilBlocked(second);

        assertThat(order).containsExactly("first started");
        releaseFirst.countDown();
        first.join(10_000);
        second.join(10_000);

        assertThat(order).containsExactly("first started", "first ended", "second started");
        assertThat(locks.activeSessions()).isZero();
    }

    @Test
    void runsOfDifferentSessionsDoNotWaitForEachOther() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch firstInside = new CountDownLatch(1);
        Thread first = new Thread(() -> locks.withLock("a", () -> {
            firstInside.countDown();
            await(releaseFirst);
            return null;
        }));
        first.start();
        assertThat(firstInside.await(10, TimeUnit.SECONDS)).isTrue();

        // On another thread with a deadline, so that a regression fails instead of hanging the build.
        String result = CompletableFuture.supplyAsync(() -> locks.withLock("b", () -> "ran while a was busy"))
                .get(10, TimeUnit.SECONDS);

        assertThat(result).isEqualTo("ran while a was busy");
        releaseFirst.countDown();
        first.join(10_000);
    }

    @Test
    void aRunStartedFromInsideARunOfTheSameSessionIsRefusedInsteadOfInterleaving() {
        assertThatThrownBy(() -> locks.withLock("a", () -> locks.withLock("a", () -> "nested")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("A run of session 'a' was started from inside a run of the same session");
        assertThat(locks.activeSessions()).isZero();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void waitUntilBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (thread.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("thread never blocked; state " + thread.getState());
            }
            Thread.onSpinWait();
        }
    }
}
