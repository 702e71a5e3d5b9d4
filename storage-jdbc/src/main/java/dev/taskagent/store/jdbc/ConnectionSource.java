package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** Where the store's connections come from: the caller's {@code DataSource}, or a JDBC URL. Thread-safe. */
interface ConnectionSource extends AutoCloseable {

    /** @return a connection for one unit of work */
    Connection acquire() throws SQLException;

    /**
     * Gives a connection back.
     *
     * @param connection what {@link #acquire()} returned
     * @param reusable false when the connection met a failure and should not serve again
     */
    void release(Connection connection, boolean reusable);

    /** Closes what the source opened itself. Idempotent. */
    @Override
    void close();

    /**
     * Tells whether connections go back to a pool that restores their auto-commit mode, as the pools
     * behind a caller's {@code DataSource} do: then a unit of work that switches auto-commit off pays a
     * round trip more when the pool switches it back on.
     *
     * @return true for a caller's {@code DataSource}
     */
    boolean restoresAutoCommit();

    /** @return what the source connects to, for messages */
    String description();
}
