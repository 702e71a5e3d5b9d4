package dev.taskagent.queue;

/**
 * A task could not be moved because it is archived; nothing was written.
 *
 * <p>An archived task is out of every queue: handing it over would put it where no {@code signup} can
 * find it, so the move is refused. Its message is {@code Task 7 is archived and cannot be transferred}.
 */
public final class TaskArchivedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long taskId;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     */
    public TaskArchivedException(long taskId) {
        super("Task " + taskId + " is archived and cannot be transferred");
        this.taskId = taskId;
    }

    /** @return the task's id */
    public long taskId() {
        return taskId;
    }
}
