package dev.taskagent.store.jdbc;

import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.TaskGraphs;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The work graph's SQL (TS-12): the dependencies in {@code taskagent_dependencies}, the copy of a task's
 * blocker ids in its row ({@code blocked_by}), the open blocker counts, the cycle check and the subtree
 * walks. Every change of a dependency or a parent first locks the one row of {@code taskagent_graph_lock}
 * ({@link #lockGraph}), and reads the graph after it, at READ COMMITTED: a statement sees every edge that
 * committed before it started, so of two units of work whose edges together would close a cycle, the second
 * one sees the first one's edge and is refused.
 *
 * <p>Thread-safe (stateless).
 */
final class Graph {
    /** Ids per IN list. */
    private static final int IN_LIST_SIZE = 200;

    /**
     * Whether {@code ?2} is reachable from {@code ?1} along "is depended on by" edges: one recursive statement,
     * each task visited once (UNION), stopped at the first match where the database evaluates lazily.
     */
    private static final String REACHES = "WITH RECURSIVE reach (id) AS (SELECT dependant_id FROM"
            + " taskagent_dependencies WHERE blocker_id = ? UNION SELECT d.dependant_id FROM taskagent_dependencies d"
            + " JOIN reach r ON d.blocker_id = r.id) SELECT 1 FROM reach WHERE id = ?";

    private Graph() {}

    /** The text of {@code blocked_by}: the ids, sorted, comma-separated; null for none. */
    static String writeIds(List<Long> ids) {
        if (ids.isEmpty()) {
            return null;
        }
        StringJoiner text = new StringJoiner(",");
        ids.stream().sorted().forEach(id -> text.add(Long.toString(id)));
        return text.toString();
    }

    /**
     * Reads {@code blocked_by}.
     *
     * @throws DamagedTaskException if the text is not a list of ids
     */
    static List<Long> readIds(String text, long taskId) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<Long> ids = new ArrayList<>();
        try {
            for (String part : text.split(",")) {
                ids.add(Long.parseLong(part));
            }
        } catch (NumberFormatException e) {
            throw new DamagedTaskException(
                    taskId, "blocked_by", "not a comma-separated list of ids: " + e.getMessage());
        }
        return ids;
    }

    /** The clause that locks rows against writers but not against each other, where the database has one. */
    static String shareLock(Dialect dialect) {
        return switch (dialect.id()) {
            case POSTGRESQL, MYSQL -> " FOR SHARE";
            case MARIADB -> " LOCK IN SHARE MODE";
            default -> " FOR UPDATE";
        };
    }

    /** Locks the graph's one row until the transaction ends: serialises changes of dependencies and parents. */
    static void lockGraph(Connection connection) throws SQLException {
        try (PreparedStatement statement =
                        connection.prepareStatement("SELECT id FROM taskagent_graph_lock WHERE id = 1 FOR UPDATE");
                ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("taskagent_graph_lock has no row; the schema of version 7 is incomplete");
            }
        }
    }

    /**
     * Reads the statuses of tasks, locking their rows against a change of status until the transaction ends,
     * so that an open blocker count computed from them stays right (TS-12.3).
     *
     * @return each task's status, in the order given
     * @throws TaskNotFoundException naming the first id that does not exist
     */
    static Map<Long, TaskStatus> lockStatuses(Connection connection, Dialect dialect, List<Long> ids)
            throws SQLException {
        Map<Long, TaskStatus> statuses = new HashMap<>();
        for (int from = 0; from < ids.size(); from += IN_LIST_SIZE) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IN_LIST_SIZE));
            try (PreparedStatement statement = connection.prepareStatement("SELECT id, status FROM taskagent_tasks"
                    + " WHERE id IN (" + parameters(chunk.size()) + ")" + shareLock(dialect))) {
                for (int index = 0; index < chunk.size(); index++) {
                    statement.setLong(index + 1, chunk.get(index));
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        statuses.put(rows.getLong(1), TaskStatus.fromWireName(rows.getString(2)));
                    }
                }
            }
        }
        for (long id : ids) {
            if (!statuses.containsKey(id)) {
                throw new TaskNotFoundException(id);
            }
        }
        return statuses;
    }

    /** @return whether the task exists */
    static boolean exists(Connection connection, long taskId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT id FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, taskId);
            return Dialect.queryLong(statement).isPresent();
        }
    }

    /** Inserts the edges "dependant waits for each blocker". */
    static void insertEdges(Connection connection, long dependantId, List<Long> blockerIds) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO taskagent_dependencies (dependant_id, blocker_id) VALUES (?, ?)")) {
            for (long blockerId : blockerIds) {
                insert.setLong(1, dependantId);
                insert.setLong(2, blockerId);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** @return whether the dependency exists */
    static boolean edgeExists(Connection connection, long dependantId, long blockerId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT blocker_id FROM taskagent_dependencies WHERE dependant_id = ? AND blocker_id = ?")) {
            statement.setLong(1, dependantId);
            statement.setLong(2, blockerId);
            return Dialect.queryLong(statement).isPresent();
        }
    }

    /**
     * Finds the chain by which {@code to} already waits for {@code from}: the recursive statement tells
     * whether there is one; only then is the chain itself walked, breadth first.
     *
     * @return the chain, {@code from} first and {@code to} last; empty when there is none
     */
    static Optional<List<Long>> dependencyPath(Connection connection, Dialect dialect, long from, long to)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(reachesSql(dialect))) {
            statement.setLong(1, from);
            statement.setLong(2, to);
            if (Dialect.queryLong(statement).isEmpty()) {
                return Optional.empty();
            }
        }
        try (PreparedStatement dependants = connection.prepareStatement(
                "SELECT dependant_id FROM taskagent_dependencies WHERE blocker_id = ? ORDER BY dependant_id")) {
            return TaskGraphs.path(from, to, id -> {
                try {
                    return longs(dependants, id);
                } catch (SQLException e) {
                    throw new SqlFailure(e);
                }
            });
        } catch (SqlFailure e) {
            throw e.getCause();
        }
    }

    private static String reachesSql(Dialect dialect) {
        return switch (dialect.id()) {
            // MySQL stops a recursive statement after 1,000 rounds unless told otherwise.
            case MYSQL ->
                REACHES.replace(
                                "SELECT 1 FROM reach",
                                "SELECT /*+ SET_VAR(cte_max_recursion_depth = 4294967295) */ 1 FROM reach")
                        + " LIMIT 1";
            case H2 -> REACHES + " FETCH FIRST 1 ROW ONLY";
            default -> REACHES + " LIMIT 1";
        };
    }

    /**
     * The chain of parents from {@code parentId} up to {@code taskId} when {@code taskId} is {@code parentId}
     * or one of its ancestors, so that making {@code parentId} the parent of {@code taskId} would close a
     * cycle (TS-12.6).
     *
     * @return the chain, {@code parentId} first and {@code taskId} last; empty when there is none
     */
    static Optional<List<Long>> parentChain(Connection connection, long taskId, long parentId) throws SQLException {
        List<Long> chain = new ArrayList<>();
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT parent_id FROM taskagent_tasks WHERE id = ?")) {
            for (long up = parentId; up != 0; ) {
                chain.add(up);
                if (up == taskId) {
                    return Optional.of(List.copyOf(chain));
                }
                statement.setLong(1, up);
                up = Dialect.queryLong(statement).orElse(0);
            }
        }
        return Optional.empty();
    }

    /**
     * The ids of a task's subtasks and theirs, all the way down, that are not archived; one statement per
     * level of the tree.
     */
    static List<Long> unarchivedDescendants(Connection connection, long parentId) throws SQLException {
        List<Long> found = new ArrayList<>();
        List<Long> level = List.of(parentId);
        while (!level.isEmpty()) {
            List<Long> next = new ArrayList<>();
            for (int from = 0; from < level.size(); from += IN_LIST_SIZE) {
                List<Long> chunk = level.subList(from, Math.min(level.size(), from + IN_LIST_SIZE));
                try (PreparedStatement statement = connection.prepareStatement("SELECT id, archived FROM"
                        + " taskagent_tasks WHERE parent_id IN (" + parameters(chunk.size()) + ") FOR UPDATE")) {
                    for (int index = 0; index < chunk.size(); index++) {
                        statement.setLong(index + 1, chunk.get(index));
                    }
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            next.add(rows.getLong(1));
                            if (!rows.getBoolean(2)) {
                                found.add(rows.getLong(1));
                            }
                        }
                    }
                }
            }
            level = next;
        }
        return found;
    }

    /** The ids the statement returns for one id parameter. */
    static List<Long> longs(PreparedStatement statement, long id) throws SQLException {
        statement.setLong(1, id);
        return longs(statement);
    }

    /** The first column of the rows of a statement whose parameters are set. */
    static List<Long> longs(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            List<Long> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
            return ids;
        }
    }

    /**
     * Moves the open blocker count of a task's dependants (TS-12.3) in one statement, without versioning
     * them (the count is derived).
     *
     * @return the number of dependants
     */
    static int countBlocker(Connection connection, long blockerId, int delta) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET open_blockers ="
                + " open_blockers + ? WHERE id IN (SELECT dependant_id FROM taskagent_dependencies WHERE"
                + " blocker_id = ?)")) {
            statement.setInt(1, delta);
            statement.setLong(2, blockerId);
            return statement.executeUpdate();
        }
    }

    /**
     * The {@code unblocked} events of a blocker's dependants that have no open blocker now, read in one
     * statement, their payload as {@link FeedEncoding} writes it for {@link dev.taskagent.event.TaskEvent.Unblocked}.
     */
    static List<FeedEncoding.Encoded> unblockedDependants(Connection connection, long blockerId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT id, session_id, version, assignee FROM"
                + " taskagent_tasks WHERE id IN (SELECT dependant_id FROM taskagent_dependencies WHERE blocker_id = ?)"
                + " AND open_blockers = 0")) {
            statement.setLong(1, blockerId);
            try (ResultSet rows = statement.executeQuery()) {
                List<FeedEncoding.Encoded> events = new ArrayList<>();
                while (rows.next()) {
                    events.add(unblocked(rows.getLong(1), rows.getString(2), rows.getLong(3), rows.getString(4)));
                }
                return events;
            }
        }
    }

    /** An {@code unblocked} event as {@link FeedEncoding#encode} writes it: the version, then the assignee. */
    static FeedEncoding.Encoded unblocked(long taskId, String sessionId, long version, String assignee) {
        String payload = "{\"version\":" + version
                + (assignee == null ? "" : ",\"assignee\":" + FeedEncoding.jsonString(assignee)) + "}";
        return new FeedEncoding.Encoded(taskId, sessionId, FeedEncoding.UNBLOCKED, payload);
    }

    static String parameters(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /** Carries a SQLException out of a lambda. */
    private static final class SqlFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SqlFailure(SQLException cause) {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause() {
            return (SQLException) super.getCause();
        }
    }
}
