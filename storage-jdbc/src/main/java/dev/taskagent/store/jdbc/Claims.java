package dev.taskagent.store.jdbc;

import dev.taskagent.store.CommitOutcomeUnknownException;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.Task;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim, in one place: the statements of each database, the claim a store makes on its own ({@link
 * #claimNext}), the claim inside a unit of work ({@link #claimAndRead}), its {@code claimed} event, and
 * how a claim whose commit reply was lost is found ({@link #committed}).
 *
 * <p>Every claim marks the task running, counts the attempt, sets the lease on the database's clock,
 * bumps the version and updatedAt, and writes a random token into the row, by which a claim whose reply
 * was lost is told apart from another worker's later claim of the same task under the same name. The
 * claimed task is then built by {@link TaskReader}, as every read is, so that a claim returns exactly
 * what a read returns (TS-7.7).
 *
 * <ul>
 *   <li>PostgreSQL: one statement, an {@code UPDATE} of the row a {@code FOR UPDATE SKIP LOCKED} subquery
 *       picked, run as a CTE of the statement that reads the task and, with the feed on, appends the
 *       claim's event: one round trip, and outside a unit of work it commits on its own.
 *   <li>MariaDB and MySQL: {@code SELECT … FOR UPDATE SKIP LOCKED} on the claim index, then the {@code
 *       UPDATE}, then the read, in a unit of work.
 *   <li>H2: candidates in claim order, each taken by a conditional {@code UPDATE}, in a unit of work.
 * </ul>
 *
 * <p>Thread-safe.
 */
final class Claims {
    private static final Logger LOG = LoggerFactory.getLogger(Claims.class);

    /** How long a lost claim's lookup waits for the server to end the session that lost its reply. */
    static final Duration SESSION_END_WAIT = Duration.ofSeconds(10);

    /** How long a lookup looks again when it cannot tell whether the lost session has ended. */
    static final Duration UNTRACKED_LOOKUP = Duration.ofSeconds(1);

    /**
     * Connections a lookup tries before the outcome is called unknown: a lookup is a read, so one whose own
     * connection is lost (the server ending every session at once, say) is simply run again on another.
     */
    static final int LOOKUP_ATTEMPTS = 5;

    private final ConnectionSource connections;
    private final Dialect dialect;
    private final Clock clock;
    private final String database;
    private final JdbcEventFeed feed;
    private final UnitOfWork units;

    Claims(
            ConnectionSource connections,
            Dialect dialect,
            Clock clock,
            String database,
            JdbcEventFeed feed,
            UnitOfWork units) {
        this.connections = connections;
        this.dialect = dialect;
        this.clock = clock;
        this.database = database;
        this.feed = feed;
        this.units = units;
    }

    // ---- the statements

    /**
     * The claim's WHERE clause: the assignee's ready tasks, pending, not archived and without an open blocker
     * (TS-7.1, TS-7.4, TS-12.2), whose not-before time, if any, has passed on the database's clock (TS-9.7);
     * equality on the claim index's first four columns, so that the claim reads one range of it in its ORDER
     * BY, and the time checked on the rows it reads (a task waiting for its time is stepped over).
     */
    static String claimable(String databaseNow) {
        return "assignee = ? AND status = " + Dialect.PENDING + " AND archived = FALSE AND open_blockers = 0"
                + " AND (not_before IS NULL OR not_before <= " + databaseNow + ")";
    }

    /**
     * Marks a claimed task running and clears its not-before time (TS-9.7: the time was for this claim);
     * parameters: the lease in microseconds, updatedAt, the token. Followed by the dialect's WHERE clause.
     */
    private static String setRunning(String databaseNowPlusMicros) {
        return "UPDATE taskagent_tasks SET status = " + Dialect.RUNNING + ", attempt = attempt + 1,"
                + " lease_expires_at = " + databaseNowPlusMicros + ", version = version + 1, updated_at = ?,"
                + " claim_token = ?, not_before = NULL";
    }

    /** PostgreSQL's statements. */
    static final class Postgres {
        static final String CLAIMABLE = claimable(PostgresDialect.NOW);
        static final String NEXT_CLAIMABLE =
                "SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE + " ORDER BY priority DESC, created_at, id LIMIT 1";
        static final String SET_RUNNING = setRunning(PostgresDialect.NOW_PLUS_MICROS);
        static final String CLAIM =
                SET_RUNNING + " WHERE id = (" + NEXT_CLAIMABLE + " FOR UPDATE SKIP LOCKED) RETURNING *";

        /** Waits for the first claimable row whoever holds it, for when every claimable row was locked. */
        static final String NEXT_CLAIMABLE_WAITING = NEXT_CLAIMABLE + " FOR UPDATE";

        static final String CLAIM_LOCKED = SET_RUNNING + " WHERE id = ? AND " + CLAIMABLE + " RETURNING *";

        /** The microseconds of the lease end's second, as the column {@code f.us}. */
        static final String LEASE_FRACTION =
                "(SELECT CAST(EXTRACT(MICROSECONDS FROM lease_expires_at) AS BIGINT) % 1000000 AS us) f";

        /** The claimed row's lease end as {@code Instant.toString()} writes it; needs {@link #LEASE_FRACTION}. */
        static final String LEASE_UNTIL = "to_char(lease_expires_at, 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE"
                + " WHEN f.us = 0 THEN '' WHEN f.us % 1000 = 0 THEN '.' || lpad((f.us / 1000)::text, 3, '0')"
                + " ELSE '.' || lpad(f.us::text, 6, '0') END || 'Z'";

        /**
         * The claim's {@code claimed} event, its payload built from {@link FeedEncoding.ClaimedField}'s list
         * of fields, so that it comes out as {@link FeedEncoding} writes it; one parameter, the agent as a
         * JSON string.
         */
        static final String CLAIMED_EVENT = "claimed_event AS (INSERT INTO taskagent_events (task_id,"
                + " session_id, kind, payload, created_at) SELECT id, session_id, '" + FeedEncoding.CLAIMED + "', "
                + FeedEncoding.claimedPayloadSql(field -> switch (field) {
                    case VERSION -> "version";
                    case AGENT -> "CAST(? AS TEXT)";
                    case ATTEMPT -> "attempt";
                    case LEASE_UNTIL -> "'\"' || " + LEASE_UNTIL + " || '\"'";
                })
                + ", updated_at FROM claimed CROSS JOIN LATERAL " + LEASE_FRACTION + ")";

        static final String CLAIM_AND_READ = TaskReader.claimingRead(CLAIM, null);
        static final String CLAIM_LOCKED_AND_READ = TaskReader.claimingRead(CLAIM_LOCKED, null);
        static final String CLAIM_READ_AND_APPEND = TaskReader.claimingRead(CLAIM, CLAIMED_EVENT);
        static final String CLAIM_LOCKED_READ_AND_APPEND = TaskReader.claimingRead(CLAIM_LOCKED, CLAIMED_EVENT);

        /**
         * Claims up to a number of the first free claimable rows; parameters after {@link #SET_RUNNING}'s: the
         * assignee, the number. The ids are taken into an array first, so that the locking subquery runs once.
         */
        static final String CLAIM_MANY = SET_RUNNING + " WHERE id = ANY(ARRAY(SELECT id FROM taskagent_tasks WHERE "
                + CLAIMABLE + " ORDER BY priority DESC, created_at, id LIMIT ? FOR UPDATE SKIP LOCKED)) RETURNING *";

        static final String CLAIM_MANY_AND_READ = TaskReader.claimingReadOfMany(CLAIM_MANY, null);
        static final String CLAIM_MANY_READ_AND_APPEND = TaskReader.claimingReadOfMany(CLAIM_MANY, CLAIMED_EVENT);

        private Postgres() {}
    }

    /** MariaDB's and MySQL's statements; the SELECT walks the claim index, or InnoDB locks every row it scans. */
    private static final class MySqlFamily {
        static final String CLAIMABLE = claimable(MySqlFamilyDialect.NOW);
        static final String NEXT_CLAIMABLE = "SELECT id FROM taskagent_tasks FORCE INDEX (taskagent_tasks_claim)"
                + " WHERE " + CLAIMABLE + " ORDER BY claim_rank, created_at, id LIMIT 1 FOR UPDATE";
        static final String CLAIM_SELECT = NEXT_CLAIMABLE + " SKIP LOCKED";
        static final String CLAIM_UPDATE = setRunning(MySqlFamilyDialect.NOW_PLUS_MICROS) + " WHERE id = ?";

        /** Locks up to a number of the first free claimable rows, in claim order; parameters: assignee, number. */
        static final String CLAIM_SELECT_MANY = "SELECT id FROM taskagent_tasks FORCE INDEX (taskagent_tasks_claim)"
                + " WHERE " + CLAIMABLE + " ORDER BY claim_rank, created_at, id LIMIT ? FOR UPDATE SKIP LOCKED";

        static String claimUpdateOfMany(int count) {
            return setRunning(MySqlFamilyDialect.NOW_PLUS_MICROS) + " WHERE id IN (" + Graph.parameters(count) + ")";
        }

        private MySqlFamily() {}
    }

    /**
     * H2's statements. Its {@code SKIP LOCKED} with {@code ORDER BY … LIMIT} locks every matching row, so
     * the claim reads candidates in claim order and takes the first whose conditional UPDATE changes a row,
     * waiting for whoever holds it; while other threads of this JVM claim from the same queue it first
     * looks for a candidate no one holds, so that the claimers spread over the candidates.
     */
    private static final class H2 {
        /** How many candidates one read fetches; more are read when all of them were taken meanwhile. */
        static final int CANDIDATES = 8;

        static final String CLAIMABLE = claimable(H2Dialect.NOW);

        /** Names the index's equality columns too, or H2 sorts every claimable row. */
        static final String CANDIDATES_SQL = "SELECT id FROM taskagent_tasks WHERE " + CLAIMABLE
                + " ORDER BY assignee, status, archived, open_blockers, priority DESC, created_at, id LIMIT "
                + CANDIDATES;

        static final String CLAIM = setRunning(H2Dialect.NOW_PLUS_MICROS) + " WHERE id = ? AND " + CLAIMABLE;

        /** Locks one candidate if it is still claimable and no other unit of work holds it; never waits. */
        static final String LOCK_IF_FREE =
                "SELECT id FROM taskagent_tasks WHERE id = ? AND " + CLAIMABLE + " FOR UPDATE SKIP LOCKED";

        /** The claims under way in this JVM, per assignee (an embedded H2 database has one process). */
        static final ConcurrentHashMap<String, Integer> CLAIMING = new ConcurrentHashMap<>();

        private H2() {}
    }

    // ---- the claim a store makes on its own

    /**
     * Claims the assignee's next task in a transaction of its own. On PostgreSQL one statement that commits
     * on its own; when every claimable task is locked by another unit of work, and on the other databases, a
     * unit of work. A claimed task whose documents are damaged stays claimed, so that it does not block the
     * queue, and the claim throws naming it.
     */
    Optional<Task> claimNext(String assignee, Duration lease) {
        StoreArguments.name(assignee, "assignee");
        Leases.lease(lease);
        if (dialect.id() == JdbcDialect.POSTGRESQL) {
            units.checkCallable("claimNext");
            Optional<Task> claimed = claimInOwnStatement(assignee, lease);
            if (claimed != null) {
                return claimed;
            }
        }
        StoreClaim claim = units.run(transaction -> ((JdbcTransaction) transaction).claimForStore(assignee, lease));
        if (claim.damaged() != null) {
            throw claimedDamaged(assignee, claim.damaged());
        }
        return claim.task();
    }

    /**
     * What a store's claim in a unit of work did: the task, or the damage that kept it from being read (the
     * claim commits all the same).
     */
    record StoreClaim(Optional<Task> task, DamagedTaskException damaged) {}

    private TaskStoreException claimedDamaged(String assignee, DamagedTaskException damaged) {
        return new TaskStoreException(
                "Claimed task " + damaged.taskId() + " for '" + assignee + "', but it cannot be read: "
                        + damaged.getMessage() + ". The claim holds the task until its lease expires; then it is"
                        + " retried, or failed once its attempts are used up. Other tasks are claimed as usual",
                damaged);
    }

    /** @return the outcome of a claim by PostgreSQL's own statement, or null to claim in a unit of work */
    private Optional<Task> claimInOwnStatement(String assignee, Duration lease) {
        String agentJson = feed != null ? FeedEncoding.jsonString(assignee) : null;
        long leaseMicros = micros(lease);
        for (int attempt = 1; ; attempt++) {
            boolean lastAttempt = attempt == JdbcTaskStore.MAX_ATTEMPTS;
            String token = JdbcSupport.claimToken();
            Connection connection = units.acquireConnection();
            boolean reusable = false;
            boolean released = false;
            OwnStatement outcome;
            TaskReader.ClaimedRead read = null;
            try {
                connection.setAutoCommit(true);
                Optional<TaskReader.ClaimedRead> claimed =
                        postgresClaim(connection, new Request(assignee, now(), leaseMicros, agentJson, token), null);
                if (claimed.isPresent()) {
                    outcome = OwnStatement.CLAIMED;
                    read = claimed.get();
                } else {
                    outcome = nothingClaimed(connection, assignee);
                }
                reusable = true;
            } catch (DamagedTaskException e) {
                reusable = true;
                committedClaim();
                throw claimedDamaged(assignee, e);
            } catch (SQLException e) {
                // The failed connection goes back before the lookup takes another: a bounded pool could
                // otherwise run out while its callers wait on their lookups.
                Object session = serverSession(connection);
                connections.release(connection, false);
                released = true;
                OptionalLong committed = lostClaim(session, assignee, token, e, lastAttempt);
                if (committed == null) {
                    continue; // it did not commit, or the server rolled it back: claim again
                }
                outcome = OwnStatement.CLAIMED;
                read = new TaskReader.ClaimedRead(committed.getAsLong(), null);
            } finally {
                if (!released) {
                    connections.release(connection, reusable);
                }
            }
            switch (outcome) {
                case NOTHING_CLAIMABLE -> {
                    return Optional.empty();
                }
                case ONLY_LOCKED_ROWS -> {
                    return null;
                }
                case CLAIMED -> {
                    committedClaim();
                    // Null: another unit of work wrote the task while the claim's statement ran, or the
                    // claim's reply was lost. The claim has committed: read the task as it is now.
                    return Optional.of(read.task() != null ? read.task() : readClaimed(assignee, read.taskId()));
                }
            }
        }
    }

    private enum OwnStatement {
        CLAIMED,
        NOTHING_CLAIMABLE,
        /** Every claimable task is locked by another unit of work: claim in one, which waits (TS-7.6). */
        ONLY_LOCKED_ROWS
    }

    private OwnStatement nothingClaimed(Connection connection, String assignee) throws SQLException {
        // A plain read (it waits for no one) tells "none" from "all locked"; only the second needs to wait.
        try (PreparedStatement statement = connection.prepareStatement(Postgres.NEXT_CLAIMABLE)) {
            statement.setString(1, assignee);
            return Dialect.queryLong(statement).isPresent()
                    ? OwnStatement.ONLY_LOCKED_ROWS
                    : OwnStatement.NOTHING_CLAIMABLE;
        }
    }

    private void committedClaim() {
        if (feed != null) {
            feed.committed();
        }
    }

    /**
     * After the claim's own statement failed: the claimed task's id if the claim committed, null to claim
     * again, or a {@link TaskStoreException}.
     */
    private OptionalLong lostClaim(
            Object session, String assignee, String token, SQLException failure, boolean lastAttempt) {
        boolean unknown = false;
        if (JdbcSupport.connectionLost(failure)) {
            try {
                OptionalLong found = committedClaim(session, token);
                if (found.isPresent()) {
                    LOG.info(
                            "A claim's statement failed ({}) but the claim was committed; it is returned",
                            failure.toString());
                    return found;
                }
                if (!lastAttempt) {
                    return null;
                }
            } catch (SQLException lookupFailure) {
                failure.addSuppressed(lookupFailure);
                unknown = true;
            }
        } else if (!lastAttempt && dialect.isTransient(failure)) {
            return null;
        }
        String what = "Could not claim the next task of '" + assignee + "' on " + database + ": "
                + JdbcSupport.describe(failure);
        if (unknown) {
            throw new CommitOutcomeUnknownException(
                    what + ". Whether it committed is unknown; a task it claimed comes back when its lease expires",
                    failure);
        }
        throw new TaskStoreException(what, failure);
    }

    /** Reads a task whose claim committed, on a connection of its own. */
    private Task readClaimed(String assignee, long taskId) {
        try {
            return units.autoCommitted(connection -> TaskReader.readLocked(connection, dialect, taskId));
        } catch (DamagedTaskException e) {
            throw claimedDamaged(assignee, e);
        } catch (SQLException e) {
            throw new TaskStoreException(
                    "Claimed task " + taskId + " on " + database + " but could not read it: " + JdbcSupport.describe(e)
                            + ". It comes back when its lease expires",
                    e);
        }
    }

    // ---- the claim inside a unit of work

    /**
     * One claim's arguments.
     *
     * @param assignee whose queue
     * @param now updatedAt, the store's clock
     * @param leaseMicros the lease, in microseconds
     * @param agentJson the assignee as a JSON string, to append the claim's event in the claim's statement
     *     where {@link #appendsEvent} says so; else null
     * @param token the claim's token, written into the claimed row
     */
    record Request(String assignee, LocalDateTime now, long leaseMicros, String agentJson, String token) {}

    /** @return whether {@link #claimAndRead} appends the claim's event in its own statement on this database */
    static boolean appendsEvent(Dialect dialect) {
        return dialect.id() == JdbcDialect.POSTGRESQL;
    }

    /**
     * Claims the assignee's next pending task in the connection's unit of work, leaves it locked, and reads
     * it. Never hands one task to two transactions, and never comes back empty because a claimable task is
     * locked by a unit of work that is not a claim (TS-7.6).
     *
     * @return the claimed task, or empty when nothing is claimable
     * @throws DamagedTaskException if the claimed task's documents are damaged
     */
    static Optional<Task> claimAndRead(Connection connection, Dialect dialect, Request request) throws SQLException {
        OptionalLong claimedId;
        switch (dialect.id()) {
            case POSTGRESQL -> {
                return postgresClaimInUnitOfWork(connection, dialect, request);
            }
            case H2 -> claimedId = h2Claim(connection, request);
            case MARIADB, MYSQL -> claimedId = mySqlFamilyClaim(connection, request);
            default -> throw new IllegalStateException("No claim for " + dialect);
        }
        if (claimedId.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(TaskReader.readLocked(connection, dialect, claimedId.getAsLong()));
    }

    private static Optional<Task> postgresClaimInUnitOfWork(Connection connection, Dialect dialect, Request request)
            throws SQLException {
        Optional<TaskReader.ClaimedRead> claimed = postgresClaim(connection, request, null);
        if (claimed.isEmpty()) {
            // SKIP LOCKED stepped over every claimable row, or there is none: a row may be locked by a
            // comment or an update, not by a claim (TS-7.6). Wait for the first one, whoever holds it.
            OptionalLong locked = selectId(connection, Postgres.NEXT_CLAIMABLE_WAITING, request.assignee());
            if (locked.isEmpty()) {
                return Optional.empty();
            }
            claimed = postgresClaim(connection, request, locked.getAsLong());
        }
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Task task = claimed.get().task();
        // Null: another unit of work wrote the task between the statement's snapshot and its lock; this unit of
        // work holds the row now, so a read sees the task as the claim left it.
        return Optional.of(
                task != null
                        ? task
                        : TaskReader.readLocked(
                                connection, dialect, claimed.get().taskId()));
    }

    /**
     * Runs PostgreSQL's claiming read of the first free claimable row, or of {@code lockedId} when not null,
     * appending the claim's event in the same statement when the request carries the agent as JSON.
     */
    private static Optional<TaskReader.ClaimedRead> postgresClaim(Connection connection, Request request, Long lockedId)
            throws SQLException {
        boolean event = request.agentJson() != null;
        String sql = lockedId == null
                ? (event ? Postgres.CLAIM_READ_AND_APPEND : Postgres.CLAIM_AND_READ)
                : (event ? Postgres.CLAIM_LOCKED_READ_AND_APPEND : Postgres.CLAIM_LOCKED_AND_READ);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = setRunning(statement, request);
            if (lockedId != null) {
                statement.setLong(index++, lockedId);
            }
            statement.setString(index++, request.assignee());
            if (event) {
                statement.setString(index, request.agentJson());
            }
            try (ResultSet rows = statement.executeQuery()) {
                return TaskReader.readClaimed(rows);
            }
        }
    }

    /**
     * Binds the parameters of {@link #setRunning}: the lease, updatedAt, the token.
     *
     * @return the index of the next parameter
     */
    private static int setRunning(PreparedStatement statement, Request request) throws SQLException {
        statement.setLong(1, request.leaseMicros());
        statement.setObject(2, request.now());
        statement.setString(3, request.token());
        return 4;
    }

    /** Whether {@link #claimManyAndRead} claims on this database; elsewhere a batch is claims one by one. */
    static boolean claimsMany(Dialect dialect) {
        return switch (dialect.id()) {
            case POSTGRESQL, MARIADB, MYSQL -> true;
            default -> false;
        };
    }

    /**
     * What a batch claim took: the tasks read, in claim order, and the ids of those it claimed but could not
     * read because their documents are damaged (they stay claimed, so that they do not block the queue).
     */
    record Batch(List<Task> tasks, List<Long> damaged) {
        boolean isEmpty() {
            return tasks.isEmpty() && damaged.isEmpty();
        }
    }

    /**
     * Claims up to {@code limit} of the assignee's claimable tasks in the connection's unit of work, leaves them
     * locked and reads them, stepping over rows other units of work hold: on PostgreSQL in one statement that
     * also appends their events when the request carries the agent as JSON; on MariaDB and MySQL a locking
     * read of their ids, one UPDATE, and a read. Empty when every claimable row is held or there is none: the
     * caller then claims one task the way {@link #claimAndRead} does, which waits for a held row (TS-7.6).
     */
    static Batch claimManyAndRead(Connection connection, Dialect dialect, Request request, int limit)
            throws SQLException {
        List<Long> damaged = new ArrayList<>();
        List<Task> tasks =
                switch (dialect.id()) {
                    case POSTGRESQL -> postgresClaimMany(connection, dialect, request, limit, damaged);
                    case MARIADB, MYSQL -> mySqlFamilyClaimMany(connection, dialect, request, limit, damaged);
                    default -> throw new IllegalStateException("No batch claim for " + dialect);
                };
        return new Batch(tasks, damaged);
    }

    private static List<Task> postgresClaimMany(
            Connection connection, Dialect dialect, Request request, int limit, List<Long> damaged)
            throws SQLException {
        boolean event = request.agentJson() != null;
        List<TaskReader.ClaimedRead> reads;
        try (PreparedStatement statement = connection.prepareStatement(
                event ? Postgres.CLAIM_MANY_READ_AND_APPEND : Postgres.CLAIM_MANY_AND_READ)) {
            int index = setRunning(statement, request);
            statement.setString(index++, request.assignee());
            statement.setInt(index++, limit);
            if (event) {
                statement.setString(index, request.agentJson());
            }
            try (ResultSet rows = statement.executeQuery()) {
                reads = TaskReader.readClaimedMany(rows, damaged);
            }
        }
        List<Task> tasks = new ArrayList<>(reads.size());
        for (TaskReader.ClaimedRead read : reads) {
            // Null: another unit of work wrote the task between the statement's snapshot and its lock; this unit
            // of work holds the row now, so a read sees it as the claim left it.
            if (read.task() != null) {
                tasks.add(read.task());
            } else {
                try {
                    tasks.add(TaskReader.readLocked(connection, dialect, read.taskId()));
                } catch (DamagedTaskException e) {
                    damaged.add(read.taskId());
                }
            }
        }
        tasks.sort(CLAIM_ORDER);
        return tasks;
    }

    /** The order in which claims take an assignee's tasks: higher priority first, then older, then lower id. */
    private static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

    private static List<Task> mySqlFamilyClaimMany(
            Connection connection, Dialect dialect, Request request, int limit, List<Long> damaged)
            throws SQLException {
        List<Long> ids = new ArrayList<>(limit);
        try (PreparedStatement select = connection.prepareStatement(MySqlFamily.CLAIM_SELECT_MANY)) {
            select.setString(1, request.assignee());
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        if (ids.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement update = connection.prepareStatement(MySqlFamily.claimUpdateOfMany(ids.size()))) {
            int index = setRunning(update, request);
            for (long id : ids) {
                update.setLong(index++, id);
            }
            update.executeUpdate();
        }
        return TaskReader.readInOrder(connection, dialect, ids, damaged);
    }

    private static OptionalLong mySqlFamilyClaim(Connection connection, Request request) throws SQLException {
        OptionalLong id = selectId(connection, MySqlFamily.CLAIM_SELECT, request.assignee());
        if (id.isEmpty()) {
            // SKIP LOCKED stepped over every claimable row, or there is none (TS-7.6): wait for the first one.
            id = selectId(connection, MySqlFamily.NEXT_CLAIMABLE, request.assignee());
        }
        if (id.isPresent()) {
            try (PreparedStatement update = connection.prepareStatement(MySqlFamily.CLAIM_UPDATE)) {
                int index = setRunning(update, request);
                update.setLong(index, id.getAsLong());
                update.executeUpdate();
            }
        }
        return id;
    }

    private static OptionalLong selectId(Connection connection, String sql, String assignee) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, assignee);
            return Dialect.queryLong(select);
        }
    }

    private static OptionalLong h2Claim(Connection connection, Request request) throws SQLException {
        String assignee = request.assignee();
        boolean contended = H2.CLAIMING.merge(assignee, 1, Integer::sum) > 1;
        try {
            while (true) {
                List<Long> candidates = h2Candidates(connection, assignee);
                if (candidates.isEmpty()) {
                    return OptionalLong.empty();
                }
                // With other claimers of the queue at work, first the candidates no one holds, without
                // waiting: the claimers spread over them instead of queueing behind whoever took the first.
                if (contended) {
                    try (PreparedStatement lock = connection.prepareStatement(H2.LOCK_IF_FREE)) {
                        for (long id : candidates) {
                            lock.setLong(1, id);
                            lock.setString(2, assignee);
                            if (Dialect.queryLong(lock).isPresent() && h2Take(connection, id, request)) {
                                return OptionalLong.of(id);
                            }
                        }
                    }
                }
                // Every candidate is held, or no one else claims: take each in turn, waiting for whoever
                // holds it, so that a claim never comes back empty because of a lock (TS-7.6).
                for (long id : candidates) {
                    if (h2Take(connection, id, request)) {
                        return OptionalLong.of(id);
                    }
                }
            }
        } finally {
            H2.CLAIMING.computeIfPresent(assignee, (key, count) -> count == 1 ? null : count - 1);
        }
    }

    /** Claims one candidate if it is still claimable, after waiting for whoever holds its row. */
    private static boolean h2Take(Connection connection, long id, Request request) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(H2.CLAIM)) {
            int index = setRunning(claim, request);
            claim.setLong(index++, id);
            claim.setString(index, request.assignee());
            return claim.executeUpdate() == 1;
        }
    }

    private static List<Long> h2Candidates(Connection connection, String assignee) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(H2.CANDIDATES_SQL)) {
            statement.setString(1, assignee);
            try (ResultSet rows = statement.executeQuery()) {
                List<Long> ids = new ArrayList<>(H2.CANDIDATES);
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
                return ids;
            }
        }
    }

    // ---- finding a claim whose commit reply was lost

    /** Whether the claims of a unit of work whose commit failed were committed after all. */
    enum Committed {
        ALL,
        NONE,
        UNKNOWN
    }

    /**
     * Looks for the claims of a unit of work whose commit failed: after the server has ended the failed
     * connection's session ({@link #serverSession}, null when unknown), each committed claim's token is in its
     * row; before, the outcome is not decided.
     */
    Committed committed(List<JdbcTransaction.Claim> claims, Object session, Throwable commitFailure) {
        try {
            int found = lookUp(connection -> {
                awaitSessionEnd(connection, session);
                int count = 0;
                for (JdbcTransaction.Claim claim : claims) {
                    if (tokenHolder(connection, claim.token(), session).isPresent()) {
                        count++;
                    }
                }
                return count;
            });
            if (found == claims.size()) {
                LOG.info(
                        "The commit of a claim failed ({}) but the claim was committed; it is returned",
                        commitFailure.toString());
                return Committed.ALL;
            }
            return found == 0 ? Committed.NONE : Committed.UNKNOWN;
        } catch (SQLException e) {
            commitFailure.addSuppressed(e);
            return Committed.UNKNOWN;
        }
    }

    /** The running task whose claim wrote this token, once the failed connection's session has ended. */
    private OptionalLong committedClaim(Object session, String token) throws SQLException {
        return lookUp(connection -> {
            awaitSessionEnd(connection, session);
            return tokenHolder(connection, token, session);
        });
    }

    /**
     * Runs a lookup on a connection of its own, again on another (up to {@link #LOOKUP_ATTEMPTS}) when its
     * connection is lost: the server that killed the claim's connection may kill the lookup's too.
     *
     * @throws SQLException the first failure, the later ones suppressed in it, when every attempt failed or a
     *     failure was not a lost connection
     */
    private <T> T lookUp(UnitOfWork.ConnectionWork<T> lookup) throws SQLException {
        SQLException failure = null;
        for (int attempt = 1; ; attempt++) {
            try {
                return units.autoCommitted(lookup);
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                if (attempt == LOOKUP_ATTEMPTS || !JdbcSupport.connectionLost(e)) {
                    throw failure;
                }
            }
        }
    }

    /**
     * The task holding the token. When the failed session could not be identified, looks again for a while:
     * a commit that the server finishes after the client saw the connection fail is seen a moment later.
     */
    private static OptionalLong tokenHolder(Connection connection, String token, Object session) throws SQLException {
        long deadline = System.nanoTime() + (session == null ? UNTRACKED_LOOKUP.toNanos() : 0);
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT id FROM taskagent_tasks WHERE status = " + Dialect.RUNNING + " AND claim_token = ?")) {
            statement.setString(1, token);
            while (true) {
                OptionalLong found = Dialect.queryLong(statement);
                if (found.isPresent() || System.nanoTime() - deadline >= 0) {
                    return found;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }

    /**
     * The failed connection's session on the server (PostgreSQL's backend pid, MariaDB's and MySQL's
     * connection id), read from the driver without a round trip; null when the driver does not tell.
     */
    Object serverSession(Connection failed) {
        String[][] accessors =
                switch (dialect.id()) {
                    case POSTGRESQL -> new String[][] {{"org.postgresql.PGConnection", "getBackendPID"}};
                    case MARIADB, MYSQL ->
                        new String[][] {
                            {"org.mariadb.jdbc.Connection", "getThreadId"},
                            {"com.mysql.cj.jdbc.JdbcConnection", "getId"}
                        };
                    default -> new String[0][];
                };
        for (String[] accessor : accessors) {
            try {
                Class<?> type =
                        Class.forName(accessor[0], false, failed.getClass().getClassLoader());
                if (failed.isWrapperFor(type)) {
                    Method method = type.getMethod(accessor[1]);
                    return method.invoke(failed.unwrap(type));
                }
            } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
                LOG.debug(
                        "Could not read the server session of a failed connection by {}: {}",
                        accessor[0],
                        e.toString());
            }
        }
        return null;
    }

    /**
     * Waits until the server no longer runs the session, so that whether its last commit happened is
     * decided; gives up after {@link #SESSION_END_WAIT}.
     */
    private void awaitSessionEnd(Connection connection, Object session) throws SQLException {
        if (session == null) {
            return;
        }
        String sql = dialect.id() == JdbcDialect.POSTGRESQL
                ? "SELECT 1 FROM pg_stat_activity WHERE pid = ?"
                : "SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?";
        long deadline = System.nanoTime() + SESSION_END_WAIT.toNanos();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, ((Number) session).longValue());
            while (Dialect.queryLong(statement).isPresent()) {
                if (System.nanoTime() - deadline >= 0) {
                    // A time-out, not a lost connection: looking again on another connection would not help.
                    throw new SQLException(
                            "The server still runs session " + session + " of the failed connection after "
                                    + SESSION_END_WAIT.toSeconds() + " s",
                            "HYT00");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
    }

    private LocalDateTime now() {
        return JdbcSupport.toDatabase(JdbcSupport.truncate(clock.instant()));
    }

    static long micros(Duration lease) {
        return TimeUnit.NANOSECONDS.toMicros(lease.toNanos());
    }
}
