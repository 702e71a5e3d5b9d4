package dev.taskagent.task;

/** An operation named a task id the store does not hold; nothing was written. */
public final class TaskNotFoundException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param taskId the id that was not found
     */
    public TaskNotFoundException(long taskId) {
        super(taskId, "Task " + taskId + " not found");
    }
}
