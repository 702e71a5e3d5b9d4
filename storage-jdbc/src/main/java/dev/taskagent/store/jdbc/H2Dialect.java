package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * H2 2.x, the embedded default. Its claim is in {@link Claims}. A commit is written to the database's
 * files before it returns ({@code WRITE_DELAY=0}, see {@link H2WriteDelay}).
 */
final class H2Dialect extends Dialect {
    static final H2Dialect INSTANCE = new H2Dialect();

    static final String NOW = "CAST(CURRENT_TIMESTAMP(6) AT TIME ZONE 'UTC' AS TIMESTAMP(6))";
    static final String NOW_PLUS_MICROS = "DATEADD(MICROSECOND, ?, " + NOW + ")";

    /** H2's "Timeout trying to lock table" and "Concurrent update": another transaction held the row. */
    private static final int LOCK_TIMEOUT = 50200;

    private static final int CONCURRENT_UPDATE = 90131;
    private static final String DUPLICATE_KEY = "23505";
    private static final int ADMIN_RIGHTS_REQUIRED = 90040;

    /**
     * The claims under way in this JVM, per assignee. An embedded H2 database is opened by one process, so
     * this sees every claimer that can contend for a queue's first tasks (through an H2 server, claimers in
     * other processes only make a claim wait, as without it).
     */
    private H2Dialect() {}

    @Override
    JdbcDialect id() {
        return JdbcDialect.H2;
    }

    @Override
    String folder() {
        return "h2";
    }

    /**
     * How old a lock row must be before a process takes it over when it cannot see the holder's session (a
     * user who is not an admin sees only its own sessions, or a row written by an older version).
     */
    private static final long STALE_LOCK_MILLIS = 120_000;

    /** How long a process waits for another to finish migrating the schema. */
    private static final long MIGRATION_LOCK_WAIT_MILLIS = 600_000;

    /**
     * Takes the migration lock: a row in a table of its own, inserted in auto-commit mode, since H2 commits
     * on every DDL statement and no lock of a transaction outlives the first one. Processes that start on
     * one H2 database served over TCP wait here for each other; without it, one process's {@code ALTER
     * TABLE} could copy the task table while another already wrote to it. The row names the session that
     * holds it (its id and start time): when that session is gone (its process was killed, or the database
     * was reopened after one was), the next process takes the lock over at once; while it lives, the lock
     * stays its own however long the migration takes. A user who is not an admin sees no other session, so
     * for it (and for a row without a session) a lock older than {@value #STALE_LOCK_MILLIS} ms is stale.
     */
    @Override
    void lockSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS taskagent_migration_lock (id INT NOT NULL PRIMARY KEY,"
                    + " locked_at TIMESTAMP(6) NOT NULL)");
            statement.execute("ALTER TABLE taskagent_migration_lock ADD COLUMN IF NOT EXISTS holder_session INT");
            statement.execute("ALTER TABLE taskagent_migration_lock ADD COLUMN IF NOT EXISTS holder_started"
                    + " TIMESTAMP(9) WITH TIME ZONE");
        }
        String staleByAge = "locked_at < DATEADD(MILLISECOND, -" + STALE_LOCK_MILLIS + ", " + NOW + ")";
        String stale = seesEverySession(connection)
                ? "(" + staleByAge + " AND holder_session IS NULL) OR (holder_session IS NOT NULL AND NOT EXISTS"
                        + " (SELECT 1 FROM INFORMATION_SCHEMA.SESSIONS s WHERE s.SESSION_ID = holder_session"
                        + " AND s.SESSION_START = holder_started))"
                : staleByAge;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MIGRATION_LOCK_WAIT_MILLIS);
        while (true) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO taskagent_migration_lock"
                    + " (id, locked_at, holder_session, holder_started) SELECT 1, " + NOW + ", SESSION_ID,"
                    + " SESSION_START FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()")) {
                if (insert.executeUpdate() == 1) {
                    return;
                }
                throw new SQLException(
                        "H2 did not list this connection's own session; cannot take the migration" + " lock");
            } catch (SQLException e) {
                if (!DUPLICATE_KEY.equals(e.getSQLState()) || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
            try (PreparedStatement takeOver = connection.prepareStatement(
                    "DELETE FROM taskagent_migration_lock WHERE id = 1 AND (" + stale + ")")) {
                takeOver.executeUpdate();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** Whether this connection's user sees every session of the database (an admin does; others only theirs). */
    private static boolean seesEverySession(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT IS_ADMIN FROM INFORMATION_SCHEMA.USERS WHERE USER_NAME = CURRENT_USER")) {
            return rows.next() && rows.getBoolean(1);
        }
    }

    @Override
    void unlockSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DELETE FROM taskagent_migration_lock WHERE id = 1");
        }
    }

    /** The longest large object H2 keeps in its row: a task's documents up to this size. */
    static final int IN_ROW_BYTES = 65_536;

    /**
     * Keeps a task's documents (large objects) of up to {@value #IN_ROW_BYTES} bytes in the row: H2 keeps 256
     * bytes there by default and moves the rest to its large-object store, which made claims two to three
     * times slower. A persistent setting that only admins may change; for others the store warns and works on.
     */
    @Override
    Optional<String> tune(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                        + " WHERE SETTING_NAME = 'MAX_LENGTH_INPLACE_LOB'")) {
            if (rows.next() && Integer.parseInt(rows.getString(1).strip()) >= IN_ROW_BYTES) {
                return Optional.empty();
            }
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET MAX_LENGTH_INPLACE_LOB " + IN_ROW_BYTES);
            return Optional.empty();
        } catch (SQLException e) {
            if (e.getErrorCode() != ADMIN_RIGHTS_REQUIRED) {
                throw e;
            }
            return Optional.of("H2 keeps the large objects of this database in the row only up to its"
                    + " MAX_LENGTH_INPLACE_LOB, and only an admin may raise it: claims and reads of tasks with more"
                    + " than a few comments are slower. An admin can run SET MAX_LENGTH_INPLACE_LOB "
                    + IN_ROW_BYTES + " once");
        }
    }

    /** H2 writes a commit to its files only later, unless its write delay is 0: see {@link H2WriteDelay}. */
    @Override
    Optional<String> ensureDurableCommits(Connection connection, String url) throws SQLException {
        return H2WriteDelay.ensureDurable(connection, url);
    }

    @Override
    String insertSchemaVersionIfAbsent() {
        return "MERGE INTO taskagent_schema_version (version, description, installed_at) KEY (version)"
                + " VALUES (?, ?, ?)";
    }

    @Override
    void insertSessionIfAbsent(Connection connection, String sessionId) throws SQLException {
        // A failed statement does not end an H2 transaction, so a duplicate can simply be ignored.
        try (PreparedStatement statement =
                connection.prepareStatement("INSERT INTO taskagent_sessions (session_id) VALUES (?)")) {
            statement.setString(1, sessionId);
            statement.executeUpdate();
        } catch (SQLException e) {
            if (!DUPLICATE_KEY.equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    @Override
    String databaseNow() {
        return NOW;
    }

    @Override
    String databaseNowPlusMicros() {
        return NOW_PLUS_MICROS;
    }

    @Override
    String expiredLeasesLock() {
        // H2's SKIP LOCKED with ORDER BY ... LIMIT locks every matching row: read without locks, and let
        // the reclaim's guarded update take each task once.
        return "";
    }

    @Override
    boolean cachesUnionStatements() {
        // H2's session statement cache (QUERY_CACHE_SIZE) takes plain SELECTs, not a UNION; parsing the
        // six-branch read costs four times running it.
        return false;
    }

    @Override
    boolean isTransientCode(SQLException failure) {
        return failure.getErrorCode() == LOCK_TIMEOUT || failure.getErrorCode() == CONCURRENT_UPDATE;
    }
}
