package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * PostgreSQL 12 or later. Its claim is one statement that claims, reads and appends the claim's event (see
 * {@link Claims}); migrations of one schema are serialised by an advisory lock.
 */
final class PostgresDialect extends Dialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

    static final String NOW = "(statement_timestamp() AT TIME ZONE 'UTC')";
    static final String NOW_PLUS_MICROS = "(" + NOW + " + ? * INTERVAL '1 microsecond')";

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
}
