package dev.taskagent.task;

import dev.taskagent.TaskAgentException;

/**
 * An operation on a task was refused because of the task's state (it does not exist, changed
 * concurrently, is held by another agent, is complete or archived, or the caller's claim on it was lost);
 * nothing was written. The message says
 * why in words a person or a model can act on (the queue's tools return it as their error text).
 *
 * <p>Sealed: catch this type to handle every refusal at once, or a subtype for one of them.
 */
public abstract sealed class TaskRefusedException extends TaskAgentException
        permits TaskNotFoundException,
                StaleTaskException,
                TaskNotAssignedException,
                TaskCompleteException,
                TaskArchivedException,
                ClaimLostException,
                TaskGraphException,
                TaskExistsException {
    private static final long serialVersionUID = 1L;

    /** The id of the task the operation was refused for. */
    private final long taskId;

    TaskRefusedException(long taskId, String message) {
        super(message);
        this.taskId = taskId;
    }

    /**
     * Returns the task the operation was refused for.
     *
     * @return the task's id
     */
    public long taskId() {
        return taskId;
    }
}
