package dev.taskagent.store;

import dev.taskagent.TaskAgentException;

/**
 * A failure of the storage behind a {@link TaskStore} (the database is unreachable, a statement failed);
 * the unit of work that met it was rolled back, except for a {@link CommitOutcomeUnknownException}, whose
 * commit may have happened. A refusal because of a task's state is a {@link
 * dev.taskagent.task.TaskRefusedException} instead.
 */
public class TaskStoreException extends TaskAgentException {
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
