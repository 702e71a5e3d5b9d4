package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The notifier paces itself: however fast commits come, it starts a notification at most once per {@link
 * PostgresNotifier#NOTIFY_GAP}; and a commit that comes while a notification is on its way is told by one
 * more after it.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresNotifierTest {
    private static final long WAIT_SECONDS = 10;

    private final DataSource dataSource = TestDatabase.POSTGRES.newDataSource();
    private final RecordingConnections connections = new RecordingConnections(new DataSourceConnections(dataSource));
    private final PostgresNotifier notifier = new PostgresNotifier(connections);
    private Connection listener;
    private String schema;

    @BeforeEach
    void listen() throws SQLException {
        listener = dataSource.getConnection();
        try (Statement statement = listener.createStatement();
                ResultSet row = statement.executeQuery("SELECT current_schema()")) {
            row.next();
            schema = row.getString(1);
            statement.execute("LISTEN " + PostgresNotifications.CHANNEL);
        }
    }

    @AfterEach
    void close() throws SQLException {
        notifier.close();
        listener.close();
    }

    @Test
    void aBurstOfCommitsStartsOneNotificationPerGapAtMost() throws Exception {
        long start = System.nanoTime();
        do {
            notifier.committed();
        } while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(300));
        notifier.close(); // a notification on its way is sent first

        List<Long> sends = connections.acquired;
        assertThat(sends).as("notifications started in 300 ms of commits").hasSizeGreaterThan(1);
        for (int index = 1; index < sends.size(); index++) {
            assertThat(sends.get(index) - sends.get(index - 1))
                    .as("nanoseconds between notification %d and the one before", index)
                    .isGreaterThanOrEqualTo(PostgresNotifier.NOTIFY_GAP.toNanos());
        }
        assertThat(heard(sends.size())).as("notifications heard").isEqualTo(sends.size());
    }

    @Test
    void aCommitWhileANotificationIsOnItsWayIsToldByOneMore() throws Exception {
        connections.holdNext();
        notifier.committed();
        assertThat(connections.holding.await(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the notifier asked for its connection")
                .isTrue();
        notifier.committed(); // comes while the first notification is on its way
        connections.release.countDown();

        assertThat(heard(2)).isEqualTo(2);
        assertThat(connections.acquired).hasSize(2);
    }

    /** Counts this schema's notifications until {@code expected} came, or none came for a second more. */
    private int heard(int expected) throws SQLException {
        PGConnection notifications = listener.unwrap(PGConnection.class);
        int count = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        long quietUntil = Long.MAX_VALUE;
        while (System.nanoTime() < Math.min(deadline, quietUntil)) {
            PGNotification[] received = notifications.getNotifications(50);
            for (PGNotification notification : received == null ? new PGNotification[0] : received) {
                if (notification.getParameter().equals(schema)) {
                    count++;
                }
            }
            if (count >= expected && quietUntil == Long.MAX_VALUE) {
                quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(1); // listen on for any extra one
            }
        }
        return count;
    }

    /** Records when the notifier takes a connection, and can hold it there once. */
    private static final class RecordingConnections implements ConnectionSource {
        private final ConnectionSource delegate;
        final List<Long> acquired = new CopyOnWriteArrayList<>();
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private volatile boolean hold;

        RecordingConnections(ConnectionSource delegate) {
            this.delegate = delegate;
        }

        void holdNext() {
            hold = true;
        }

        @Override
        public Connection acquire() throws SQLException {
            acquired.add(System.nanoTime());
            if (hold) {
                hold = false;
                holding.countDown();
                try {
                    if (!release.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                        throw new SQLException("The test did not release the held notification");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("Interrupted while held", e);
                }
            }
            return delegate.acquire();
        }

        @Override
        public void release(Connection connection, boolean reusable) {
            delegate.release(connection, reusable);
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public String description() {
            return delegate.description();
        }
    }
}
