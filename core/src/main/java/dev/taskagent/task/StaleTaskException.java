package dev.taskagent.task;

/**
 * An update expected a version of a task that is no longer current: another transaction changed the task
 * since it was read. Nothing was written; read the task again and decide again.
 */
public final class StaleTaskException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The version the update expected. */
    private final long expectedVersion;
    /** The task's version when the update was refused, or -1 when the store could not tell. */
    private final long actualVersion;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     * @param expectedVersion the version the update expected
     * @param actualVersion the version the task has, or -1 when the store cannot tell
     */
    public StaleTaskException(long taskId, long expectedVersion, long actualVersion) {
        super(
                taskId,
                "Task " + taskId + " changed concurrently: the update expected version " + expectedVersion
                        + (actualVersion >= 0 ? " but the task is at version " + actualVersion : "")
                        + "; read the task again and retry");
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    /** @return the version the update expected */
    public long expectedVersion() {
        return expectedVersion;
    }

    /** @return the task's current version, or -1 when unknown */
    public long actualVersion() {
        return actualVersion;
    }
}
