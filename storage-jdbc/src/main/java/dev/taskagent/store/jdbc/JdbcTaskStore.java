package dev.taskagent.store.jdbc;

import dev.taskagent.event.EventFeed;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /** How many connections a store opened from a JDBC URL keeps open at most, unless the builder says otherwise. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10;

    /** How long a caller of a store opened from a JDBC URL waits for a connection when all are busy. */
    public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(30);

    /** H2's error code DATABASE_ALREADY_OPEN_1: another process holds the file's lock. */
    private static final int H2_DATABASE_ALREADY_OPEN = 90020;

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
    private final JdbcEventFeed feed;
    private final UnitOfWork units;
    private final Claims claims;
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
                dialect.tune(connection).ifPresent(LOG::warn);
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
        this.units = new UnitOfWork(connections, dialect, clock, database, feed);
        this.claims = new Claims(connections, dialect, clock, database, feed, units);
        units.claims(claims);
    }

    /**
     * Opens a store on a JDBC URL through {@link java.sql.DriverManager}, for the embedded H2 default and
     * quick starts, for example {@code jdbc:h2:file:./data/tasks}. The store keeps a few connections open
     * for reuse and closes them in {@link #close()}. It opens at most {@value #DEFAULT_MAX_CONNECTIONS}
     * ({@link Builder#maxConnections(int)}); a caller beyond them waits up to 30 s for one, then fails with a
     * {@link TaskStoreException}. Applications with many threads in the database pass a pooled {@code
     * DataSource} instead.
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
     * <p>On PostgreSQL the claim is one statement that commits on its own: it claims, returns the task and
     * appends the claim's event, in one round trip. When the connection fails before the reply, the store
     * waits until the server has ended the failed session, then looks for the claim by a token the claim
     * wrote into the task row, and returns the task if the claim committed. On the other databases, and
     * when every claimable task is locked by another unit of work, it claims in a unit of work of its own.
     *
     * <p>A claimed task whose documents were damaged by hand cannot be returned: it stays claimed, so that it
     * does not block the queue, and the claim throws a {@link TaskStoreException} that names it.
     */
    @Override
    public Optional<Task> claimNext(String assignee, Duration lease) {
        return claims.claimNext(assignee, lease);
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        return units.run(work);
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
            units.close();
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
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;

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
         * Sets how many connections a store built from a JDBC URL opens at most, the one it keeps open for its
         * life included (the event feed's PostgreSQL listener is its own, besides them); callers beyond them
         * wait up to 30 s for one. Default {@value #DEFAULT_MAX_CONNECTIONS}. A store on a {@code DataSource}
         * takes what its pool gives.
         *
         * @param value 2 to 1,000
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is out of bounds
         * @throws IllegalStateException if the builder was made for a {@code DataSource}
         */
        public Builder maxConnections(int value) {
            if (value < 2 || value > 1_000) {
                throw new IllegalArgumentException("maxConnections must be between 2 and 1000, was " + value);
            }
            if (dataSource != null) {
                throw new IllegalStateException("maxConnections applies to a store built from a JDBC URL;"
                        + " a store on a DataSource takes what its pool gives: size the pool instead");
            }
            maxConnections = value;
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
                return new DriverManagerConnections(durableUrl, maxConnections, CONNECTION_TIMEOUT);
            } catch (SQLException e) {
                if (durableUrl.equals(jdbcUrl) || !H2WriteDelay.isAdminRightsRequired(e)) {
                    throw connectionFailure(e);
                }
            }
            // H2 lets only admins set WRITE_DELAY. The database may not delay writes anyway (an admin's
            // connection set it): connect as given, and let the check at start tell, or refuse.
            try {
                return new DriverManagerConnections(jdbcUrl, maxConnections, CONNECTION_TIMEOUT);
            } catch (SQLException e) {
                throw connectionFailure(e);
            }
        }

        private TaskStoreException connectionFailure(SQLException e) {
            if (e.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                return new TaskStoreException(h2FileInUse(jdbcUrl), e);
            }
            return new TaskStoreException(
                    "Could not connect to " + JdbcSupport.withoutSecrets(jdbcUrl) + ": " + JdbcSupport.describe(e)
                            + ". Check the URL, and that its JDBC driver is on the class path",
                    e);
        }

        /** The one-line message when another process holds an embedded H2 file open (H2's lock is per process). */
        static String h2FileInUse(String jdbcUrl) {
            return "The H2 database " + JdbcSupport.withoutSecrets(jdbcUrl) + " is in use by another process:"
                    + " an embedded H2 file opens in one process at a time. Stop the other process, or share the"
                    + " database: add ;AUTO_SERVER=TRUE to the URL in every process, serve it with an H2 TCP"
                    + " server (jdbc:h2:tcp://...), or use PostgreSQL or MariaDB";
        }
    }
}
