package dev.taskagent.queue;

import dev.taskagent.task.TaskStatus;

/**
 * A task could not be moved because it is complete ({@code success} or {@code failed}); nothing was
 * written.
 *
 * <p>Its message is the {@code move_task} error text: {@code Task 7 is complete and cannot be
 * transferred}.
 */
public final class TaskCompleteException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long taskId;
    private final TaskStatus status;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     * @param status its terminal status
     */
    public TaskCompleteException(long taskId, TaskStatus status) {
        super("Task " + taskId + " is complete and cannot be transferred");
        this.taskId = taskId;
        this.status = status;
    }

    /** @return the task's id */
    public long taskId() {
        return taskId;
    }

    /** @return the task's status: {@code SUCCESS} or {@code FAILED} */
    public TaskStatus status() {
        return status;
    }
}
