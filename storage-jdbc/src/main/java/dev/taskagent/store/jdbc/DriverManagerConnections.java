package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Connections opened with {@link DriverManager} from a JDBC URL, kept for reuse: a minimal pool for the
 * URL convenience, so that an embedded H2 store does not reopen its database for every unit of work.
 * One connection stays open for the store's life (an in-memory H2 database lives only while one does).
 * At most {@code maxConnections} are open at once, that one included: a caller beyond them waits for one
 * to be given back, up to {@code acquireTimeout}, so that a burst of callers cannot take a shared
 * database's connection slots from other applications. Applications that want a real pool pass a {@code
 * DataSource}.
 */
final class DriverManagerConnections implements ConnectionSource {
    /** Idle connections kept for reuse. */
    static final int MAX_IDLE = 8;

    private final String url;
    private final int maxConnections;
    private final Duration acquireTimeout;
    /** One permit per connection that may be open besides the one kept alive. */
    private final Semaphore permits;

    private final Deque<Connection> idle = new ArrayDeque<>(); // guarded by this
    private Connection keepAlive; // guarded by this
    private boolean closed; // guarded by this

    DriverManagerConnections(String url, int maxConnections, Duration acquireTimeout) throws SQLException {
        this.url = url;
        this.maxConnections = maxConnections;
        this.acquireTimeout = acquireTimeout;
        this.permits = new Semaphore(maxConnections - 1, true);
        this.keepAlive = DriverManager.getConnection(url);
    }

    @Override
    public Connection acquire() throws SQLException {
        checkOpen();
        try {
            if (!permits.tryAcquire(acquireTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new SQLException(
                        "All " + maxConnections + " connections of the store on " + description()
                                + " were busy for " + acquireTimeout.toMillis() + " ms; raise maxConnections or pass a"
                                + " pooled DataSource",
                        "08001");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for a connection to " + description(), "08001", e);
        }
        try {
            synchronized (this) {
                checkOpen();
                Connection connection = idle.pollFirst();
                if (connection != null) {
                    return connection;
                }
            }
            return DriverManager.getConnection(url);
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("The JdbcTaskStore on " + description() + " is closed");
        }
    }

    @Override
    public void release(Connection connection, boolean reusable) {
        try {
            synchronized (this) {
                if (reusable && !closed && idle.size() < MAX_IDLE) {
                    idle.addFirst(connection);
                    return;
                }
            }
            JdbcSupport.closeQuietly(connection);
        } finally {
            permits.release();
        }
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
