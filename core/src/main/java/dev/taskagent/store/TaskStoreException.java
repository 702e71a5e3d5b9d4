package dev.taskagent.store;

/** A failure of the storage behind a {@link TaskStore}; the unit of work that met it was rolled back. */
public class TaskStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, and what to do
     */
    public TaskStoreException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed, and what to do
     * @param cause the storage's own exception
     */
    public TaskStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
