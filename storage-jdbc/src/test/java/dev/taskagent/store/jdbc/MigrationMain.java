package dev.taskagent.store.jdbc;

import dev.taskagent.task.NewTask;

/**
 * A process of {@link MigrationProcessTest}: opens the store on a URL, which creates or migrates the schema,
 * then adds a task and prints {@code OPENED <task id>}.
 *
 * <p>Arguments: JDBC URL, session id.
 */
public final class MigrationMain {
    private MigrationMain() {}

    /**
     * Opens the store, adds a task and exits.
     *
     * @param args URL, session id
     */
    public static void main(String[] args) {
        try (JdbcTaskStore store = JdbcTaskStore.open(args[0])) {
            long id = store.inTransaction(
                    tx -> tx.appendTask(NewTask.of(args[1], "opened")).id());
            System.out.println("OPENED " + id);
        }
    }
}
