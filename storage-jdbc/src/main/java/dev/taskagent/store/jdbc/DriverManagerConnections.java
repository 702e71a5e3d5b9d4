package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Connections opened with {@link DriverManager} from a JDBC URL, kept for reuse: a minimal pool for the
 * URL convenience, so that an embedded H2 store does not reopen its database for every unit of work.
 * One connection stays open for the store's life (an in-memory H2 database lives only while one does).
 * Applications that want a real pool pass a {@code DataSource}.
 */
final class DriverManagerConnections implements ConnectionSource {
    /** Idle connections kept for reuse; more may be open while busy. */
    static final int MAX_IDLE = 8;

    private final String url;
    private final Deque<Connection> idle = new ArrayDeque<>(); // guarded by this
    private Connection keepAlive; // guarded by this
    private boolean closed; // guarded by this

    DriverManagerConnections(String url) throws SQLException {
        this.url = url;
        this.keepAlive = DriverManager.getConnection(url);
    }

    @Override
    public Connection acquire() throws SQLException {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("The JdbcTaskStore on " + description() + " is closed");
            }
            Connection connection = idle.pollFirst();
            if (connection != null) {
                return connection;
            }
        }
        return DriverManager.getConnection(url);
    }

    @Override
    public void release(Connection connection, boolean reusable) {
        synchronized (this) {
            if (reusable && !closed && idle.size() < MAX_IDLE) {
                idle.addFirst(connection);
                return;
            }
        }
        JdbcSupport.closeQuietly(connection);
    }

    @Override
    public void close() {
        Deque<Connection> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
            toClose.add(keepAlive);
            keepAlive = null;
        }
        toClose.forEach(JdbcSupport::closeQuietly);
    }

    @Override
    public String description() {
        return JdbcSupport.withoutSecrets(url);
    }
}
