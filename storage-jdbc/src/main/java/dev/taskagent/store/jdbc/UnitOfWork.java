package dev.taskagent.store.jdbc;

import dev.taskagent.store.CommitOutcomeUnknownException;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs units of work: one database transaction each at READ COMMITTED, run again after a deadlock or
 * serialisation failure (TS-1.7), the work's own exceptions rethrown as they are (TS-1.2), storage
 * failures as {@link TaskStoreException}. When a commit fails, the claims the unit of work made are looked
 * for ({@link Claims#committed}), so that a claim that committed is returned instead of being stranded
 * until its lease expires.
 *
 * <p>Thread-safe.
 */
final class UnitOfWork {
    private final ConnectionSource connections;
    private final Dialect dialect;
    private final Clock clock;
    private final String database;
    private final JdbcEventFeed feed;
    private final ThreadLocal<Boolean> running = new ThreadLocal<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Claims claims;

    UnitOfWork(ConnectionSource connections, Dialect dialect, Clock clock, String database, JdbcEventFeed feed) {
        this.connections = connections;
        this.dialect = dialect;
        this.clock = clock;
        this.database = database;
        this.feed = feed;
    }

    /** Sets where lost claims are looked for; once, before the first unit of work. */
    void claims(Claims value) {
        claims = value;
    }

    /** Refuses every later unit of work. */
    void close() {
        closed.set(true);
    }

    /** Runs the work in a unit of work, again after transient conflicts (TS-1.7). */
    <R> R run(TransactionWork<R> work) {
        Objects.requireNonNull(work, "work");
        checkCallable("inTransaction");
        running.set(Boolean.TRUE);
        try {
            for (int attempt = 1; ; attempt++) {
                Attempt<R> outcome = attempt(work, attempt == JdbcTaskStore.MAX_ATTEMPTS);
                if (!outcome.retry()) {
                    return outcome.result();
                }
                // A short random pause lets the transactions that deadlocked with this one finish.
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1, 1_000_000L * attempt));
            }
        } finally {
            running.remove();
        }
    }

    /** Checks that a unit of work may start on this thread: not inside one of this store's, store open. */
    void checkCallable(String method) {
        if (running.get() != null) {
            throw new IllegalStateException(method + " was called inside a unit of work of the same store;"
                    + " use the TaskTransaction you were given instead");
        }
        if (closed.get()) {
            throw new IllegalStateException("This JdbcTaskStore is closed");
        }
    }

    /** A connection for a unit of work or a claim; a failure to get one is a storage failure. */
    Connection acquireConnection() {
        try {
            return connections.acquire();
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Could not get a connection from " + connections.description() + ": " + JdbcSupport.describe(e), e);
        }
    }

    @FunctionalInterface
    interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs statements in auto-commit mode on a connection of their own. */
    <T> T autoCommitted(ConnectionWork<T> work) throws SQLException {
        Connection connection = connections.acquire();
        boolean reusable = false;
        try {
            connection.setAutoCommit(true);
            T result = work.run(connection);
            reusable = true;
            return result;
        } finally {
            connections.release(connection, reusable);
        }
    }

    /** The outcome of one attempt: a result, or a transient conflict to run again. */
    private record Attempt<R>(R result, boolean retry) {}

    /** Where an attempt failed, for its message. */
    private enum Phase {
        START,
        WORK,
        COMMIT
    }

    /**
     * Runs the work once. Every failure takes the one path of the catch below: roll back, then run again
     * after a transient conflict (TS-1.7), or return what a commit whose outcome is unknown did, or throw.
     */
    private <R> Attempt<R> attempt(TransactionWork<R> work, boolean lastAttempt) {
        Connection connection = acquireConnection();
        Phase phase = Phase.START;
        JdbcTransaction transaction = null;
        R result = null;
        boolean reusable = false;
        boolean released = false;
        try {
            dialect.begin(connection);
            transaction = new JdbcTransaction(connection, dialect, clock, database, feed != null);
            phase = Phase.WORK;
            result = work.execute(transaction);
            transaction.end();
            if (transaction.failure() == null && feed != null) {
                transaction.flushEvents(); // the unit of work's events commit with it
            }
            if (transaction.failure() != null) {
                // The work caught a storage failure and went on: what it did since may be half applied.
                throw new TaskStoreException(
                        "A statement of this unit of work failed (" + JdbcSupport.describe(transaction.failure())
                                + ") and the unit of work went on regardless; it was rolled back",
                        transaction.failure());
            }
            phase = Phase.COMMIT;
            connection.commit();
            reusable = true;
            if (feed != null && transaction.appendedEvents()) {
                feed.committed();
            }
            return new Attempt<>(result, false);
        } catch (Throwable e) { // also checked exceptions thrown sneakily: never leave half a unit of work
            if (transaction != null) {
                transaction.end();
            }
            boolean rolledBack = rollback(connection, e);
            reusable = rolledBack && phase == Phase.WORK && (transaction == null || transaction.failure() == null);
            boolean rolledBackForSure = false;
            if (phase == Phase.COMMIT && !transaction.claims().isEmpty()) {
                // A claim whose commit reply was lost may have committed: look for it, so that it is handed to
                // its claimer instead of being stranded until its lease expires. The failed connection goes
                // back first, so that the lookup's connection never waits for it.
                Object session = claims.serverSession(connection);
                connections.release(connection, false);
                released = true;
                switch (claims.committed(transaction.claims(), session, e)) {
                    case ALL -> {
                        if (feed != null) {
                            feed.committed();
                        }
                        return new Attempt<>(result, false);
                    }
                    case NONE -> {
                        // The claim's token is not in its row: the whole unit of work was rolled back.
                        if (!lastAttempt) {
                            return new Attempt<>(null, true);
                        }
                        rolledBackForSure = true;
                    }
                    case UNKNOWN -> {}
                }
            }
            SQLException storageFailure = storageFailure(e, transaction);
            if (storageFailure != null && !lastAttempt && dialect.isTransient(storageFailure)) {
                return new Attempt<>(null, true);
            }
            throw failure(phase, e, transaction, rolledBackForSure);
        } finally {
            if (!released) {
                connections.release(connection, reusable);
            }
        }
    }

    /** The storage failure behind an attempt's failure, if it is one. */
    private static SQLException storageFailure(Throwable failure, JdbcTransaction transaction) {
        if (transaction != null && transaction.failure() != null) {
            return transaction.failure();
        }
        return failure instanceof SQLException sql ? sql : null;
    }

    /**
     * What the caller gets: the work's own exception unchanged (TS-1.2), else a TaskStoreException; a
     * {@link CommitOutcomeUnknownException} when the connection was lost during the commit and nothing
     * showed whether it committed.
     */
    private RuntimeException failure(
            Phase phase, Throwable failure, JdbcTransaction transaction, boolean rolledBackForSure) {
        if (phase == Phase.WORK || !(failure instanceof SQLException sql)) {
            return JdbcSupport.sneakyThrow(failure);
        }
        return switch (phase) {
            case START ->
                new TaskStoreException(
                        "Could not start a transaction on " + connections.description() + ": "
                                + JdbcSupport.describe(sql),
                        sql);
            case COMMIT -> {
                String what = "Could not commit the unit of work on " + database + ": " + JdbcSupport.describe(sql);
                if (rolledBackForSure || !JdbcSupport.connectionLost(sql)) {
                    yield new TaskStoreException(what + ". It was rolled back", sql);
                }
                yield new CommitOutcomeUnknownException(
                        what + ". The connection was lost during the commit, so whether it committed is unknown:"
                                + " read what it changed before running it again"
                                + (transaction != null && !transaction.claims().isEmpty()
                                        ? "; a task it claimed comes back when its lease expires"
                                        : ""),
                        sql);
            }
            case WORK -> throw new IllegalStateException("unreachable: the work's own failures are rethrown above");
        };
    }

    /**
     * Rolls back; a failure to do so is added to the exception on its way out.
     *
     * @return whether the connection is fit for reuse
     */
    private static boolean rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
            return true;
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
            return false;
        }
    }
}
