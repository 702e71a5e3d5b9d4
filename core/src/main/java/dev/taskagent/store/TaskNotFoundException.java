package dev.taskagent.store;

/** A write named a task id the store does not hold (TS-4.4); nothing was written. */
public final class TaskNotFoundException extends TaskStoreException {
    private static final long serialVersionUID = 1L;

    private final long taskId;

    /**
     * Creates the exception.
     *
     * @param taskId the id that was not found
     */
    public TaskNotFoundException(long taskId) {
        super("Task " + taskId + " not found");
        this.taskId = taskId;
    }

    /** @return the id that was not found */
    public long taskId() {
        return taskId;
    }
}
