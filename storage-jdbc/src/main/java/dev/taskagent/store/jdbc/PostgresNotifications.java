package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens for the feed's {@code NOTIFY} on a connection of its own, opened from a URL rather than taken
 * from the application's pool, and wakes the feed's subscriptions. Only a hint: a lost notification delays
 * an event until the subscriptions' next poll. Reconnects with a growing pause after the connection is
 * lost (a restarted server, {@code pg_terminate_backend}).
 *
 * <p>Thread-safe; one daemon thread, started by the first subscription.
 */
final class PostgresNotifications {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresNotifications.class);
    /** The channel of the feed's notifications; their payload is the schema of the store that sent them. */
    static final String CHANNEL = "taskagent_events";
    /** The {@code application_name} of the listening connection, unless its URL sets one. */
    static final String APPLICATION_NAME = "taskagent-feed-listener";

    private static final int WAIT_MILLIS = 1_000;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private final String url;
    private final Runnable wakeUp;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Thread thread;
    private volatile Connection connection;

    PostgresNotifications(String url, Runnable wakeUp) {
        this.url = url;
        this.wakeUp = wakeUp;
    }

    void start() {
        if (!started.compareAndSet(false, true) || closed.get()) {
            return;
        }
        Thread listener = new Thread(this::run, "taskagent-feed-listen");
        listener.setDaemon(true);
        thread = listener;
        listener.start();
    }

    private void run() {
        Duration backoff = Duration.ofMillis(100);
        boolean failing = false;
        while (!closed.get()) {
            try (Connection listening = DriverManager.getConnection(url, applicationName())) {
                connection = listening;
                String schema;
                try (Statement statement = listening.createStatement()) {
                    try (ResultSet rows = statement.executeQuery("SELECT current_schema()")) {
                        schema = rows.next() ? rows.getString(1) : null;
                    }
                    statement.execute("LISTEN " + CHANNEL);
                }
                if (failing) {
                    LOG.info("Listening for the event feed's notifications again");
                    failing = false;
                }
                backoff = Duration.ofMillis(100);
                wakeUp.run(); // events may have committed while nobody listened
                PGConnection notified = listening.unwrap(PGConnection.class);
                while (!closed.get()) {
                    PGNotification[] notifications = notified.getNotifications(WAIT_MILLIS);
                    if (notifications != null && concerns(notifications, schema)) {
                        wakeUp.run();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed.get()) {
                    return;
                }
                if (!failing) {
                    LOG.warn(
                            "Lost the connection that listens for the event feed's notifications; polling"
                                    + " meanwhile and reconnecting: {}",
                            e.toString());
                    failing = true;
                }
                wakeUp.run();
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            } finally {
                connection = null;
            }
        }
    }

    /** Names the connection in {@code pg_stat_activity}, unless the URL names it already. */
    private static Properties applicationName() {
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        return properties;
    }

    /** Whether a notification came from this store's schema: the channel is shared by the whole database. */
    private static boolean concerns(PGNotification[] notifications, String schema) {
        for (PGNotification notification : notifications) {
            if (schema == null || schema.equals(notification.getParameter())) {
                return true;
            }
        }
        return false;
    }

    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Thread listener = thread;
        if (listener != null) {
            listener.interrupt();
            Connection current = connection;
            if (current != null) {
                JdbcSupport.closeQuietly(current);
            }
            try {
                listener.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
