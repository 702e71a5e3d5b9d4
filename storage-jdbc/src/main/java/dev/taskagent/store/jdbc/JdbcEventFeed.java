package dev.taskagent.store.jdbc;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.PolledSubscription;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The JDBC store's event feed. Writers insert their events unnumbered, in the transaction of the change. A
 * reader first numbers the rows that have committed since: under the lock of the one head row it gives
 * them the next positions in id order and commits, so positions only ever go to committed rows, in the
 * order they became visible, one after the other; a transaction that commits late gets a later position,
 * never one behind a position a reader has passed (TS-10.3). Then it reads by position.
 *
 * <p>Subscriptions poll. On PostgreSQL they are woken early by {@code NOTIFY}, which the store that
 * committed sends after its commits ({@link PostgresNotifier}), and which a subscribing store hears on a
 * dedicated connection when it knows a URL to open it with; a lost notification only delays an event until
 * the next poll. A store's own subscriptions are woken by its commits directly. Events older than the retention are pruned in small batches, at most once a
 * minute, by the reads.
 *
 * <p>Thread-safe.
 */
final class JdbcEventFeed implements EventFeed {
    /** How many rows one numbering transaction takes; a backlog takes several. */
    private static final int NUMBER_BATCH = 1_000;

    private static final int PRUNE_BATCH = 1_000;
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    private static final AtomicInteger SUBSCRIPTIONS = new AtomicInteger();

    private static final String READ = "SELECT position, task_id, session_id, kind, payload, created_at"
            + " FROM taskagent_events WHERE position > ? ORDER BY position LIMIT ?";
    private static final String HEAD = "SELECT last_position, pruned_through FROM taskagent_event_head WHERE id = 1";

    private final ConnectionSource connections;
    private final Dialect dialect;
    private final Clock clock;
    private final Duration retention;
    private final Duration pollInterval;
    private final PostgresNotifications notifications;
    private final PostgresNotifier notifier;
    private final AtomicLong lastPrune = new AtomicLong(Long.MIN_VALUE);

    /** Woken when a notification says events committed; subscriptions wait on it between polls. */
    private final ReentrantLock wakeLock = new ReentrantLock();

    private final Condition woken = wakeLock.newCondition();

    /** How many wake-ups came so far; guarded by {@link #wakeLock}. */
    private long wakeUps;

    JdbcEventFeed(
            ConnectionSource connections,
            Dialect dialect,
            Clock clock,
            Duration retention,
            Duration pollInterval,
            String notificationUrl) {
        this.connections = connections;
        this.dialect = dialect;
        this.clock = clock;
        this.retention = retention;
        this.pollInterval = pollInterval;
        this.notifications = dialect.id() == JdbcDialect.POSTGRESQL && notificationUrl != null
                ? new PostgresNotifications(notificationUrl, this::wakeUp)
                : null;
        this.notifier = dialect.id() == JdbcDialect.POSTGRESQL ? new PostgresNotifier(connections) : null;
    }

    /**
     * Tells the feed that a unit of work of its store committed events: wakes this store's subscriptions,
     * and on PostgreSQL has the listeners of every process notified.
     */
    void committed() {
        wakeUp();
        if (notifier != null) {
            notifier.committed();
        }
    }

    @Override
    public List<FeedEvent> read(long afterPosition, int limit) {
        FeedEncoding.checkRead(afterPosition, limit);
        pruneWhenDue();
        return inTransaction("read the event feed", connection -> {
            number(connection);
            List<FeedEvent> events = new ArrayList<>(Math.min(limit, 500));
            try (PreparedStatement statement = connection.prepareStatement(READ)) {
                statement.setLong(1, afterPosition);
                statement.setInt(2, limit);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        events.add(new FeedEvent(
                                rows.getLong(1),
                                rows.getLong(2),
                                rows.getString(3),
                                rows.getString(4),
                                JdbcSupport.fromDatabase(rows.getObject(6, LocalDateTime.class)),
                                rows.getString(5)));
                    }
                }
            }
            // The head is read after the rows: rows read before a prune stay valid, and a position pruned
            // before the read is refused.
            checkReadable(connection, afterPosition);
            return events;
        });
    }

    @Override
    public FeedSubscription subscribe(long afterPosition, FeedListener listener) {
        Objects.requireNonNull(listener, "listener");
        FeedEncoding.checkPosition(afterPosition);
        inTransaction("check the position of a subscription", connection -> {
            number(connection);
            checkReadable(connection, afterPosition);
            return null;
        });
        if (notifications != null) {
            notifications.start();
        }
        long[] seenWakeUps = {wakeUpsSoFar()};
        return PolledSubscription.start(
                "taskagent-feed-" + SUBSCRIPTIONS.incrementAndGet(),
                afterPosition,
                listener,
                this::read,
                atMost -> seenWakeUps[0] = awaitWakeUp(seenWakeUps[0], atMost),
                pollInterval);
    }

    @Override
    public long lastPosition() {
        return inTransaction("read the feed's last position", connection -> {
            number(connection);
            return head(connection)[0];
        });
    }

    @Override
    public long prune(Duration olderThan) {
        Objects.requireNonNull(olderThan, "olderThan");
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
        }
        Instant cutoff = clock.instant().minus(olderThan);
        long pruned = 0;
        while (true) {
            long batch = inTransaction("prune the event feed", connection -> pruneBatch(connection, cutoff));
            pruned += batch;
            if (batch < PRUNE_BATCH) {
                return pruned;
            }
        }
    }

    /** Stops the notification listener, if one runs. */
    void close() {
        if (notifier != null) {
            notifier.close();
        }
        if (notifications != null) {
            notifications.close();
        }
    }

    private void pruneWhenDue() {
        long now = System.nanoTime();
        long last = lastPrune.get();
        if (last != Long.MIN_VALUE && now - last < PRUNE_EVERY.toNanos()) {
            return;
        }
        if (lastPrune.compareAndSet(last, now)) {
            prune(retention);
        }
    }

    /** Deletes up to one batch of the oldest events older than the cutoff; returns how many. */
    private long pruneBatch(Connection connection, Instant cutoff) throws SQLException {
        long[] head = lockHead(connection);
        long through = head[1];
        try (PreparedStatement statement = connection.prepareStatement("SELECT position, created_at FROM"
                + " taskagent_events WHERE position > ? ORDER BY position LIMIT " + PRUNE_BATCH)) {
            statement.setLong(1, head[1]);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()
                        && JdbcSupport.fromDatabase(rows.getObject(2, LocalDateTime.class))
                                .isBefore(cutoff)) {
                    through = rows.getLong(1);
                }
            }
        }
        if (through == head[1]) {
            return 0;
        }
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM taskagent_events WHERE position > ? AND position <= ?")) {
            delete.setLong(1, head[1]);
            delete.setLong(2, through);
            delete.executeUpdate();
        }
        try (PreparedStatement update =
                connection.prepareStatement("UPDATE taskagent_event_head SET pruned_through = ? WHERE id = 1")) {
            update.setLong(1, through);
            update.executeUpdate();
        }
        return through - head[1];
    }

    /**
     * Numbers the committed rows that have no position yet, in id order, under the head row's lock, and
     * commits; a backlog takes several transactions. A look without the lock first spares idle polls the
     * head row's lock and a write.
     */
    private void number(Connection connection) throws SQLException {
        try (PreparedStatement probe =
                        connection.prepareStatement("SELECT id FROM taskagent_events WHERE position IS NULL LIMIT 1");
                ResultSet rows = probe.executeQuery()) {
            if (!rows.next()) {
                return;
            }
        }
        while (true) {
            long[] head = lockHead(connection);
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT id FROM taskagent_events WHERE position IS NULL ORDER BY id LIMIT " + NUMBER_BATCH)) {
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                    }
                }
            }
            if (ids.isEmpty()) {
                connection.commit();
                return;
            }
            long position = numberRuns(connection, ids, head[0]);
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE taskagent_event_head SET last_position = ? WHERE id = 1")) {
                update.setLong(1, position);
                update.executeUpdate();
            }
            connection.commit();
            if (ids.size() < NUMBER_BATCH) {
                return;
            }
        }
    }

    /**
     * Gives {@code ids} (ascending, without a position) the positions after {@code last}, one UPDATE per run of
     * consecutive ids rather than one per row: the events of one unit of work usually have consecutive ids, so
     * a backlog of a thousand events takes a few statements. Nothing else numbers meanwhile (the head row is
     * locked), so every row of a run is one of {@code ids}; a count that says otherwise undoes the numbering.
     *
     * @return the last position given
     */
    private static long numberRuns(Connection connection, List<Long> ids, long last) throws SQLException {
        long position = last;
        List<Integer> expected = new ArrayList<>();
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE taskagent_events SET position = id + ? WHERE id >= ? AND id <= ? AND position IS NULL")) {
            int start = 0;
            while (start < ids.size()) {
                int end = start;
                while (end + 1 < ids.size() && ids.get(end + 1) == ids.get(end) + 1) {
                    end++;
                }
                long first = ids.get(start);
                update.setLong(1, position + 1 - first);
                update.setLong(2, first);
                update.setLong(3, ids.get(end));
                update.addBatch();
                expected.add(end - start + 1);
                position += end - start + 1;
                start = end + 1;
            }
            int[] counts = update.executeBatch();
            for (int run = 0; run < counts.length; run++) {
                if (counts[run] != Statement.SUCCESS_NO_INFO && counts[run] != expected.get(run)) {
                    throw new SQLException("Numbering the feed's events changed " + counts[run] + " rows where "
                            + expected.get(run) + " were expected; nothing was numbered");
                }
            }
        }
        return position;
    }

    /** Locks the head row until the transaction ends; returns its last position and how far it was pruned. */
    private static long[] lockHead(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(HEAD + " FOR UPDATE")) {
            return readHead(statement);
        }
    }

    private static long[] head(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(HEAD)) {
            return readHead(statement);
        }
    }

    private static long[] readHead(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("The event feed's head row is missing from taskagent_event_head");
            }
            return new long[] {rows.getLong(1), rows.getLong(2)};
        }
    }

    private static void checkReadable(Connection connection, long afterPosition) throws SQLException {
        long[] head = head(connection);
        FeedEncoding.checkNotAhead(afterPosition, head[0]);
        if (afterPosition < head[1]) {
            throw new EventsPrunedException(afterPosition, head[1] + 1);
        }
    }

    private void wakeUp() {
        wakeLock.lock();
        try {
            wakeUps++;
            woken.signalAll();
        } finally {
            wakeLock.unlock();
        }
    }

    private long wakeUpsSoFar() {
        wakeLock.lock();
        try {
            return wakeUps;
        } finally {
            wakeLock.unlock();
        }
    }

    /**
     * Waits for a wake-up that came after the ones a subscription has seen, or for a while. A wake-up that
     * came while the subscription was reading is not lost: the wait returns at once.
     *
     * @param seen the wake-ups the subscription had seen before its last read
     * @param atMost the longest wait
     * @return the wake-ups seen now
     */
    private long awaitWakeUp(long seen, Duration atMost) throws InterruptedException {
        wakeLock.lock();
        try {
            long remaining = atMost.toNanos();
            while (wakeUps == seen && remaining > 0) {
                remaining = woken.awaitNanos(remaining);
            }
            return wakeUps;
        } finally {
            wakeLock.unlock();
        }
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs feed work on a connection of the store, committing as it goes; a failure rolls back. */
    private <T> T inTransaction(String operation, Work<T> work) {
        Connection connection;
        try {
            connection = connections.acquire();
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Could not " + operation + ": no connection from " + connections.description() + ": "
                            + JdbcSupport.describe(e),
                    e);
        }
        boolean reusable = false;
        try {
            dialect.begin(connection);
            T result = work.run(connection);
            connection.commit();
            reusable = true;
            return result;
        } catch (SQLException e) {
            rollbackQuietly(connection);
            if (dialect.isTransient(e)) {
                reusable = true;
            }
            throw new TaskStoreException("Could not " + operation + ": " + JdbcSupport.describe(e), e);
        } catch (RuntimeException e) {
            rollbackQuietly(connection);
            reusable = true;
            throw e;
        } finally {
            connections.release(connection, reusable);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the original failure is what the caller needs
        }
    }

    @Override
    public String toString() {
        return "JdbcEventFeed[" + dialect + (notifications != null ? ", LISTEN" : ", polling every " + pollInterval)
                + "]";
    }
}
