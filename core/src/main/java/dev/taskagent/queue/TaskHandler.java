package dev.taskagent.queue;

import dev.taskagent.task.Task;

/**
 * What a {@link TaskWorker} does with each task it claims. Returning normally completes the task with
 * success; throwing ends the attempt: the task goes back to the queue while it has attempts left, and fails
 * as a dead letter after its last.
 */
@FunctionalInterface
public interface TaskHandler {
    /**
     * Works one claimed task. Runs on one of the worker's threads; the worker renews the claim's lease while
     * it runs. Check {@link Thread#isInterrupted()} in long work: the worker interrupts a handler whose claim
     * was lost or that outlives the worker's drain timeout.
     *
     * @param task the claimed task, running, with its comments and links
     * @throws Exception to fail this attempt; its message is written in the task's comment
     */
    void handle(Task task) throws Exception;
}
