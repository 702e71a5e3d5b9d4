package dev.taskagent.benchmarks;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;

/**
 * A taskagent store for one benchmark trial: in memory, or the JDBC store on a fresh {@link BenchDatabase}
 * that is dropped on close.
 */
final class BenchStore implements AutoCloseable {
    private final TaskStore store;
    private final BenchDatabase database;

    private BenchStore(TaskStore store, BenchDatabase database) {
        this.store = store;
        this.database = database;
    }

    /**
     * Opens a store.
     *
     * @param name {@code inmemory}, {@code h2}, {@code postgres} or {@code mariadb}
     * @param purpose a short word for the database's name
     * @param poolSize the connection pool's size
     * @return the store, empty
     */
    static BenchStore open(String name, String purpose, int poolSize) {
        if (name.equals("inmemory")) {
            return new BenchStore(new InMemoryTaskStore(), null);
        }
        BenchDatabase database = BenchDatabase.create(BenchDatabase.Kind.of(name), purpose, poolSize);
        try {
            System.out.println("# Database: " + database.productVersion());
            return new BenchStore(jdbcStore(database), database);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private static TaskStore jdbcStore(BenchDatabase database) {
        throw new UnsupportedOperationException(
                "The JDBC store has not landed yet; " + database + " can only run the floor");
    }

    /** @return the store */
    TaskStore store() {
        return store;
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Override
    public String toString() {
        return database == null ? store.toString() : store + " on " + database;
    }
}
