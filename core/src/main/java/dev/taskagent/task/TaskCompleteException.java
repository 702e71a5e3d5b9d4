package dev.taskagent.task;

/**
 * A task could not be moved or cancelled because it has ended ({@code success}, {@code failed} or {@code
 * cancelled}); nothing was written.
 *
 * <p>Its message is the {@code move_task} error text: {@code Task 7 is complete and cannot be
 * transferred}.
 */
public final class TaskCompleteException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The task's terminal status. */
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

    /**
     * Creates the exception for another action than a move.
     *
     * @param taskId the task
     * @param status its terminal status
     * @param action what could not be done, as in "cannot be {@code cancelled}"
     */
    public TaskCompleteException(long taskId, TaskStatus status, String action) {
        super(taskId, "Task " + taskId + " has ended (" + status.wireName() + ") and cannot be " + action);
        this.status = status;
    }

    /** @return the task's status: {@code SUCCESS}, {@code FAILED} or {@code CANCELLED} */
    public TaskStatus status() {
        return status;
    }
}
