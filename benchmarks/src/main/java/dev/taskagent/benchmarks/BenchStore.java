package dev.taskagent.benchmarks;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;

/**
 * A taskagent store for one benchmark trial: in memory, or the JDBC store on a fresh {@link BenchDatabase}
 * that is dropped on close.
 */
final class BenchStore implements AutoCloseable {
    /** The suffix of a store name that opens the JDBC store without its event feed. */
    static final String NO_FEED = "-nofeed";

    private final TaskStore store;
    private final BenchDatabase database;
    private final JdbcStoreLoader loader;

    private BenchStore(TaskStore store, BenchDatabase database) {
        this.store = store;
        this.database = database;
        this.loader = database == null ? null : new JdbcStoreLoader(database.dataSource(), "bench");
    }

    /**
     * Opens a store.
     *
     * @param name {@code inmemory}, {@code h2}, {@code postgres} or {@code mariadb}; a database name with
     *     {@code -nofeed} appended ({@code h2-nofeed}) opens the JDBC store without its event feed, to
     *     measure what the feed costs
     * @param purpose a short word for the database's name
     * @param poolSize the connection pool's size
     * @return the store, empty
     */
    static BenchStore open(String name, String purpose, int poolSize) {
        if (name.equals("inmemory")) {
            return new BenchStore(new InMemoryTaskStore(), null);
        }
        boolean withoutFeed = name.endsWith(NO_FEED);
        String kind = withoutFeed ? name.substring(0, name.length() - NO_FEED.length()) : name;
        BenchDatabase database = BenchDatabase.create(BenchDatabase.Kind.of(kind), purpose, poolSize);
        try {
            return new BenchStore(jdbcStore(database, withoutFeed), database);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * Opens the JDBC store on a benchmark database.
     *
     * @param database the database
     * @param withoutFeed whether to leave the event feed out (no event row per change)
     * @return the store
     */
    static JdbcTaskStore jdbcStore(BenchDatabase database, boolean withoutFeed) {
        JdbcTaskStore.Builder builder = JdbcTaskStore.builder(database.dataSource());
        if (withoutFeed) {
            builder.withoutEventFeed();
        }
        return builder.build();
    }

    /** @return the store */
    TaskStore store() {
        return store;
    }

    /** @return a loader for the store's tables, or null for the in-memory store */
    JdbcStoreLoader loader() {
        return loader;
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
