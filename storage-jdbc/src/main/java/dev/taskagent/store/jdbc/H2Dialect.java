package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * H2 2.x, the embedded default. H2's {@code SKIP LOCKED} with {@code ORDER BY … LIMIT} locks every
 * matching row, so the claim reads candidates in claim order and takes the first one whose conditional
 * UPDATE (still pending, same assignee, not archived) changes a row, waiting for whoever holds it; H2
 * re-checks the condition on the committed row after the wait. While other threads claim from the same
 * queue, it first looks for a candidate that no one holds (a {@code SKIP LOCKED} lookup by id), so that the
 * claimers spread over the candidates. A commit is written to the
 * database's files before it returns ({@code WRITE_DELAY=0}, see {@link H2WriteDelay}).
 */
final class H2Dialect extends Dialect {
    static final H2Dialect INSTANCE = new H2Dialect();

    /** How many candidates one read fetches; more are read when all of them were taken meanwhile. */
    private static final int CANDIDATES = 8;

    /**
     * The ORDER BY names the index's equality columns too: they are constant here, but without them H2
     * does not see that the claim index delivers the rows in order, and sorts every claimable row.
     */
    private static final String CANDIDATES_SQL = "SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE
            + " ORDER BY assignee, status, archived, priority DESC, created_at, id LIMIT " + CANDIDATES;

    private static final String NOW = "CAST(CURRENT_TIMESTAMP(6) AT TIME ZONE 'UTC' AS TIMESTAMP(6))";
    private static final String NOW_PLUS_MICROS = "DATEADD(MICROSECOND, ?, " + NOW + ")";

    private static final String CLAIM = setRunning(NOW_PLUS_MICROS) + " WHERE id = ? AND " + CLAIMABLE;

    /** Locks one candidate if it is still claimable and no other unit of work holds it; never waits. */
    private static final String LOCK_IF_FREE =
            "SELECT id FROM taskagent_tasks WHERE id = ? AND " + CLAIMABLE + " FOR UPDATE SKIP LOCKED";

    /** H2's "Timeout trying to lock table" and "Concurrent update": another transaction held the row. */
    private static final int LOCK_TIMEOUT = 50200;

    private static final int CONCURRENT_UPDATE = 90131;
    private static final String DUPLICATE_KEY = "23505";

    /**
     * The claims under way in this JVM, per assignee. An embedded H2 database is opened by one process, so
     * this sees every claimer that can contend for a queue's first tasks (through an H2 server, claimers in
     * other processes only make a claim wait, as without it).
     */
    private final ConcurrentHashMap<String, Integer> claiming = new ConcurrentHashMap<>();

    private H2Dialect() {}

    @Override
    JdbcDialect id() {
        return JdbcDialect.H2;
    }

    @Override
    String folder() {
        return "h2";
    }

    @Override
    void lockSchema(Connection connection) {
        // H2 commits on every DDL statement, so no lock outlives the first one; the migration relies on
        // the store's JVM-wide migration lock and on idempotent statements instead (an embedded H2 file
        // is opened by one process).
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
    Optional<Task> claimAndRead(
            Connection connection, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        boolean contended = claiming.merge(assignee, 1, Integer::sum) > 1;
        try {
            return readClaimedId(connection, claimId(connection, assignee, now, leaseMicros, token, contended));
        } finally {
            claiming.computeIfPresent(assignee, (key, count) -> count == 1 ? null : count - 1);
        }
    }

    private static OptionalLong claimId(
            Connection connection,
            String assignee,
            LocalDateTime now,
            long leaseMicros,
            String token,
            boolean contended)
            throws SQLException {
        while (true) {
            List<Long> candidates = candidates(connection, assignee);
            if (candidates.isEmpty()) {
                return OptionalLong.empty();
            }
            // With other claimers of the queue at work, first the candidates that no one holds, in claim
            // order and without waiting: the claimers spread over them instead of queueing, one at a time,
            // behind the commit of whoever took the first. (H2 locks a row by writing it, so a lone claimer
            // goes straight to the update.)
            if (contended) {
                try (PreparedStatement lock = connection.prepareStatement(LOCK_IF_FREE)) {
                    for (long id : candidates) {
                        lock.setLong(1, id);
                        lock.setString(2, assignee);
                        if (queryLong(lock).isPresent() && claim(connection, id, assignee, now, leaseMicros, token)) {
                            return OptionalLong.of(id);
                        }
                    }
                }
            }
            // Every candidate is held, or no one else claims: take each in turn, waiting for whoever holds
            // it, so that a claim never comes back empty because of a lock (TS-7.6).
            for (long id : candidates) {
                if (claim(connection, id, assignee, now, leaseMicros, token)) {
                    return OptionalLong.of(id);
                }
            }
        }
    }

    /** Claims one candidate if it is still claimable, after waiting for whoever holds its row. */
    private static boolean claim(
            Connection connection, long id, String assignee, LocalDateTime now, long leaseMicros, String token)
            throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
            claim.setLong(1, leaseMicros);
            claim.setObject(2, now);
            claim.setString(3, token);
            claim.setLong(4, id);
            claim.setString(5, assignee);
            return claim.executeUpdate() == 1;
        }
    }

    private static List<Long> candidates(Connection connection, String assignee) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(CANDIDATES_SQL)) {
            statement.setString(1, assignee);
            try (ResultSet rows = statement.executeQuery()) {
                List<Long> ids = new ArrayList<>(CANDIDATES);
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
                return ids;
            }
        }
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
