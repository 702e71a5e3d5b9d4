package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * PostgreSQL 12 or later. The claim is one statement: an UPDATE of the row that a {@code FOR UPDATE SKIP
 * LOCKED} subquery picked and locked, so concurrent claimers step over each other's rows instead of
 * queueing behind them or taking the same one. {@link #claimAndRead} runs it as a CTE of the statement
 * that reads the claimed task, which saves a round trip per claim.
 */
final class PostgresDialect extends Dialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

    private static final String NOW = "(statement_timestamp() AT TIME ZONE 'UTC')";
    private static final String NOW_PLUS_MICROS = "(" + NOW + " + ? * INTERVAL '1 microsecond')";
    private static final String SET_RUNNING = setRunning(NOW_PLUS_MICROS);

    private static final String NEXT_CLAIMABLE =
            "SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE + " ORDER BY priority DESC, created_at, id LIMIT 1";

    private static final String CLAIM_AND_READ = TaskReader.claimingRead(
            SET_RUNNING + " WHERE id = (" + NEXT_CLAIMABLE + " FOR UPDATE SKIP LOCKED) RETURNING *");

    /** Waits for the first claimable row whoever holds it, for when every claimable row was locked. */
    private static final String NEXT_CLAIMABLE_WAITING = NEXT_CLAIMABLE + " FOR UPDATE";

    private static final String CLAIM_LOCKED_AND_READ =
            TaskReader.claimingRead(SET_RUNNING + " WHERE id = ? AND " + CLAIMABLE + " RETURNING *");

    private static final String LOCK_KEY = "hashtext('taskagent schema'), hashtext(COALESCE(current_schema(), ''))";

    private PostgresDialect() {}

    @Override
    JdbcDialect id() {
        return JdbcDialect.POSTGRESQL;
    }

    @Override
    String folder() {
        return "postgresql";
    }

    @Override
    void lockSchema(Connection connection) throws SQLException {
        // A session-level advisory lock per schema, so that it spans the migrations' own commits.
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_advisory_lock(" + LOCK_KEY + ")")) {
            statement.execute();
        }
    }

    @Override
    void unlockSchema(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_advisory_unlock(" + LOCK_KEY + ")")) {
            statement.execute();
        }
    }

    @Override
    void begin(Connection connection) throws SQLException {
        // READ COMMITTED is PostgreSQL's default, and the driver asks the server for the current level on
        // every getTransactionIsolation(): leave the level alone. Under a stricter server default the
        // store stays correct; its conflicts are retried (TS-1.7).
        connection.setAutoCommit(false);
    }

    @Override
    String insertSchemaVersionIfAbsent() {
        return "INSERT INTO taskagent_schema_version (version, description, installed_at) VALUES (?, ?, ?)"
                + " ON CONFLICT DO NOTHING";
    }

    @Override
    void insertSessionIfAbsent(Connection connection, String sessionId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO taskagent_sessions (session_id) VALUES (?) ON CONFLICT DO NOTHING")) {
            statement.setString(1, sessionId);
            statement.executeUpdate();
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
    Optional<Task> claimAndRead(Connection connection, String assignee, LocalDateTime now, long leaseMicros)
            throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed;
        try (PreparedStatement statement = connection.prepareStatement(CLAIM_AND_READ)) {
            statement.setLong(1, leaseMicros);
            statement.setObject(2, now);
            statement.setString(3, assignee);
            try (ResultSet rows = statement.executeQuery()) {
                claimed = TaskReader.readClaimed(rows);
            }
        }
        if (claimed.isEmpty()) {
            // SKIP LOCKED stepped over every claimable row, or there is none: a row may be locked by a
            // comment or an update, not by a claim (TS-7.6). Wait for the first one, whoever holds it.
            OptionalLong locked;
            try (PreparedStatement statement = connection.prepareStatement(NEXT_CLAIMABLE_WAITING)) {
                statement.setString(1, assignee);
                locked = queryLong(statement);
            }
            if (locked.isEmpty()) {
                return Optional.empty();
            }
            try (PreparedStatement statement = connection.prepareStatement(CLAIM_LOCKED_AND_READ)) {
                statement.setLong(1, leaseMicros);
                statement.setObject(2, now);
                statement.setLong(3, locked.getAsLong());
                statement.setString(4, assignee);
                try (ResultSet rows = statement.executeQuery()) {
                    claimed = TaskReader.readClaimed(rows);
                }
            }
        }
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Task task = claimed.get().task();
        // Null: a commit touched the task between the statement's snapshot and its lock; read it again.
        return Optional.of(
                task != null
                        ? task
                        : TaskReader.readLocked(connection, this, claimed.get().taskId()));
    }
}
