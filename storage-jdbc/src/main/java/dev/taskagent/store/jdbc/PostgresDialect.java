package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Optional;

/**
 * PostgreSQL 12 or later. The claim is one statement: an UPDATE of the row that a {@code FOR UPDATE SKIP
 * LOCKED} subquery picked and locked, so concurrent claimers step over each other's rows instead of
 * queueing behind them or taking the same one. {@link #claimAndRead} runs it as a CTE of the statement
 * that reads the claimed task, which saves a round trip per claim.
 */
final class PostgresDialect extends Dialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

    private static final String CLAIM_WHERE = " WHERE id = (SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE
            + " ORDER BY priority DESC, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)";

    private static final String CLAIM_AND_READ = TaskReader.claimingRead(SET_RUNNING + CLAIM_WHERE + " RETURNING *");

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
    Optional<Task> claimAndRead(Connection connection, String assignee, LocalDateTime now) throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed;
        try (PreparedStatement statement = connection.prepareStatement(CLAIM_AND_READ)) {
            statement.setObject(1, now);
            statement.setString(2, assignee);
            try (ResultSet rows = statement.executeQuery()) {
                claimed = TaskReader.readClaimed(rows);
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
