package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStoreException;

/**
 * A task row whose children's column holds no valid document, written there by hand or damaged: every read
 * of the task fails with this, naming the task and the column, and the store repairs nothing on its own.
 * Other tasks are not affected.
 */
final class DamagedTaskException extends TaskStoreException {
    private static final long serialVersionUID = 1L;

    private final long taskId;

    DamagedTaskException(long taskId, String column, String problem) {
        super("Task " + taskId + " cannot be read: its " + column + " column in taskagent_tasks is not the JSON"
                + " array the store writes (" + problem + "). Repair it with SQL, for example UPDATE"
                + " taskagent_tasks SET " + column + " = '" + TaskDocument.EMPTY + "' WHERE id = " + taskId
                + " to clear it");
        this.taskId = taskId;
    }

    /** @return the task that cannot be read */
    long taskId() {
        return taskId;
    }
}
