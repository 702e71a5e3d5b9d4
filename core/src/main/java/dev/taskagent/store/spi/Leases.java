package dev.taskagent.store.spi;

import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The rules of leases that every store applies alike: the bounds of a lease and of a reclaim's batch,
 * and the comment a reclaim leaves on each task it takes back.
 *
 * <p>Thread-safe (stateless).
 */
public final class Leases {
    /** The shortest lease a claim may ask for. */
    public static final Duration MIN_LEASE = Duration.ofMillis(1);

    /** The longest lease a claim may ask for; a longer piece of work renews its lease with heartbeats. */
    public static final Duration MAX_LEASE = Duration.ofDays(1);

    /** The author of the comments a reclaim leaves. */
    public static final String REAPER = "taskagent";

    /** The most tasks one {@code claimUpTo} may claim. */
    public static final int MAX_CLAIM_BATCH = dev.taskagent.store.TaskStore.MAX_CLAIM_BATCH;

    private Leases() {}

    /**
     * Checks a lease duration.
     *
     * @param lease the duration
     * @return the duration
     * @throws NullPointerException if {@code lease} is null
     * @throws IllegalArgumentException if it is shorter than {@link #MIN_LEASE} or longer than {@link
     *     #MAX_LEASE}
     */
    public static Duration lease(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.compareTo(MIN_LEASE) < 0 || lease.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException(
                    "lease must be between 1 ms and 1 day (renew a longer one with heartbeats), was " + lease);
        }
        return lease;
    }

    /**
     * Checks how long a task waits before it may be claimed again (a backoff, a {@code delay}).
     *
     * @param delay the wait
     * @param name the argument's name, for the message
     * @return the wait
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if it is negative or longer than {@link NewTask#MAX_SCHEDULE_AHEAD}
     */
    public static Duration delay(Duration delay, String name) {
        Objects.requireNonNull(delay, name);
        if (delay.isNegative() || delay.compareTo(NewTask.MAX_SCHEDULE_AHEAD) > 0) {
            throw new IllegalArgumentException(
                    name + " must be between 0 and " + NewTask.MAX_SCHEDULE_AHEAD.toDays() + " days, was " + delay);
        }
        return delay;
    }

    /**
     * Checks how many tasks one {@code claimUpTo} may claim.
     *
     * @param limit the limit
     * @return the limit
     * @throws IllegalArgumentException if it is not between 1 and {@link #MAX_CLAIM_BATCH}
     */
    public static int claimLimit(int limit) {
        if (limit < 1 || limit > MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_CLAIM_BATCH + ", was " + limit);
        }
        return limit;
    }

    /**
     * Checks the arguments of a batch completion ({@code TaskTransaction.completeHeld}).
     *
     * @param agent the agent that holds the claims
     * @param attempts task ids mapped to their claims' attempts
     * @param outcome the outcome for all of them
     * @throws NullPointerException if an argument, a key or a value is null
     * @throws IllegalArgumentException if the agent is blank, the outcome not terminal, an id or attempt out of
     *     range, or there are more than {@link #MAX_CLAIM_BATCH} claims
     */
    public static void completions(String agent, Map<Long, Integer> attempts, TaskStatus outcome) {
        StoreArguments.name(agent, "agent");
        Objects.requireNonNull(attempts, "attempts");
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isOutcome()) {
            throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName());
        }
        if (attempts.size() > MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException(
                    "at most " + MAX_CLAIM_BATCH + " completions at once, were " + attempts.size());
        }
        attempts.forEach((taskId, attempt) -> {
            StoreArguments.taskId(Objects.requireNonNull(taskId, "task id"));
            attempt(Objects.requireNonNull(attempt, "attempt"));
        });
    }

    /**
     * Checks the attempt a worker names for its claim.
     *
     * @param attempt the attempt
     * @return the attempt
     * @throws IllegalArgumentException if it is not positive
     */
    public static int attempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1 (the claim's attempt), was " + attempt);
        }
        return attempt;
    }

    /**
     * Checks the number of attempts a task may use.
     *
     * @param maxAttempts the number
     * @return the number
     * @throws IllegalArgumentException if it is not between 1 and {@link dev.taskagent.task.NewTask#MAX_ATTEMPTS_LIMIT}
     */
    public static int maxAttempts(int maxAttempts) {
        if (maxAttempts < 1 || maxAttempts > dev.taskagent.task.NewTask.MAX_ATTEMPTS_LIMIT) {
            throw new IllegalArgumentException("maxAttempts must be between 1 and "
                    + dev.taskagent.task.NewTask.MAX_ATTEMPTS_LIMIT + ", was " + maxAttempts);
        }
        return maxAttempts;
    }

    /**
     * Returns the number of attempts a task may use: its own limit, or the default.
     *
     * @param task the task
     * @param defaultMaxAttempts the queue's default
     * @return the limit
     */
    public static int maxAttemptsOf(Task task, int defaultMaxAttempts) {
        return task.maxAttempts() > 0 ? task.maxAttempts() : defaultMaxAttempts;
    }

    /**
     * Tells what a reclaim does with a task whose lease expired.
     *
     * @param attempt the attempt whose lease expired
     * @param maxAttempts the task's limit
     * @return {@code REQUEUED} while attempts remain, else {@code DEAD_LETTERED}
     */
    public static ReclaimedTask.Outcome outcome(int attempt, int maxAttempts) {
        return attempt < maxAttempts ? ReclaimedTask.Outcome.REQUEUED : ReclaimedTask.Outcome.DEAD_LETTERED;
    }

    /**
     * Returns the comment a reclaim leaves on a task, so that its next worker (or whoever reads a dead
     * letter) knows that an earlier attempt may have done part of the work.
     *
     * @param attempt the attempt whose lease expired
     * @param maxAttempts the task's limit
     * @param expiredAt when the lease ran out
     * @return the comment's text
     */
    public static String reclaimComment(int attempt, int maxAttempts, Instant expiredAt) {
        String lost = "The lease of attempt " + attempt + " of " + maxAttempts + " expired at " + expiredAt
                + " without a heartbeat or completion";
        return outcome(attempt, maxAttempts) == ReclaimedTask.Outcome.REQUEUED
                ? lost + "; the task is back in the queue. The earlier attempt may have done part of the work:"
                        + " check before repeating side effects."
                : lost + "; no attempts are left, so the task failed (dead letter).";
    }
}
