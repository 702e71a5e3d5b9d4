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

    /** @return what the source connects to, for messages */
    String description();
}
