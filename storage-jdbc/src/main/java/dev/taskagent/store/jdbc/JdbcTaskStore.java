package dev.taskagent.store.jdbc;

import dev.taskagent.event.EventFeed;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TaskStore} on a relational database: H2 2.x (the embedded default), PostgreSQL 12+, MariaDB
 * 10.6+ or MySQL 8.0.17+. Passes the conformance kit of {@code taskagent-testkit} on each.
 *
 * <pre>{@code
 * TaskStore store = JdbcTaskStore.open("jdbc:h2:file:./data/tasks");   // embedded
 * TaskStore shared = new JdbcTaskStore(hikariDataSource);              // PostgreSQL, many JVMs
 * }</pre>
 *
 * <p>On start the store detects the database from its metadata (or takes the {@linkplain
 * Builder#dialect(JdbcDialect) dialect you name}), refuses a database or version it does not support, and
 * creates or migrates its tables ({@code taskagent_*}) from versioned scripts, recording the version in
 * {@code taskagent_schema_version}. Several processes may start on one empty database at once.
 *
 * <p>Each unit of work runs in one database transaction at READ COMMITTED. Claims are exact across
 * threads, processes and hosts: no two callers ever get the same task (see {@link JdbcDialect} for how
 * each database does it). After a deadlock or serialisation failure the store runs the unit of work
 * again, up to {@value #MAX_ATTEMPTS} times in all (rule TS-1.7). With MariaDB or MySQL, configure your
 * pool for READ COMMITTED (HikariCP: {@code transactionIsolation=TRANSACTION_READ_COMMITTED}) to spare a
 * round trip per unit of work.
 *
 * <p>A unit of work that returned is durable: it survives the application's process being killed (rule
 * TS-1.8). PostgreSQL, MariaDB and MySQL hold it in the server. H2 writes a commit to its files up to
 * {@code WRITE_DELAY} milliseconds after it returned, 500 by default, so the store sets that delay to 0:
 * it adds {@code ;WRITE_DELAY=0} to an H2 URL, and on a {@code DataSource} it runs {@code SET WRITE_DELAY
 * 0} at start and logs a warning, since H2 goes back to the URL's delay when it opens the database again.
 * A URL that names a delay keeps it, with a warning. A user who is no admin of an H2 database that delays
 * writes is refused at start, as only admins may change the delay. In-memory H2 databases need none of
 * this. H2 itself can still lose its last commits to a kill when it reuses free space in its file (a
 * defect of H2 2.x that {@code ;REUSE_SPACE=FALSE} in the URL avoids, at a cost in file size; the
 * module's README explains both).
 *
 * <p>Times are stored as UTC to the microsecond; the store's clock is read with that precision.
 *
 * <p>Thread-safe: share one store across the application.
 */
public final class JdbcTaskStore implements TaskStore {

    /** How many times a unit of work runs at most when transient conflicts keep rolling it back. */
    public static final int MAX_ATTEMPTS = 10;

    /** How long the event feed keeps events unless the builder says otherwise. */
    public static final Duration DEFAULT_EVENT_RETENTION = Duration.ofDays(7);

    /** How often a feed subscription polls on H2, MariaDB and MySQL unless the builder says otherwise. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    /** How often a feed subscription polls on PostgreSQL, where notifications wake it sooner. */
    public static final Duration POSTGRES_POLL_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(JdbcTaskStore.class);

    private final ConnectionSource connections;
    private final Dialect dialect;
    private final Clock clock;
    private final String database;
    private final ThreadLocal<Boolean> inUnitOfWork = new ThreadLocal<>();
    private final JdbcEventFeed feed;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Opens a store on a data source, detecting the database and migrating the schema; times come from
     * the UTC system clock. The store does not close the data source. On an H2 database in files whose
     * writes are delayed, the store sets {@code WRITE_DELAY} to 0 and logs a warning: add {@code
     * ;WRITE_DELAY=0} to the data source's URL, so that the setting holds whenever H2 opens the database.
     *
     * @param dataSource where connections come from, usually a pool
     * @throws NullPointerException if {@code dataSource} is null
     * @throws TaskStoreException if the database cannot be reached, is not supported, its schema cannot
     *     be migrated, or it is an H2 database that delays writes and the user may not change that; the
     *     message names what was found
     */
    public JdbcTaskStore(DataSource dataSource) {
        this(builder(dataSource));
    }

    private JdbcTaskStore(Builder builder) {
        this.clock = builder.clock;
        this.connections = builder.connections();
        try {
            Connection connection = connections.acquire();
            boolean reusable = false;
            try {
                DatabaseMetaData metaData = connection.getMetaData();
                JdbcDialect chosen = builder.dialect != null ? builder.dialect : Dialect.detect(metaData);
                this.dialect = chosen.implementation();
                this.database = metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion();
                dialect.ensureDurableCommits(connection, builder.jdbcUrl).ifPresent(LOG::warn);
                SchemaMigrator.migrate(connection, dialect, clock.instant());
                reusable = true;
                this.feed = builder.eventFeed
                        ? new JdbcEventFeed(
                                connections,
                                dialect,
                                clock,
                                builder.eventRetention,
                                builder.eventPollInterval != null
                                        ? builder.eventPollInterval
                                        : defaultPollInterval(dialect.id()),
                                builder.notifications ? notificationUrl(builder) : null)
                        : null;
            } finally {
                connections.release(connection, reusable);
            }
        } catch (SQLException e) {
            connections.close();
            throw new TaskStoreException(
                    "Could not start the JDBC TaskStore on " + connections.description() + ": "
                            + JdbcSupport.describe(e),
                    e);
        } catch (RuntimeException | Error e) {
            connections.close();
            throw e;
        }
    }

    /**
     * Opens a store on a JDBC URL through {@link java.sql.DriverManager}, for the embedded H2 default and
     * quick starts, for example {@code jdbc:h2:file:./data/tasks}. The store keeps a few connections open
     * for reuse and closes them in {@link #close()}; applications with several threads in the database
     * pass a pooled {@code DataSource} instead.
     *
     * <p>On an H2 database in files (embedded or on an H2 server) the store connects with {@code
     * ;WRITE_DELAY=0} added to the URL, so that every commit is written before it returns. A URL that names
     * {@code WRITE_DELAY} itself is kept as it is; a delay above 0 is logged as a warning, since units of
     * work that returned within that delay before the process is killed are lost.
     *
     * @param jdbcUrl the URL, with credentials if the database needs them ({@code ?user=…&password=…}
     *     or {@code ;USER=…;PASSWORD=…} on H2)
     * @return the started store
     * @throws NullPointerException if {@code jdbcUrl} is null
     * @throws IllegalArgumentException if {@code jdbcUrl} does not start with {@code jdbc:}
     * @throws TaskStoreException if the database cannot be reached, is not supported, its schema cannot be
     *     migrated, or it is an H2 database that delays writes and the user may not change that
     */
    public static JdbcTaskStore open(String jdbcUrl) {
        return builder(jdbcUrl).build();
    }

    /**
     * Starts configuring a store on a data source.
     *
     * @param dataSource where connections come from, usually a pool; not closed by the store
     * @return a builder
     * @throws NullPointerException if {@code dataSource} is null
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(Objects.requireNonNull(dataSource, "dataSource"), null);
    }

    /**
     * Starts configuring a store on a JDBC URL (see {@link #open(String)}).
     *
     * @param jdbcUrl the URL
     * @return a builder
     * @throws NullPointerException if {@code jdbcUrl} is null
     * @throws IllegalArgumentException if {@code jdbcUrl} does not start with {@code jdbc:}
     */
    public static Builder builder(String jdbcUrl) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("jdbcUrl must start with 'jdbc:', was '"
                    + JdbcSupport.withoutSecrets(jdbcUrl) + "'; for example jdbc:h2:file:./data/tasks");
        }
        return new Builder(null, jdbcUrl);
    }

    /**
     * Tells which database the store speaks.
     *
     * @return the detected or chosen dialect
     */
    public JdbcDialect dialect() {
        return dialect.id();
    }

    /**
     * {@inheritDoc}
     *
     * <p>On PostgreSQL the claim is one statement that commits on its own: it claims, returns the task with
     * its children and appends the claim's event, in one round trip. When the connection fails before the
     * reply, the store looks for the claim on a fresh connection by a token the claim wrote into the task
     * row, and returns the task if the claim committed. On the other databases, and when every claimable
     * task is locked by another unit of work, it claims in a unit of work of its own.
     */
    @Override
    public Optional<Task> claimNext(String assignee, Duration lease) {
        if (!dialect.claimsInOwnStatement()) {
            return TaskStore.super.claimNext(assignee, lease);
        }
        StoreArguments.name(assignee, "assignee");
        Leases.lease(lease);
        checkCallable("claimNext");
        String agentJson = feed != null ? FeedEncoding.jsonString(assignee) : null;
        long leaseMicros = TimeUnit.NANOSECONDS.toMicros(lease.toNanos());
        for (int attempt = 1; ; attempt++) {
            Dialect.OwnStatementClaim claim =
                    claimInOwnStatement(assignee, leaseMicros, agentJson, attempt == MAX_ATTEMPTS);
            if (claim == null) {
                continue; // a transient conflict, or a claim that did not commit: claim again
            }
            switch (claim.outcome()) {
                case NOTHING_CLAIMABLE -> {
                    return Optional.empty();
                }
                case ONLY_LOCKED_ROWS -> {
                    return TaskStore.super.claimNext(assignee, lease);
                }
                case CLAIMED -> {
                    if (feed != null) {
                        feed.committed();
                    }
                    Task task = claim.read().task();
                    // Null: the row's children's text was not valid, or the claim's reply was lost. The claim
                    // has committed (its row no longer locked): read the task as it is now.
                    return Optional.of(
                            task != null ? task : readTask(claim.read().taskId()));
                }
            }
        }
    }

    /**
     * One claim in a statement of its own.
     *
     * @return what it did, or null to claim again
     */
    private Dialect.OwnStatementClaim claimInOwnStatement(
            String assignee, long leaseMicros, String agentJson, boolean lastAttempt) {
        Connection connection = acquireConnection();
        String token = JdbcSupport.claimToken();
        boolean reusable = false;
        try {
            connection.setAutoCommit(true);
            Dialect.OwnStatementClaim claim = dialect.claimInOwnStatement(
                    connection,
                    assignee,
                    JdbcSupport.toDatabase(JdbcSupport.truncate(clock.instant())),
                    leaseMicros,
                    agentJson,
                    token);
            reusable = true;
            return claim;
        } catch (SQLException e) {
            boolean unknown = false;
            if (JdbcSupport.connectionLost(e)) {
                // The statement may have committed before the connection failed: look for its token.
                try {
                    OptionalLong found = autoCommitted(fresh -> claimedWithToken(fresh, token));
                    if (found.isPresent()) {
                        LOG.info(
                                "A claim's statement failed ({}) but the claim was committed; it is returned",
                                e.toString());
                        return new Dialect.OwnStatementClaim(
                                Dialect.OwnStatementOutcome.CLAIMED,
                                new TaskReader.ClaimedRead(found.getAsLong(), null));
                    }
                    if (!lastAttempt) {
                        return null; // it did not commit: claim again
                    }
                } catch (SQLException lookupFailure) {
                    e.addSuppressed(lookupFailure);
                    unknown = true;
                }
            } else if (!lastAttempt && dialect.isTransient(e)) {
                return null; // the server rolled it back: claim again
            }
            throw new TaskStoreException(
                    "Could not claim the next task of '" + assignee + "' on " + database + ": "
                            + JdbcSupport.describe(e)
                            + (unknown
                                    ? ". Whether it committed is unknown; a task it claimed comes back when its lease"
                                            + " expires"
                                    : ""),
                    e);
        } finally {
            connections.release(connection, reusable);
        }
    }

    /** A connection for a unit of work or a claim; a failure to get one is a storage failure. */
    private Connection acquireConnection() {
        try {
            return connections.acquire();
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Could not get a connection from " + connections.description() + ": " + JdbcSupport.describe(e), e);
        }
    }

    /** Checks that a unit of work may start on this thread: not inside one of this store's, store open. */
    private void checkCallable(String method) {
        if (inUnitOfWork.get() != null) {
            throw new IllegalStateException(method + " was called inside a unit of work of the same store;"
                    + " use the TaskTransaction you were given instead");
        }
        if (closed.get()) {
            throw new IllegalStateException("This JdbcTaskStore is closed");
        }
    }

    @FunctionalInterface
    private interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs statements in auto-commit mode on a connection of their own. */
    private <T> T autoCommitted(ConnectionWork<T> work) throws SQLException {
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

    /** The running task whose claim wrote this token. */
    private static OptionalLong claimedWithToken(Connection connection, String token) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT id FROM taskagent_tasks WHERE status = " + Dialect.RUNNING + " AND claim_token = ?")) {
            statement.setString(1, token);
            return Dialect.queryLong(statement);
        }
    }

    /**
     * Reads a task whose claim committed, on a connection of its own, and writes its children's copy back
     * (it was read from the tables).
     */
    private Task readTask(long taskId) {
        try {
            return autoCommitted(connection -> {
                Task task = TaskReader.readLocked(connection, dialect, taskId);
                try {
                    // For the next claim: the copy of the children, unless the task changed since the read.
                    ChildrenText.writeBack(connection, task);
                } catch (SQLException e) {
                    LOG.debug("Could not write the children's text of claimed task {}: {}", taskId, e.toString());
                }
                return task;
            });
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Claimed task " + taskId + " on " + database + " but could not read it: " + JdbcSupport.describe(e)
                            + ". It comes back when its lease expires",
                    e);
        }
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        Objects.requireNonNull(work, "work");
        checkCallable("inTransaction");
        inUnitOfWork.set(Boolean.TRUE);
        try {
            for (int attempt = 1; ; attempt++) {
                Attempt<R> outcome = attempt(work, attempt == MAX_ATTEMPTS);
                if (!outcome.retry()) {
                    return outcome.result();
                }
                // A short random pause lets the transactions that deadlocked with this one finish.
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1, 1_000_000L * attempt));
            }
        } finally {
            inUnitOfWork.remove();
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
            if (phase == Phase.COMMIT && !transaction.claims().isEmpty()) {
                // A claim whose commit reply was lost may have committed: look for it, so that it is
                // handed to its claimer instead of being stranded until its lease expires.
                switch (committedClaims(transaction.claims(), e)) {
                    case ALL -> {
                        return new Attempt<>(result, false);
                    }
                    case NONE -> {
                        if (!lastAttempt) {
                            return new Attempt<>(null, true);
                        }
                    }
                    case UNKNOWN -> {}
                }
            }
            SQLException storageFailure = storageFailure(e, transaction);
            if (storageFailure != null && !lastAttempt && dialect.isTransient(storageFailure)) {
                return new Attempt<>(null, true);
            }
            throw failure(phase, e, transaction);
        } finally {
            connections.release(connection, reusable);
        }
    }

    /** Whether the claims of a unit of work whose commit failed were committed after all. */
    private enum Committed {
        ALL,
        NONE,
        UNKNOWN
    }

    private Committed committedClaims(List<JdbcTransaction.Claim> claims, Throwable commitFailure) {
        try {
            int found = autoCommitted(connection -> {
                int count = 0;
                try (PreparedStatement statement = connection.prepareStatement("SELECT 1 FROM taskagent_tasks WHERE"
                        + " id = ? AND status = " + Dialect.RUNNING + " AND claim_token = ?")) {
                    for (JdbcTransaction.Claim claim : claims) {
                        statement.setLong(1, claim.taskId());
                        statement.setString(2, claim.token());
                        if (Dialect.queryLong(statement).isPresent()) {
                            count++;
                        }
                    }
                }
                return count;
            });
            if (found == claims.size()) {
                LOG.info(
                        "The commit of a claim failed ({}) but the claim was committed; it is returned",
                        commitFailure.toString());
                return Committed.ALL;
            }
            return found == 0 ? Committed.NONE : Committed.UNKNOWN;
        } catch (SQLException e) {
            commitFailure.addSuppressed(e);
            return Committed.UNKNOWN;
        }
    }

    /** The storage failure behind an attempt's failure, if it is one. */
    private static SQLException storageFailure(Throwable failure, JdbcTransaction transaction) {
        if (transaction != null && transaction.failure() != null) {
            return transaction.failure();
        }
        return failure instanceof SQLException sql ? sql : null;
    }

    /** What the caller gets: the work's own exception unchanged (TS-1.2), else a TaskStoreException. */
    private RuntimeException failure(Phase phase, Throwable failure, JdbcTransaction transaction) {
        if (phase == Phase.WORK || !(failure instanceof SQLException sql)) {
            return JdbcSupport.sneakyThrow(failure);
        }
        return switch (phase) {
            case START ->
                new TaskStoreException(
                        "Could not start a transaction on " + connections.description() + ": "
                                + JdbcSupport.describe(sql),
                        sql);
            case COMMIT ->
                new TaskStoreException(
                        "Could not commit the unit of work on " + database + ": " + JdbcSupport.describe(sql)
                                + (transaction != null && !transaction.claims().isEmpty()
                                        ? ". Whether it committed is unknown; a task it claimed comes back when"
                                                + " its lease expires"
                                        : ". It was rolled back, unless the database committed it before the"
                                                + " connection failed"),
                        sql);
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

    /**
     * Counts the non-archived pending and running tasks and the running ones whose lease expired on the
     * database's clock, in one statement.
     *
     * @return the counts
     * @throws TaskStoreException if the database fails
     */
    @Override
    public TaskCounts countTasks() {
        return inTransaction(transaction -> ((JdbcTransaction) transaction).countTasks());
    }

    /**
     * Closes the connections the store opened itself (when built from a JDBC URL); a caller's data source
     * stays open. Idempotent; afterwards {@code inTransaction} throws {@link IllegalStateException}.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            if (feed != null) {
                feed.close();
            }
            connections.close();
        }
    }

    /**
     * Returns the store's event feed: every committed change of a task, readable from every process that
     * shares the database, in order and without gaps (see {@link EventFeed}). Subscriptions poll every
     * {@linkplain Builder#eventPollInterval(Duration) interval}; on PostgreSQL a {@code LISTEN} on a
     * connection of its own wakes them at once when the store knows a URL to open it with.
     *
     * @return the feed
     * @throws IllegalStateException if the store was built {@linkplain Builder#withoutEventFeed() without
     *     one}
     */
    @Override
    public EventFeed eventFeed() {
        if (feed == null) {
            throw new IllegalStateException("This JdbcTaskStore was built without an event feed"
                    + " (JdbcTaskStore.Builder.withoutEventFeed())");
        }
        return feed;
    }

    private static Duration defaultPollInterval(JdbcDialect dialect) {
        return dialect == JdbcDialect.POSTGRESQL ? POSTGRES_POLL_INTERVAL : POLL_INTERVAL;
    }

    private static String notificationUrl(Builder builder) {
        return builder.notificationUrl != null ? builder.notificationUrl : builder.jdbcUrl;
    }

    @Override
    public String toString() {
        return "JdbcTaskStore[" + dialect.id() + ", " + connections.description() + "]";
    }

    /**
     * Configures a {@link JdbcTaskStore}. Each setter checks its argument at once. Not thread-safe.
     */
    public static final class Builder {
        private final DataSource dataSource;
        private final String jdbcUrl;
        private JdbcDialect dialect;
        private Clock clock = Clock.systemUTC();
        private boolean eventFeed = true;
        private Duration eventRetention = DEFAULT_EVENT_RETENTION;
        private Duration eventPollInterval;
        private boolean notifications = true;
        private String notificationUrl;

        private Builder(DataSource dataSource, String jdbcUrl) {
            this.dataSource = dataSource;
            this.jdbcUrl = jdbcUrl;
        }

        /**
         * Names the database instead of detecting it from the metadata; the version check is skipped too.
         * Default: detect.
         *
         * @param value the dialect
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder dialect(JdbcDialect value) {
            dialect = Objects.requireNonNull(value, "dialect");
            return this;
        }

        /**
         * Sets where {@code createdAt}, {@code updatedAt} and comment times come from. Default: the UTC
         * system clock.
         *
         * @param value the clock
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Keeps the event feed's events for this long, then prunes them. Default 7 days.
         *
         * @param value positive
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is not positive
         */
        public Builder eventRetention(Duration value) {
            Objects.requireNonNull(value, "eventRetention");
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("eventRetention must be positive, was " + value);
            }
            eventRetention = value;
            return this;
        }

        /**
         * Sets how often a feed subscription polls for new events. Default 200 ms, and 1 s on PostgreSQL,
         * where notifications wake subscriptions at once and the poll is only the backstop.
         *
         * @param value 10 ms to 1 minute
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is out of bounds
         */
        public Builder eventPollInterval(Duration value) {
            Objects.requireNonNull(value, "eventPollInterval");
            if (value.compareTo(Duration.ofMillis(10)) < 0 || value.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException(
                        "eventPollInterval must be between 10 ms and 1 minute, was " + value);
            }
            eventPollInterval = value;
            return this;
        }

        /**
         * Names the URL of the connection a PostgreSQL store opens to {@code LISTEN} for the feed's
         * notifications, when the store runs on a {@code DataSource} (a store opened with a URL uses that
         * one). The connection is the store's own, not one of the pool's. Without it a store on a
         * {@code DataSource} polls.
         *
         * @param jdbcUrl a URL of the same database, with credentials
         * @return this builder
         * @throws IllegalArgumentException if {@code jdbcUrl} does not start with {@code jdbc:postgresql:}
         */
        public Builder notificationUrl(String jdbcUrl) {
            Objects.requireNonNull(jdbcUrl, "notificationUrl");
            if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("notificationUrl must be a PostgreSQL URL (jdbc:postgresql:...),"
                        + " was '" + JdbcSupport.withoutSecrets(jdbcUrl) + "'");
            }
            notificationUrl = jdbcUrl;
            return this;
        }

        /**
         * Makes feed subscriptions poll without {@code LISTEN}: for PostgreSQL behind a pooler in
         * transaction mode (PgBouncer), where a listening session does not hold.
         *
         * @return this builder
         */
        public Builder pollingOnly() {
            notifications = false;
            return this;
        }

        /**
         * Builds the store without an event feed: units of work append no events, which spares a row per
         * change, and {@link JdbcTaskStore#eventFeed()} throws. For applications that only listen in-process.
         *
         * @return this builder
         */
        public Builder withoutEventFeed() {
            eventFeed = false;
            return this;
        }

        /**
         * Starts the store: connects, checks the database and migrates the schema.
         *
         * @return the store
         * @throws TaskStoreException if the database cannot be reached, is not supported, or its schema
         *     cannot be migrated; the message names what was found
         */
        public JdbcTaskStore build() {
            return new JdbcTaskStore(this);
        }

        private ConnectionSource connections() {
            if (dataSource != null) {
                return new DataSourceConnections(dataSource);
            }
            String durableUrl = H2WriteDelay.durableUrl(jdbcUrl);
            try {
                return new DriverManagerConnections(durableUrl);
            } catch (SQLException e) {
                if (durableUrl.equals(jdbcUrl) || !H2WriteDelay.isAdminRightsRequired(e)) {
                    throw connectionFailure(e);
                }
            }
            // H2 lets only admins set WRITE_DELAY. The database may not delay writes anyway (an admin's
            // connection set it): connect as given, and let the check at start tell, or refuse.
            try {
                return new DriverManagerConnections(jdbcUrl);
            } catch (SQLException e) {
                throw connectionFailure(e);
            }
        }

        private TaskStoreException connectionFailure(SQLException e) {
            return new TaskStoreException(
                    "Could not connect to " + JdbcSupport.withoutSecrets(jdbcUrl) + ": " + JdbcSupport.describe(e)
                            + ". Check the URL, and that its JDBC driver is on the class path",
                    e);
        }
    }
}
