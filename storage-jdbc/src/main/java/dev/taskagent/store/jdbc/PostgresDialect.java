package dev.taskagent.store.jdbc;

import dev.taskagent.store.spi.FeedEncoding;
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
 * that returns the claimed task from its row (its children from the row's {@link ChildrenText}), which
 * saves a round trip per claim; with the event feed on, a second CTE
 * appends the claim's event in the same statement, which saves another. Outside a unit of work the
 * statement commits on its own ({@link #claimInOwnStatement}), which saves the commit's round trip too.
 */
final class PostgresDialect extends Dialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

    private static final String NOW = "(statement_timestamp() AT TIME ZONE 'UTC')";
    private static final String NOW_PLUS_MICROS = "(" + NOW + " + ? * INTERVAL '1 microsecond')";
    private static final String SET_RUNNING = setRunning(NOW_PLUS_MICROS);

    private static final String NEXT_CLAIMABLE =
            "SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE + " ORDER BY priority DESC, created_at, id LIMIT 1";

    private static final String CLAIM =
            SET_RUNNING + " WHERE id = (" + NEXT_CLAIMABLE + " FOR UPDATE SKIP LOCKED) RETURNING *";

    /** Waits for the first claimable row whoever holds it, for when every claimable row was locked. */
    private static final String NEXT_CLAIMABLE_WAITING = NEXT_CLAIMABLE + " FOR UPDATE";

    private static final String CLAIM_LOCKED = SET_RUNNING + " WHERE id = ? AND " + CLAIMABLE + " RETURNING *";

    /** The microseconds of the lease end's second, as the column {@code f.us}: join it to the claimed row. */
    static final String LEASE_FRACTION =
            "(SELECT CAST(EXTRACT(MICROSECONDS FROM lease_expires_at) AS BIGINT) % 1000000 AS us) f";

    /**
     * The claimed row's lease end as {@code Instant.toString()} writes it: seconds always, then the fraction
     * in groups of three digits, none when it is zero. Needs {@link #LEASE_FRACTION}.
     */
    static final String LEASE_UNTIL = "to_char(lease_expires_at, 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE"
            + " WHEN f.us = 0 THEN '' WHEN f.us % 1000 = 0 THEN '.' || lpad((f.us / 1000)::text, 3, '0')"
            + " ELSE '.' || lpad(f.us::text, 6, '0') END || 'Z'";

    /**
     * Appends the claim's {@code claimed} event, its payload as FeedEncoding writes it (version, agent,
     * attempt, lease_until, in that order); one parameter, the agent as a JSON string.
     */
    private static final String CLAIMED_EVENT = "claimed_event AS (INSERT INTO taskagent_events (task_id,"
            + " session_id, kind, payload, created_at) SELECT id, session_id, 'claimed', '{\"version\":' || version"
            + " || ',\"agent\":' || CAST(? AS TEXT) || ',\"attempt\":' || attempt || ',\"lease_until\":\"' || "
            + LEASE_UNTIL + " || '\"}', updated_at FROM claimed CROSS JOIN LATERAL " + LEASE_FRACTION + ")";

    private static final String CLAIM_AND_READ = TaskReader.claimingRead(CLAIM);
    private static final String CLAIM_LOCKED_AND_READ = TaskReader.claimingRead(CLAIM_LOCKED);
    private static final String CLAIM_READ_AND_APPEND = TaskReader.claimingRead(CLAIM, CLAIMED_EVENT);
    private static final String CLAIM_LOCKED_READ_AND_APPEND = TaskReader.claimingRead(CLAIM_LOCKED, CLAIMED_EVENT);

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
    Optional<Task> claimAndRead(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        return claim(connection, assignee, now, leaseMicros, null, token);
    }

    @Override
    boolean claimAppendsEvent() {
        return true;
    }

    @Override
    Optional<Task> claimReadAndAppendEvent(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        return claim(connection, assignee, now, leaseMicros, FeedEncoding.jsonString(assignee), token);
    }

    @Override
    boolean claimsInOwnStatement() {
        return true;
    }

    @Override
    OwnStatementClaim claimInOwnStatement(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String agentJson, String token)
            throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed =
                claimUnlocked(connection, assignee, now, leaseMicros, agentJson, token);
        if (claimed.isPresent()) {
            return new OwnStatementClaim(OwnStatementOutcome.CLAIMED, claimed.get());
        }
        // Nothing claimed: either nothing is claimable, or every claimable row was locked. A plain read
        // (it waits for no one) tells them apart; only the second needs the unit of work that waits.
        try (PreparedStatement statement = connection.prepareStatement(NEXT_CLAIMABLE)) {
            statement.setString(1, assignee);
            return new OwnStatementClaim(
                    queryLong(statement).isPresent()
                            ? OwnStatementOutcome.ONLY_LOCKED_ROWS
                            : OwnStatementOutcome.NOTHING_CLAIMABLE,
                    null);
        }
    }

    /** Claims and reads in a unit of work; with {@code agentJson}, appends the claim's event in the same statement. */
    private Optional<Task> claim(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String agentJson, String token)
            throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed =
                claimUnlocked(connection, assignee, now, leaseMicros, agentJson, token);
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
            try (PreparedStatement statement = connection.prepareStatement(
                    agentJson == null ? CLAIM_LOCKED_AND_READ : CLAIM_LOCKED_READ_AND_APPEND)) {
                statement.setLong(1, leaseMicros);
                statement.setObject(2, now);
                statement.setString(3, token);
                statement.setLong(4, locked.getAsLong());
                statement.setString(5, assignee);
                if (agentJson != null) {
                    statement.setString(6, agentJson);
                }
                try (ResultSet rows = statement.executeQuery()) {
                    claimed = TaskReader.readClaimed(rows);
                }
            }
        }
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Task task = claimed.get().task();
        // Null: the row's children's text is not valid; read the child tables (the claim holds the row) and
        // write the text back for the next claim.
        return Optional.of(
                task != null
                        ? task
                        : ChildrenText.writeBack(
                                connection,
                                TaskReader.readLocked(
                                        connection, this, claimed.get().taskId())));
    }

    /** Claims the first claimable row no one holds locked, and reads it; empty when there is none. */
    private static Optional<TaskReader.ClaimedRead> claimUnlocked(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String agentJson, String token)
            throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement(agentJson == null ? CLAIM_AND_READ : CLAIM_READ_AND_APPEND)) {
            statement.setLong(1, leaseMicros);
            statement.setObject(2, now);
            statement.setString(3, token);
            statement.setString(4, assignee);
            if (agentJson != null) {
                statement.setString(5, agentJson);
            }
            try (ResultSet rows = statement.executeQuery()) {
                return TaskReader.readClaimed(rows);
            }
        }
    }
}
