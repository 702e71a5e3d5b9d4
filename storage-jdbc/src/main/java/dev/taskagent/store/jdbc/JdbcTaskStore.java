package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
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
 * this.
 *
 * <p>Times are stored as UTC to the microsecond; the store's clock is read with that precision.
 *
 * <p>Thread-safe: share one store across the application.
 */
public final class JdbcTaskStore implements TaskStore {

    /** How many times a unit of work runs at most when transient conflicts keep rolling it back. */
    public static final int MAX_ATTEMPTS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcTaskStore.class);

    private final ConnectionSource connections;
    private final Dialect dialect;
    private final Clock clock;
    private final String database;
    private final ThreadLocal<Boolean> inUnitOfWork = new ThreadLocal<>();
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

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        Objects.requireNonNull(work, "work");
        if (inUnitOfWork.get() != null) {
            throw new IllegalStateException("inTransaction was called inside a unit of work of the same store;"
                    + " use the TaskTransaction you were given instead");
        }
        if (closed.get()) {
            throw new IllegalStateException("This JdbcTaskStore is closed");
        }
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

    private <R> Attempt<R> attempt(TransactionWork<R> work, boolean lastAttempt) {
        Connection connection;
        try {
            connection = connections.acquire();
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Could not get a connection from " + connections.description() + ": " + JdbcSupport.describe(e), e);
        }
        boolean reusable = true;
        JdbcTransaction transaction = null;
        try {
            dialect.begin(connection);
            transaction = new JdbcTransaction(connection, dialect, clock, database);
            R result;
            try {
                result = work.execute(transaction);
            } catch (Throwable e) { // also checked exceptions thrown sneakily: never leave half a unit of work
                transaction.end();
                reusable = rollback(connection, e);
                if (isRetryable(transaction.failure(), lastAttempt)) {
                    return new Attempt<>(null, true);
                }
                throw e;
            }
            transaction.end();
            SQLException failure = transaction.failure();
            if (failure != null) {
                // The work caught a storage failure and went on: what it did since may be half applied.
                TaskStoreException swallowed = new TaskStoreException(
                        "A statement of this unit of work failed (" + JdbcSupport.describe(failure)
                                + ") and the unit of work went on regardless; it was rolled back",
                        failure);
                reusable = rollback(connection, swallowed);
                if (isRetryable(failure, lastAttempt)) {
                    return new Attempt<>(null, true);
                }
                throw swallowed;
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                reusable = false;
                rollback(connection, e);
                if (isRetryable(e, lastAttempt)) {
                    return new Attempt<>(null, true);
                }
                throw new TaskStoreException(
                        "Could not commit the unit of work on " + database + ": " + JdbcSupport.describe(e)
                                + ". It was rolled back, unless the database committed it"
                                + " before the connection failed",
                        e);
            }
            return new Attempt<>(result, false);
        } catch (SQLException e) {
            reusable = false;
            rollback(connection, e);
            throw new TaskStoreException(
                    "Could not start a transaction on " + connections.description() + ": " + JdbcSupport.describe(e),
                    e);
        } finally {
            if (transaction != null) {
                transaction.end();
                reusable &= transaction.failure() == null;
            }
            connections.release(connection, reusable);
        }
    }

    private boolean isRetryable(SQLException failure, boolean lastAttempt) {
        return failure != null && !lastAttempt && dialect.isTransient(failure);
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
     * Closes the connections the store opened itself (when built from a JDBC URL); a caller's data source
     * stays open. Idempotent; afterwards {@code inTransaction} throws {@link IllegalStateException}.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            connections.close();
        }
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
