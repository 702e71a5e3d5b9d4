package dev.taskagent.task;

/**
 * A task could not be moved because it is archived; nothing was written.
 *
 * <p>An archived task is out of every queue: handing it over would put it where no {@code signup} can
 * find it, so the move is refused. Its message is {@code Task 7 is archived and cannot be transferred}.
 */
public final class TaskArchivedException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     */
    public TaskArchivedException(long taskId) {
        super(taskId, "Task " + taskId + " is archived and cannot be transferred");
    }
}
