package dev.taskagent.queue;

import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.TaskStatus;
import java.util.Objects;

/**
 * One claim to end in {@link TaskQueue#completeAll(String, java.util.List)}.
 *
 * @param taskId the task
 * @param attempt the claim's attempt, {@link dev.taskagent.task.Task#attempt()} of the claimed task
 * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
 * @param comment what was done, or why it failed; null for none
 */
public record Completion(long taskId, int attempt, TaskStatus outcome, String comment) {

    /**
     * Checks the arguments.
     *
     * @param taskId the task; positive
     * @param attempt the claim's attempt; at least 1
     * @param outcome success or failed
     * @param comment null, or a text that is not blank
     * @throws IllegalArgumentException if an argument is out of range or the outcome is not terminal
     */
    public Completion {
        StoreArguments.taskId(taskId);
        Leases.attempt(attempt);
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isOutcome()) {
            throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName()
                    + "; use release to give the task back");
        }
        if (comment != null) {
            StoreArguments.text(comment, "comment");
        }
    }

    /**
     * A completion with success and no comment.
     *
     * @param taskId the task
     * @param attempt the claim's attempt
     * @return the completion
     */
    public static Completion success(long taskId, int attempt) {
        return new Completion(taskId, attempt, TaskStatus.SUCCESS, null);
    }
}
