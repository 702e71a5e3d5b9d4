package dev.taskagent.queue;

import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.NewTask;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a task waits before its next attempt, after an attempt that ended without success while attempts
 * remain: a {@linkplain TaskQueue#retry(long, String, int, String) retry}, a lease that expired, a {@link
 * TaskWorker} handler that threw. The task is pending again at once, but no claim hands it out before the
 * delay has passed (on the store's clock).
 *
 * <p>The queue's default is {@link #exponential(Duration, Duration) exponential} from 10 seconds, doubling,
 * capped at one hour, with jitter. Implementations must be thread-safe; the factories' are.
 */
@FunctionalInterface
public interface Backoff {

    /** The queue's default policy: 10 s after the first attempt, doubling, at most 1 h, with jitter. */
    Backoff DEFAULT = exponential(Duration.ofSeconds(10), Duration.ofHours(1));

    /**
     * Returns how long the task waits after an attempt that did not succeed.
     *
     * @param attempt the attempt that ended, 1 for the first
     * @return the delay; zero for none, never negative, at most {@link NewTask#MAX_SCHEDULE_AHEAD}
     */
    Duration delay(int attempt);

    /**
     * No wait: the task may be claimed again at once (the behaviour before backoff existed).
     *
     * @return the policy
     */
    static Backoff none() {
        return attempt -> Duration.ZERO;
    }

    /**
     * The same wait after every attempt.
     *
     * @param delay the wait; zero or more, at most {@link NewTask#MAX_SCHEDULE_AHEAD}
     * @return the policy
     * @throws IllegalArgumentException if {@code delay} is out of range
     */
    static Backoff fixed(Duration delay) {
        Duration checked = Leases.delay(delay, "delay");
        return attempt -> checked;
    }

    /**
     * A wait that doubles with every attempt: {@code first} after the first, twice that after the second,
     * and so on, never more than {@code max}. Each wait is cut by a random part of up to a quarter (jitter),
     * so that tasks that failed together do not come back together.
     *
     * @param first the wait after the first attempt; more than zero
     * @param max the longest wait; at least {@code first}, at most {@link NewTask#MAX_SCHEDULE_AHEAD}
     * @return the policy
     * @throws IllegalArgumentException if a duration is out of range
     */
    static Backoff exponential(Duration first, Duration max) {
        Leases.delay(first, "first");
        Leases.delay(max, "max");
        if (first.isZero()) {
            throw new IllegalArgumentException("first must be more than zero; use Backoff.none() for no wait");
        }
        if (max.compareTo(first) < 0) {
            throw new IllegalArgumentException("max must be at least first (" + first + "), was " + max);
        }
        long firstMillis = Math.max(1, first.toMillis());
        long maxMillis = max.toMillis();
        return attempt -> {
            if (attempt < 1) {
                throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
            }
            // 2^(attempt-1) times first, without overflowing: past 2^40 every wait is the maximum anyway.
            int doublings = Math.min(attempt - 1, 40);
            long millis = firstMillis > (maxMillis >> doublings) ? maxMillis : firstMillis << doublings;
            long jitter = ThreadLocalRandom.current().nextLong(millis / 4 + 1);
            return Duration.ofMillis(millis - jitter);
        };
    }
}
