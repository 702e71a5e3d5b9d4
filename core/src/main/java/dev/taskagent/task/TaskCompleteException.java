package dev.taskagent.task;

/**
 * A task could not be moved because it is complete ({@code success} or {@code failed}); nothing was
 * written.
 *
 * <p>Its message is the {@code move_task} error text: {@code Task 7 is complete and cannot be
 * transferred}.
 */
public final class TaskCompleteException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The task's terminal status: {@code SUCCESS} or {@code FAILED}. */
    private final TaskStatus status;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     * @param status its terminal status
     */
    public TaskCompleteException(long taskId, TaskStatus status) {
        super(taskId, "Task " + taskId + " is complete and cannot be transferred");
        this.status = status;
    }

    /** @return the task's status: {@code SUCCESS} or {@code FAILED} */
    public TaskStatus status() {
        return status;
    }
}
