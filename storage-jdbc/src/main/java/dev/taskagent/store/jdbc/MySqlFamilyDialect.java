package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * MariaDB and MySQL. The claim locks the first claimable row with {@code SELECT … FOR UPDATE SKIP
 * LOCKED}, then updates it. The SELECT walks the claim index, which matches its ORDER BY exactly: with any
 * other plan InnoDB locks every row it scans and SKIP LOCKED stops working.
 */
abstract class MySqlFamilyDialect extends Dialect {
    private static final String NEXT_CLAIMABLE = "SELECT id FROM taskagent_tasks FORCE INDEX (taskagent_tasks_claim)"
            + " WHERE " + CLAIMABLE + " ORDER BY claim_rank, created_at, id LIMIT 1 FOR UPDATE";
    private static final String CLAIM_SELECT = NEXT_CLAIMABLE + " SKIP LOCKED";
    private static final String NOW = "UTC_TIMESTAMP(6)";
    private static final String NOW_PLUS_MICROS = "TIMESTAMPADD(MICROSECOND, ?, " + NOW + ")";
    private static final String CLAIM_UPDATE = setRunning(NOW_PLUS_MICROS) + " WHERE id = ?";

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
    Optional<Task> claimAndRead(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        return readClaimedId(connection, claimId(connection, assignee, now, leaseMicros, token));
    }

    private static OptionalLong claimId(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        OptionalLong id = lockNext(connection, CLAIM_SELECT, assignee);
        if (id.isEmpty()) {
            // SKIP LOCKED stepped over every claimable row, or there is none: a row may be locked by a
            // comment or an update, not by a claim (TS-7.6). Wait for the first one, whoever holds it.
            id = lockNext(connection, NEXT_CLAIMABLE, assignee);
        }
        if (id.isPresent()) {
            try (PreparedStatement update = connection.prepareStatement(CLAIM_UPDATE)) {
                update.setLong(1, leaseMicros);
                update.setObject(2, now);
                update.setString(3, token);
                update.setLong(4, id.getAsLong());
                update.executeUpdate();
            }
        }
        return id;
    }

    private static OptionalLong lockNext(Connection connection, String sql, String assignee) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, assignee);
            return queryLong(select);
        }
    }

    @Override
    String append(String column) {
        return "CONCAT(" + column + ", ?)";
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
