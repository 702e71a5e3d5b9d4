package dev.taskagent.extraction;

import dev.taskagent.task.Task;

/**
 * Learns about tasks that an agent run moved to {@code success} or {@code failed}: the hook a host uses
 * to learn from finished work (store a lesson, notify someone).
 *
 * <p>Called after the iteration that made the change committed, once per task and iteration, on the
 * thread of the run, with the task as it was at that commit. An exception it throws is logged and never
 * breaks the run. Implementations must be thread-safe when the agent runs several sessions at once.
 */
@FunctionalInterface
public interface FinishedTaskHook {
    /**
     * Handles a task that reached success or failed.
     *
     * @param task the task right after the commit; its status is success or failed
     */
    void onTaskFinished(Task task);
}
