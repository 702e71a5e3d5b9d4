package dev.taskagent.store;

import dev.taskagent.task.Task;
import java.util.Objects;

/**
 * What an append that carried a request id did (rules TS-5.5 to TS-5.7 of {@link TaskStore}): it wrote its entry,
 * or the task already held the request id, so that it was a retry of an append that had written (its reply lost,
 * say) and wrote nothing.
 *
 * <p>Immutable and thread-safe.
 *
 * @param task the task after the append; after a replay, the task as it is, unchanged by the call
 * @param replayed true when the request id was known and nothing was written; false when the entry was appended
 */
public record AppendResult(Task task, boolean replayed) {

    /**
     * Checks the task.
     *
     * @param task the task; not null
     * @param replayed whether the append was a replay
     */
    public AppendResult {
        Objects.requireNonNull(task, "task");
    }

    /**
     * The result of an append that wrote its entry.
     *
     * @param task the task after the append
     * @return the result
     */
    public static AppendResult written(Task task) {
        return new AppendResult(task, false);
    }

    /**
     * The result of an append whose request id the task held: nothing written.
     *
     * @param task the task as it is
     * @return the result
     */
    public static AppendResult replayOf(Task task) {
        return new AppendResult(task, true);
    }
}
