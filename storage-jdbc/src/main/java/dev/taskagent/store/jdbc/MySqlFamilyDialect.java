package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * MariaDB and MySQL: the same SQL, one schema folder each. Their claim is in {@link Claims}; migrations are
 * serialised by {@code GET_LOCK}.
 */
abstract class MySqlFamilyDialect extends Dialect {
    static final String NOW = "UTC_TIMESTAMP(6)";
    static final String NOW_PLUS_MICROS = "TIMESTAMPADD(MICROSECOND, ?, " + NOW + ")";

    /** The name of the migration lock: per database, within GET_LOCK's 64-character limit. */
    private static final String LOCK_NAME = "CONCAT('taskagent.', SHA1(COALESCE(DATABASE(), '')))";

    private static final int DEADLOCK = 1213;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int MIGRATION_LOCK_SECONDS = 120;

    @Override
    void lockSchema(Connection connection) throws SQLException {
        // GET_LOCK belongs to the connection, not the transaction: DDL commits implicitly here.
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT GET_LOCK(" + LOCK_NAME + ", " + MIGRATION_LOCK_SECONDS + ")")) {
            OptionalLong locked = queryLong(statement);
            if (locked.isEmpty() || locked.getAsLong() != 1) {
                throw new SQLException("Waited " + MIGRATION_LOCK_SECONDS + " s for another process to finish"
                        + " migrating the taskagent schema (GET_LOCK); try again, or look for a stuck process");
            }
        }
    }

    @Override
    void unlockSchema(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT RELEASE_LOCK(" + LOCK_NAME + ")")) {
            statement.execute();
        }
    }

    @Override
    String insertSchemaVersionIfAbsent() {
        return "INSERT IGNORE INTO taskagent_schema_version (version, description, installed_at) VALUES (?, ?, ?)";
    }

    @Override
    void insertSessionIfAbsent(Connection connection, String sessionId) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("INSERT IGNORE INTO taskagent_sessions (session_id) VALUES (?)")) {
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
    String concat(String... parts) {
        return "CONCAT(" + String.join(", ", parts) + ")";
    }

    @Override
    String expiredLeasesHint() {
        // With any other plan InnoDB locks every row it scans, and SKIP LOCKED stops working.
        return " FORCE INDEX (taskagent_tasks_lease)";
    }

    @Override
    boolean isTransientCode(SQLException failure) {
        return failure.getErrorCode() == DEADLOCK || failure.getErrorCode() == LOCK_WAIT_TIMEOUT;
    }
}
