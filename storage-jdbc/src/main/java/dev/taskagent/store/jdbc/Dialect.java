package dev.taskagent.store.jdbc;

import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What differs between databases: the insert-if-absent of a session row, the lock that
 * serialises schema migrations, and which failures are transient conflicts worth another attempt (the
 * claim's statements per database are in {@link Claims}). One subclass per database; the schema lives in {@code db/<folder>/} resources with the same file names.
 *
 * <p>Stateless and thread-safe.
 */
abstract class Dialect {
    static final String PENDING = "'" + TaskStatus.PENDING.wireName() + "'";
    static final String RUNNING = "'" + TaskStatus.RUNNING.wireName() + "'";

    /** The fence of a write about a claim (TS-9.2): the task runs under this agent and attempt. */
    static final String CLAIM_HELD = "status = " + RUNNING + " AND assignee = ? AND attempt = ?";

    /** Bumps the version of a task row (TS-4.2); every write does, with updatedAt. */
    static final String BUMP_VERSION = "version = version + 1";

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?");
    private static final Pattern MARIADB_VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?-MariaDB");

    /** @return the public name of this dialect */
    abstract JdbcDialect id();

    /** @return the resource folder under {@code dev/taskagent/store/jdbc/db/} holding the schema */
    abstract String folder();

    /**
     * Takes the lock that serialises schema migrations of this schema across processes. Held until
     * {@link #unlockSchema} or the end of the transaction, whichever the database ties it to.
     */
    abstract void lockSchema(Connection connection) throws SQLException;

    /**
     * Checks at start that a commit is on its way to disk once it returns, and arranges it where the store
     * can (TS-1.8). PostgreSQL, MariaDB and MySQL keep a commit in the server, which outlives the
     * application's process; how the server itself survives a crash is the server's configuration.
     *
     * @param connection the store's first connection
     * @param url the URL the store connects with, or null when its connections come from a {@code
     *     DataSource}
     * @return a warning for the log, or empty
     * @throws dev.taskagent.store.TaskStoreException if commits are not durable and the store cannot make
     *     them so
     */
    Optional<String> ensureDurableCommits(Connection connection, String url) throws SQLException {
        return Optional.empty();
    }

    /**
     * Tunes the database for the store before the schema is migrated, where the store may; a setting it may
     * not change is a warning, not a failure.
     *
     * @return a warning for the log, or empty
     */
    Optional<String> tune(Connection connection) throws SQLException {
        return Optional.empty();
    }

    /** Releases what {@link #lockSchema} took, when it outlives transactions. */
    void unlockSchema(Connection connection) throws SQLException {}

    /** @return an INSERT of (version, description, installed_at) into the version table that ignores a duplicate */
    abstract String insertSchemaVersionIfAbsent();

    /**
     * Inserts a session row unless it exists, without failing the transaction when a concurrent
     * transaction inserted it first.
     */
    abstract void insertSessionIfAbsent(Connection connection, String sessionId) throws SQLException;

    /**
     * Returns SQL for the database's current time in UTC, as the {@code TIMESTAMP(6)} columns hold times:
     * leases are set and compared on the database's clock, so that the clocks of the workers' hosts need
     * not agree (TS-9.1).
     */
    abstract String databaseNow();

    /** Returns SQL for the database's current time in UTC plus a number of microseconds, one parameter. */
    abstract String databaseNowPlusMicros();

    /**
     * Finds running tasks whose lease expired, soonest expiry first, locking them where the database can
     * lock rows without waiting for those other units of work hold ({@code SKIP LOCKED}), so that
     * concurrent reclaims split the work; the reclaim's guarded update decides in any case (TS-9.4).
     */
    List<JdbcTransaction.Expired> lockExpiredLeases(Connection connection, int limit) throws SQLException {
        String sql = "SELECT id, attempt, max_attempts, lease_expires_at FROM taskagent_tasks" + expiredLeasesHint()
                + " WHERE status = " + RUNNING + " AND lease_expires_at < " + databaseNow()
                + " ORDER BY lease_expires_at, id LIMIT ?" + expiredLeasesLock();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, limit);
            try (ResultSet rows = statement.executeQuery()) {
                List<JdbcTransaction.Expired> expired = new ArrayList<>();
                while (rows.next()) {
                    expired.add(new JdbcTransaction.Expired(
                            rows.getLong(1),
                            rows.getInt(2),
                            rows.getInt(3),
                            JdbcSupport.fromDatabase(rows.getObject(4, LocalDateTime.class))));
                }
                return expired;
            }
        }
    }

    /** An index hint for the expired-lease query, where the database needs one to use the lease index. */
    String expiredLeasesHint() {
        return "";
    }

    /** The locking clause of the expired-lease query: {@code FOR UPDATE SKIP LOCKED} where it works. */
    String expiredLeasesLock() {
        return " FOR UPDATE SKIP LOCKED";
    }

    /**
     * Returns SQL that concatenates texts: {@code ||} on PostgreSQL and H2, {@code CONCAT} on MySQL and
     * MariaDB (where {@code ||} means OR).
     */
    String concat(String... parts) {
        return String.join(" || ", parts);
    }

    /**
     * Tells whether the driver or database keeps a prepared UNION statement between {@code
     * prepareStatement} calls on one connection; when not, {@link TaskReader} wraps its unions in a
     * derived table, which it does keep.
     */
    boolean cachesUnionStatements() {
        return true;
    }

    /** Prepares an INSERT whose generated {@code id} is read with {@code getGeneratedKeys()}, column 1. */
    PreparedStatement prepareInsertReturningId(Connection connection, String sql) throws SQLException {
        return connection.prepareStatement(sql, new String[] {"id"});
    }

    /**
     * Prepares a connection for a unit of work: auto-commit off, READ COMMITTED. Setting the level only
     * when it differs spares a round trip on drivers that know their level.
     */
    void begin(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        if (connection.getTransactionIsolation() != Connection.TRANSACTION_READ_COMMITTED) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
    }

    /**
     * Tells whether a failure is a transient conflict (deadlock, serialisation failure, lock timeout)
     * after which the unit of work may run again (TS-1.7).
     */
    boolean isTransient(SQLException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLTransactionRollbackException) {
                return true;
            }
            if (cause instanceof SQLException sql) {
                String state = sql.getSQLState();
                if ("40001".equals(state) || "40P01".equals(state) || isTransientCode(sql)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Database-specific transient error codes. */
    boolean isTransientCode(SQLException failure) {
        return false;
    }

    /** Reads the first column of a one-row, one-column query, or empty. */
    static OptionalLong queryLong(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty();
        }
    }

    /**
     * Picks the dialect of a database from its metadata.
     *
     * @throws UnsupportedDatabaseException naming what was found and what is supported
     */
    static JdbcDialect detect(DatabaseMetaData metaData) throws SQLException {
        String product = String.valueOf(metaData.getDatabaseProductName());
        String version = String.valueOf(metaData.getDatabaseProductVersion());
        int major = metaData.getDatabaseMajorVersion();
        int minor = metaData.getDatabaseMinorVersion();
        JdbcDialect dialect = null;
        if (product.equalsIgnoreCase("H2")) {
            dialect = major == 2 ? JdbcDialect.H2 : null;
        } else if (product.equalsIgnoreCase("PostgreSQL")) {
            dialect = major >= 12 ? JdbcDialect.POSTGRESQL : null;
        } else if (product.equalsIgnoreCase("MariaDB") || version.contains("MariaDB")) {
            // MySQL's own driver reports MariaDB as "MySQL 5.5.5-10.11.6-MariaDB".
            Matcher matcher = MARIADB_VERSION.matcher(version);
            int[] parsed = matcher.find() ? numbers(matcher) : new int[] {major, minor, 0};
            dialect = atLeast(parsed, 10, 6, 0) ? JdbcDialect.MARIADB : null;
        } else if (product.equalsIgnoreCase("MySQL")) {
            Matcher matcher = VERSION.matcher(version);
            int[] parsed = matcher.find() ? numbers(matcher) : new int[] {major, minor, 0};
            dialect = atLeast(parsed, 8, 0, 17) ? JdbcDialect.MYSQL : null;
        }
        if (dialect == null) {
            throw new UnsupportedDatabaseException(product, version);
        }
        return dialect;
    }

    private static int[] numbers(Matcher matcher) {
        return new int[] {
            Integer.parseInt(matcher.group(1)),
            Integer.parseInt(matcher.group(2)),
            matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3))
        };
    }

    private static boolean atLeast(int[] version, int major, int minor, int patch) {
        if (version[0] != major) {
            return version[0] > major;
        }
        if (version[1] != minor) {
            return version[1] > minor;
        }
        return version[2] >= patch;
    }

    @Override
    public String toString() {
        return id().name();
    }
}
