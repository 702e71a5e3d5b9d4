package dev.taskagent.store;

import dev.taskagent.task.Task;
import java.util.Objects;

/**
 * A task whose claim's lease expired and that a reclaim took back: pending again for its assignee, or
 * failed when it had used its attempts (a dead letter).
 *
 * <p>Immutable and thread-safe.
 *
 * @param task the task after the reclaim, with the comment that says what happened
 * @param expiredAttempt the attempt whose lease expired
 * @param outcome what the reclaim did
 */
public record ReclaimedTask(Task task, int expiredAttempt, Outcome outcome) {

    /** What a reclaim did with a task whose lease expired. */
    public enum Outcome {
        /** Back to pending in its assignee's queue, for another attempt. */
        REQUEUED,
        /** Failed: it had used all its attempts. */
        DEAD_LETTERED
    }

    /**
     * Checks the invariants.
     *
     * @param task the task after the reclaim; not null
     * @param expiredAttempt the attempt whose lease expired; not negative
     * @param outcome what the reclaim did; not null
     */
    public ReclaimedTask {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(outcome, "outcome");
        if (expiredAttempt < 0) {
            throw new IllegalArgumentException("expiredAttempt must not be negative, was " + expiredAttempt);
        }
    }
}
