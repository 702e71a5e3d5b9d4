package dev.taskagent.store;

/**
 * The connection to the storage was lost while a unit of work committed: the database may have committed
 * it or rolled it back, and the store could not find out which. Read what the unit of work changed before
 * running it again; running a change again that did commit may be refused (a task completed twice) or
 * may apply twice (a comment added twice).
 *
 * <p>A claim is looked for after such a failure and handed to its claimer when it did commit; this
 * exception reaches the claimer only when the lookup could not tell either, and the task then comes back
 * when its lease expires.
 */
public final class CommitOutcomeUnknownException extends TaskStoreException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was being committed, where, and what the database said
     * @param cause the storage's own exception
     */
    public CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
