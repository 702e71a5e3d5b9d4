package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the feed's listeners in every process that events committed: {@code NOTIFY} on the feed's
 * channel, with the store's schema as the payload, sent by one daemon thread of the store after the
 * commits, in a transaction of its own.
 *
 * <p>Why not in the committing transaction: PostgreSQL serialises the commits of all transactions that
 * notify under one database-wide lock, held through the commit's write to disk, so a notification in
 * every unit of work held every claim of every process to one commit at a time. Here the commits that
 * come while a notification is on its way are covered by one more after it, so a listener always hears of
 * a commit after the commit, and the database sees at most one notifying transaction of this store at a
 * time. A notification that cannot be sent is logged once per outage; subscriptions poll meanwhile.
 *
 * <p>Thread-safe.
 */
final class PostgresNotifier {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresNotifier.class);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(200);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    /**
     * The least time between two notifications. Under a steady stream of commits the thread would otherwise
     * send one notifying transaction after another, each a round trip and a commit written to disk, taking
     * CPU from the writers on a small machine; the commits of the pause are told by the next one.
     */
    static final Duration NOTIFY_GAP = Duration.ofMillis(10);

    private final ConnectionSource connections;
    private final Object lock = new Object();

    /** Guarded by {@link #lock}. */
    private boolean requested;

    /** Guarded by {@link #lock}. */
    private boolean closed;

    /** Guarded by {@link #lock}. */
    private Thread thread;

    PostgresNotifier(ConnectionSource connections) {
        this.connections = connections;
    }

    /** Asks for a notification, after a commit that appended events; returns at once. */
    void committed() {
        synchronized (lock) {
            if (closed || requested) {
                return; // a notification is already asked for, and covers this commit
            }
            requested = true;
            if (thread == null) {
                thread = new Thread(this::run, "taskagent-feed-notify");
                thread.setDaemon(true);
                thread.start();
            }
            lock.notifyAll();
        }
    }

    private void run() {
        boolean failing = false;
        while (true) {
            synchronized (lock) {
                while (!requested && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                requested = false;
            }
            try {
                send();
                if (failing) {
                    LOG.info("The event feed's notifications are sent again");
                    failing = false;
                }
                Thread.sleep(NOTIFY_GAP.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                if (!failing) {
                    LOG.warn(
                            "Could not notify the event feed's listeners; they poll meanwhile: {}",
                            e instanceof SQLException sql ? JdbcSupport.describe(sql) : e.toString());
                    failing = true;
                }
                synchronized (lock) {
                    requested = true; // the commits it was for are still to be told
                }
                try {
                    Thread.sleep(RETRY_PAUSE.toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void send() throws SQLException {
        Connection connection = connections.acquire();
        boolean reusable = false;
        try (Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute("SELECT pg_notify('" + PostgresNotifications.CHANNEL + "', current_schema())");
            reusable = true;
        } finally {
            connections.release(connection, reusable);
        }
    }

    /** Stops the thread; a notification on its way is sent or dropped. Idempotent. */
    void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            running = thread;
            lock.notifyAll();
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
