package dev.taskagent.store.jdbc;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.store.spi.TaskGraphs;
import dev.taskagent.store.spi.TaskSnapshots;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskExistsException;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.task.TaskUpdate.Field;
import dev.taskagent.task.TextLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One unit of work on one connection. Every write to a task first updates the task's row (version and
 * updatedAt, TS-4.2), which locks it: writers of one task are serialised by the database, so appends are
 * never lost and child rows get their ids in commit order. Writers of one session's order numbers and
 * message links are serialised by locking the session's row.
 *
 * <p>Not thread-safe: used by the thread of its unit of work only (TS-1.4).
 */
final class JdbcTransaction implements TaskTransaction {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcTransaction.class);

    /** The owner of a message linked to the planning section (its task_id is NULL). */
    private static final long PLANNING_SECTION = 0L;

    /** Message ids looked up per statement (IN lists stay well within every database's limits). */
    private static final int IN_LIST_SIZE = 200;

    /** Events written per INSERT when a unit of work ends (five parameters each). */
    private static final int EVENTS_PER_INSERT = 100;

    private static final String BUMP =
            "UPDATE taskagent_tasks SET " + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id = ?";

    private static final String INSERT_TASK = "INSERT INTO taskagent_tasks (session_id, task_order, description,"
            + " status, priority, assignee, previous_assignee, created_by, archived, steps, current_step,"
            + " created_at, updated_at, version, attempt, max_attempts, progresses, preferences, comments, links,"
            + " parent_id, open_blockers, blocked_by, tags, metadata, not_before, idempotency_key)"
            + " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, FALSE, ?, 0, ?, ?, 1, 0, ?, '" + TaskDocument.EMPTY + "', '"
            + TaskDocument.EMPTY + "', '" + TaskDocument.EMPTY + "', '" + TaskDocument.EMPTY
            + "', ?, ?, ?, ?, ?, ?, ?)";

    private final Connection connection;
    private final Dialect dialect;
    private final Clock clock;
    private final String database;
    /** Whether the store keeps an event feed, so that the unit of work's events are appended at its end. */
    private final boolean feedEvents;

    private final Thread owner = Thread.currentThread();
    /** The claims this unit of work made; each gave its task its claimed event itself (TS-10.7). */
    private final List<Claim> claims = new ArrayList<>(1);

    private final List<FeedEncoding.Encoded> recorded = new ArrayList<>();
    /** The tasks this unit of work wrote and read back, as they are now (TS-10.1). */
    private final Map<Long, Task> written = new LinkedHashMap<>();
    /** The tasks it bumped without reading them back (previous holders of moved messages). */
    private final Set<Long> bumped = new LinkedHashSet<>();

    private boolean ended;
    private SQLException failure;
    private boolean appendedEvents;

    JdbcTransaction(Connection connection, Dialect dialect, Clock clock, String database, boolean feedEvents) {
        this.connection = connection;
        this.dialect = dialect;
        this.clock = clock;
        this.database = database;
        this.feedEvents = feedEvents;
    }

    /** Ends the transaction: every later call throws {@link IllegalStateException} (TS-1.4). */
    void end() {
        ended = true;
    }

    /** @return the first storage failure this unit of work met, or null */
    SQLException failure() {
        return failure;
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs SQL, turning a failure into a {@link TaskStoreException} that names the operation (TS-1.6). */
    private <T> T sql(String operation, SqlWork<T> work) {
        if (failure != null) {
            throw new TaskStoreException(
                    "Cannot " + operation + ": an earlier statement of this unit of work" + " failed ("
                            + JdbcSupport.describe(failure) + "), so it will be rolled back",
                    failure);
        }
        try {
            return work.run();
        } catch (SQLException e) {
            failure = e;
            throw new TaskStoreException(
                    "Could not " + operation + " on " + database + ": " + JdbcSupport.describe(e), e);
        }
    }

    private void checkUsable() {
        if (ended) {
            throw new IllegalStateException("This TaskTransaction ended with its unit of work");
        }
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("A TaskTransaction may only be used on the thread of its unit of work");
        }
    }

    private Instant now() {
        return JdbcSupport.truncate(clock.instant());
    }

    // ---- reads

    @Override
    public Optional<Task> findTask(long taskId) {
        checkUsable();
        StoreArguments.taskId(taskId);
        return sql("read task " + taskId, () -> readOne(taskId));
    }

    @Override
    public List<Task> listTasks(String sessionId) {
        checkUsable();
        StoreArguments.sessionId(sessionId);
        return sql("list the tasks of session '" + sessionId + "'", () -> {
            List<Task> tasks =
                    new ArrayList<>(TaskReader.read(connection, dialect, TaskReader.Filter.session(sessionId)));
            tasks.sort(TaskReader.SESSION_ORDER);
            return List.copyOf(tasks);
        });
    }

    @Override
    public Optional<Task> findTaskByOrder(String sessionId, int order) {
        checkUsable();
        StoreArguments.sessionId(sessionId);
        if (order < 1) {
            return Optional.empty();
        }
        return sql(
                "read task " + order + " of session '" + sessionId + "'",
                () -> TaskReader.read(connection, dialect, TaskReader.Filter.sessionOrder(sessionId, order)).stream()
                        .findFirst());
    }

    @Override
    public List<Task> listQueue(String assignee) {
        checkUsable();
        StoreArguments.name(assignee, "assignee");
        return sql("list the queue of '" + assignee + "'", () -> {
            List<Task> tasks = new ArrayList<>(TaskReader.read(connection, dialect, TaskReader.Filter.queue(assignee)));
            tasks.sort(TaskReader.CLAIM_ORDER);
            return List.copyOf(tasks);
        });
    }

    @Override
    public TaskPage listQueuePage(QueueQuery query) {
        checkUsable();
        Objects.requireNonNull(query, "query");
        return sql(
                "list a page of the queue of '" + query.assignee() + "'",
                () -> QueuePages.page(connection, dialect, query));
    }

    @Override
    public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
        checkUsable();
        return sql(
                "list a page of the dead letters",
                () -> DeadLetterPages.page(connection, dialect, defaultMaxAttempts, limit, cursor));
    }

    @Override
    public List<String> listSessionIds() {
        checkUsable();
        return sql("list the sessions", () -> sortedStrings("SELECT DISTINCT session_id FROM taskagent_tasks"));
    }

    @Override
    public List<String> listAssignees() {
        checkUsable();
        return sql(
                "list the assignees",
                () -> sortedStrings("SELECT DISTINCT assignee FROM taskagent_tasks"
                        + " WHERE assignee IS NOT NULL AND archived = FALSE"));
    }

    // Sorted in Java, not by ORDER BY: the databases' collations disagree with String.compareTo.
    private List<String> sortedStrings(String query) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(query);
                ResultSet rows = statement.executeQuery()) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            values.sort(null);
            return List.copyOf(values);
        }
    }

    @Override
    public List<String> planningMessageIds(String sessionId) {
        checkUsable();
        StoreArguments.sessionId(sessionId);
        return sql("read the planning section of session '" + sessionId + "'", () -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT message_id FROM taskagent_messages"
                    + " WHERE session_id = ? AND task_id IS NULL ORDER BY seq")) {
                statement.setString(1, sessionId);
                try (ResultSet rows = statement.executeQuery()) {
                    List<String> ids = new ArrayList<>();
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                    return List.copyOf(ids);
                }
            }
        });
    }

    /** Counts pending, running and lease-expired tasks in one statement, the expiry on the database's clock. */
    TaskCounts countTasks() {
        checkUsable();
        String sql = "SELECT COALESCE(SUM(CASE WHEN status = " + Dialect.PENDING + " THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN status = " + Dialect.RUNNING + " THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN status = " + Dialect.RUNNING + " AND lease_expires_at < "
                + dialect.databaseNow() + " THEN 1 ELSE 0 END), 0)"
                + " FROM taskagent_tasks WHERE archived = FALSE AND status IN (" + Dialect.PENDING + ", "
                + Dialect.RUNNING + ")";
        return sql("count the tasks", () -> {
            try (PreparedStatement statement = connection.prepareStatement(sql);
                    ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new TaskCounts(rows.getLong(1), rows.getLong(2), rows.getLong(3));
            }
        });
    }

    @Override
    public TaskPage searchTasks(SearchQuery query) {
        checkUsable();
        Objects.requireNonNull(query, "query");
        return sql(
                "search tasks for '" + String.join(" ", query.words()) + "'",
                () -> Search.page(connection, dialect, query));
    }

    private Optional<Task> readOne(long taskId) throws SQLException {
        return TaskReader.read(connection, dialect, TaskReader.Filter.id(taskId)).stream()
                .findFirst();
    }

    /** Reads a task this unit of work wrote and holds locked, so it exists, and notes it for the feed. */
    private Task readLocked(long taskId) throws SQLException {
        return wrote(TaskReader.readLocked(connection, dialect, taskId));
    }

    private Task wrote(Task task) {
        written.put(task.id(), task);
        return task;
    }

    // ---- inserts

    @Override
    public Task insertTask(NewTask task, int afterOrder) {
        checkUsable();
        Objects.requireNonNull(task, "task");
        StoreArguments.afterOrder(afterOrder);
        String sessionId = task.sessionId();
        return sql("insert a task into session '" + sessionId + "'", () -> {
            // TS-3.6 first, as every store checks it: a held key is refused before the graph is read or locked.
            String key = task.idempotencyKey();
            if (key != null) {
                refuseExistingKey(key);
            }
            // TS-12.1: an unknown parent or blocker is refused before anything is written. The blockers stay
            // locked against a change of status, so that the open count stays right until this commits.
            if (task.parentId() != 0 && !Graph.exists(connection, task.parentId())) {
                throw new TaskNotFoundException(task.parentId());
            }
            int openBlockers = 0;
            if (!task.blockedBy().isEmpty()) {
                Map<Long, TaskStatus> statuses = Graph.lockStatuses(connection, dialect, task.blockedBy());
                for (TaskStatus status : statuses.values()) {
                    if (status != TaskStatus.SUCCESS) {
                        openBlockers++;
                    }
                }
            }
            // A key that another unit of work commits meanwhile makes the INSERT fail on the unique index: back to
            // here, and refused as above. Released once the INSERT went through, so that a unit of work creating many
            // tasks with keys does not pile up nested transactions (PostgreSQL keeps 64 per transaction in memory).
            Savepoint beforeWrites = key == null ? null : connection.setSavepoint();
            lockSession(sessionId);
            int count;
            // Orders run 1..N without gaps (TS-3.5): the highest is the count, read from the end of the session's
            // index instead of counting every task, which made filling a session quadratic. H2 reads the index
            // backwards only when the ORDER BY names all of its columns.
            try (PreparedStatement statement = connection.prepareStatement("SELECT task_order FROM taskagent_tasks"
                    + " WHERE session_id = ? ORDER BY session_id DESC, task_order DESC LIMIT 1")) {
                statement.setString(1, sessionId);
                count = (int) Dialect.queryLong(statement).orElse(0);
            }
            int position = Math.min(afterOrder, count);
            if (position < count) {
                // No unique index on (session_id, task_order): the shift cannot collide with itself, and the
                // session's lock keeps orders contiguous.
                try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks"
                        + " SET task_order = task_order + 1 WHERE session_id = ? AND task_order > ?")) {
                    statement.setString(1, sessionId);
                    statement.setInt(2, position);
                    statement.executeUpdate();
                }
            }
            Instant now = now();
            long id;
            try (PreparedStatement statement = dialect.prepareInsertReturningId(connection, INSERT_TASK)) {
                statement.setString(1, sessionId);
                statement.setInt(2, position + 1);
                statement.setString(3, task.description());
                statement.setString(4, TaskStatus.PENDING.wireName());
                statement.setInt(5, task.priority());
                statement.setString(6, task.assignee());
                statement.setString(7, task.createdBy());
                statement.setString(8, task.steps());
                statement.setObject(9, JdbcSupport.toDatabase(now));
                statement.setObject(10, JdbcSupport.toDatabase(now));
                statement.setInt(11, task.maxAttempts());
                statement.setLong(12, task.parentId());
                statement.setInt(13, openBlockers);
                setText(statement, 14, Graph.writeIds(task.blockedBy()));
                setText(statement, 15, task.tags().isEmpty() ? null : TaskDocument.strings(task.tags()));
                setText(statement, 16, task.metadata());
                if (task.notBefore() == null) {
                    statement.setNull(17, Types.TIMESTAMP);
                } else {
                    statement.setObject(17, JdbcSupport.toDatabase(task.notBefore()));
                }
                statement.setString(18, key);
                try {
                    statement.executeUpdate();
                    if (beforeWrites != null) {
                        connection.releaseSavepoint(beforeWrites);
                    }
                } catch (SQLException e) {
                    if (beforeWrites == null
                            || e.getSQLState() == null
                            || !e.getSQLState().startsWith("23")) {
                        throw e;
                    }
                    connection.rollback(beforeWrites);
                    refuseExistingKey(key);
                    throw e; // another constraint failed
                }
                try (ResultSet keys = statement.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("The database returned no id for the new task");
                    }
                    id = keys.getLong(1);
                }
            }
            Search.write(connection, dialect, id);
            if (!task.blockedBy().isEmpty()) {
                Graph.insertEdges(connection, id, task.blockedBy());
            }
            return wrote(TaskBuilder.from(TaskSnapshots.created(task, id, position + 1, now))
                    .openBlockers(openBlockers)
                    .build());
        });
    }

    private static void setText(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }

    /**
     * Locks the session's row, creating it first if needed; serialises the writers of the session's
     * order numbers and message links until this transaction ends.
     */
    private void lockSession(String sessionId) throws SQLException {
        if (selectSessionForUpdate(sessionId)) {
            return;
        }
        dialect.insertSessionIfAbsent(connection, sessionId);
        if (!selectSessionForUpdate(sessionId)) {
            // Inserted by a concurrent transaction that then rolled back: a conflict worth another attempt.
            throw new SQLException("Session '" + sessionId + "' vanished while being created", "40001");
        }
    }

    private boolean selectSessionForUpdate(String sessionId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT session_id FROM taskagent_sessions WHERE session_id = ? FOR UPDATE")) {
            statement.setString(1, sessionId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    // ---- updates

    @Override
    public Task updateTask(TaskUpdate update) {
        checkUsable();
        Objects.requireNonNull(update, "update");
        long taskId = update.taskId();
        return sql("update task " + taskId, () -> {
            GraphChange graph = checkGraphChange(update);
            List<Object> values = new ArrayList<>();
            StringBuilder sql =
                    new StringBuilder("UPDATE taskagent_tasks SET " + Dialect.BUMP_VERSION + ", updated_at = ?");
            values.add(JdbcSupport.toDatabase(now()));
            set(sql, values, update, Field.DESCRIPTION, "description", update.description());
            set(
                    sql,
                    values,
                    update,
                    Field.STATUS,
                    "status",
                    update.status() == null ? null : update.status().wireName());
            set(sql, values, update, Field.PRIORITY, "priority", update.priority());
            set(sql, values, update, Field.ASSIGNEE, "assignee", update.assignee());
            set(sql, values, update, Field.PREVIOUS_ASSIGNEE, "previous_assignee", update.previousAssignee());
            set(sql, values, update, Field.STEPS, "steps", update.steps());
            set(sql, values, update, Field.CURRENT_STEP, "current_step", update.currentStep());
            set(sql, values, update, Field.ARCHIVED, "archived", update.archived());
            set(sql, values, update, Field.PARENT, "parent_id", update.parentId());
            if (update.changes(Field.TAGS)) {
                sql.append(", tags = ?");
                values.add(update.tags().isEmpty() ? null : TaskDocument.strings(update.tags()));
            }
            set(sql, values, update, Field.METADATA, "metadata", update.metadata());
            if (update.changes(Field.USER_PREFERENCES)) {
                sql.append(", preferences = ?");
                values.add(TaskDocument.strings(update.userPreferences()));
            }
            if (update.changes(Field.STATUS) && update.status() != TaskStatus.RUNNING) {
                sql.append(", lease_expires_at = NULL"); // a task out of running holds no lease (TS-9.3)
            }
            sql.append(" WHERE id = ?");
            values.add(taskId);
            OptionalLong expected = update.expectedVersion();
            if (expected.isPresent()) {
                sql.append(" AND version = ?");
                values.add(expected.getAsLong());
            }
            int changed;
            try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
                for (int index = 0; index < values.size(); index++) {
                    Object value = values.get(index);
                    if (value == null) {
                        statement.setNull(index + 1, Types.VARCHAR); // only text columns can be set to null
                    } else {
                        statement.setObject(index + 1, value);
                    }
                }
                changed = statement.executeUpdate();
            }
            if (changed == 0) {
                OptionalLong actual = currentVersion(taskId);
                if (actual.isEmpty()) {
                    throw new TaskNotFoundException(taskId);
                }
                throw new StaleTaskException(taskId, expected.orElse(-1), actual.getAsLong());
            }
            if (update.changes(Field.DESCRIPTION) || update.changes(Field.STEPS)) {
                Search.write(connection, dialect, taskId);
            }
            if (graph != null) {
                int delta = TaskGraphs.openBlockerDelta(graph.status(), update.status());
                if (delta != 0) {
                    countBlocker(taskId, delta);
                }
            }
            if (update.changes(Field.ARCHIVED) && update.archived()) {
                archiveSubtree(taskId);
            }
            return readLocked(taskId);
        });
    }

    /** What an update that changes the work graph found before it wrote: the task's status then. */
    private record GraphChange(TaskStatus status) {}

    /**
     * Checks an update that changes the status or the parent against the work graph before anything is
     * written (TS-12.6, TS-12.7), holding the task's row locked from here on.
     *
     * @return the task's status before the update, or null when the update changes neither
     */
    private GraphChange checkGraphChange(TaskUpdate update) throws SQLException {
        long taskId = update.taskId();
        if (!update.changes(Field.STATUS) && !update.changes(Field.PARENT)) {
            return null;
        }
        TaskStatus status;
        long parentId;
        long version;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT status, parent_id, version FROM taskagent_tasks WHERE id = ? FOR UPDATE")) {
            statement.setLong(1, taskId);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new TaskNotFoundException(taskId);
                }
                status = TaskStatus.fromWireName(rows.getString(1));
                parentId = rows.getLong(2);
                version = rows.getLong(3);
            }
        }
        OptionalLong expected = update.expectedVersion();
        if (expected.isPresent() && expected.getAsLong() != version) {
            throw new StaleTaskException(taskId, expected.getAsLong(), version);
        }
        if (update.changes(Field.PARENT) && update.parentId() != parentId && update.parentId() != 0) {
            Graph.lockGraph(connection);
            if (!Graph.exists(connection, update.parentId())) {
                throw new TaskNotFoundException(update.parentId());
            }
            Optional<List<Long>> chain = Graph.parentChain(connection, taskId, update.parentId());
            if (chain.isPresent()) {
                throw TaskGraphException.parentCycle(taskId, update.parentId(), chain.get());
            }
        }
        if (update.changes(Field.STATUS)
                && update.status() == TaskStatus.SUCCESS
                && status != TaskStatus.SUCCESS
                && !update.evenWithOpenChildren()) {
            refuseOpenChildren(taskId);
        }
        return new GraphChange(status);
    }

    /** Refuses success over a subtask that is pending or running and not archived (TS-12.7). */
    private void refuseOpenChildren(long taskId) throws SQLException {
        List<Long> ids;
        try (PreparedStatement statement = connection.prepareStatement("SELECT id FROM taskagent_tasks WHERE"
                + " parent_id = ? AND archived = FALSE AND status IN (" + Dialect.PENDING + ", " + Dialect.RUNNING
                + ") ORDER BY id")) {
            ids = Graph.longs(statement, taskId);
        }
        if (!ids.isEmpty()) {
            throw TaskGraphException.openChildren(taskId, byId(TaskReader.readIds(connection, dialect, ids)));
        }
    }

    private static List<Task> byId(List<Task> tasks) {
        List<Task> sorted = new ArrayList<>(tasks);
        sorted.sort(Comparator.comparingLong(Task::id));
        return List.copyOf(sorted);
    }

    /**
     * Moves the open blocker count of the task's dependants (TS-12.3), in one statement whatever their
     * number, and records an {@code unblocked} event for each that has no open blocker left.
     */
    private void countBlocker(long blockerId, int delta) throws SQLException {
        int dependants = Graph.countBlocker(connection, blockerId, delta);
        if (dependants > 0 && delta < 0 && feedEvents) {
            recorded.addAll(Graph.unblockedDependants(connection, blockerId));
        }
    }

    /** Archives the task's subtasks, and theirs, with the task (TS-12.6); each one archived now is versioned. */
    private void archiveSubtree(long taskId) throws SQLException {
        List<Long> unarchived = Graph.unarchivedDescendants(connection, taskId);
        if (unarchived.isEmpty()) {
            return;
        }
        Object now = JdbcSupport.toDatabase(now());
        for (int from = 0; from < unarchived.size(); from += IN_LIST_SIZE) {
            List<Long> chunk = unarchived.subList(from, Math.min(unarchived.size(), from + IN_LIST_SIZE));
            try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET archived ="
                    + " TRUE, " + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id IN ("
                    + Graph.parameters(chunk.size()) + ")")) {
                statement.setObject(1, now);
                for (int index = 0; index < chunk.size(); index++) {
                    statement.setLong(index + 2, chunk.get(index));
                }
                statement.executeUpdate();
            }
        }
        TaskReader.readIds(connection, dialect, unarchived).forEach(this::wrote);
    }

    // ---- the work graph

    @Override
    public Task addDependency(long dependantId, long blockerId) {
        checkUsable();
        StoreArguments.taskId(dependantId);
        StoreArguments.taskId(blockerId);
        return sql("make task " + dependantId + " depend on task " + blockerId, () -> {
            Graph.lockGraph(connection);
            List<Long> blockers = blockersOf(dependantId);
            TaskStatus blockerStatus =
                    Graph.lockStatuses(connection, dialect, List.of(blockerId)).get(blockerId);
            if (dependantId == blockerId) {
                throw TaskGraphException.selfDependency(dependantId);
            }
            if (blockers.contains(blockerId)) {
                throw TaskGraphException.duplicateDependency(dependantId, blockerId);
            }
            Optional<List<Long>> path = Graph.dependencyPath(connection, dialect, dependantId, blockerId);
            if (path.isPresent()) {
                throw TaskGraphException.dependencyCycle(dependantId, blockerId, path.get());
            }
            Graph.insertEdges(connection, dependantId, List.of(blockerId));
            List<Long> after = new ArrayList<>(blockers);
            after.add(blockerId);
            Task task = writeBlockers(dependantId, after, blockerStatus == TaskStatus.SUCCESS ? 0 : 1);
            recorded.add(FeedEncoding.encode(new TaskEvent.DependencyAdded(task, blockerId)));
            return task;
        });
    }

    @Override
    public Task removeDependency(long dependantId, long blockerId) {
        checkUsable();
        StoreArguments.taskId(dependantId);
        StoreArguments.taskId(blockerId);
        return sql("remove the dependency of task " + dependantId + " on task " + blockerId, () -> {
            Graph.lockGraph(connection);
            List<Long> blockers = blockersOf(dependantId);
            if (!blockers.contains(blockerId)) {
                if (!Graph.exists(connection, blockerId)) {
                    throw new TaskNotFoundException(blockerId);
                }
                throw TaskGraphException.noSuchDependency(dependantId, blockerId);
            }
            TaskStatus blockerStatus =
                    Graph.lockStatuses(connection, dialect, List.of(blockerId)).get(blockerId);
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM taskagent_dependencies WHERE dependant_id = ? AND blocker_id = ?")) {
                statement.setLong(1, dependantId);
                statement.setLong(2, blockerId);
                statement.executeUpdate();
            }
            List<Long> after = new ArrayList<>(blockers);
            after.remove(blockerId);
            int delta = blockerStatus == TaskStatus.SUCCESS ? 0 : -1;
            Task task = writeBlockers(dependantId, after, delta);
            recorded.add(FeedEncoding.encode(new TaskEvent.DependencyRemoved(task, blockerId)));
            if (delta < 0 && task.openBlockers() == 0) {
                recorded.add(FeedEncoding.encode(new TaskEvent.Unblocked(task)));
            }
            return task;
        });
    }

    /** The dependant's blockers as its row lists them; the caller holds the graph's lock. */
    private List<Long> blockersOf(long dependantId) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT blocked_by FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, dependantId);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new TaskNotFoundException(dependantId);
                }
                return Graph.readIds(rows.getString(1), dependantId);
            }
        }
    }

    /** Writes the dependant's blockers and moves its open count, versioning it (TS-12.4), and reads it back. */
    private Task writeBlockers(long dependantId, List<Long> blockers, int openDelta) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET blocked_by = ?,"
                + " open_blockers = open_blockers + ?, " + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id = ?")) {
            setText(statement, 1, Graph.writeIds(blockers));
            statement.setInt(2, openDelta);
            statement.setObject(3, JdbcSupport.toDatabase(now()));
            statement.setLong(4, dependantId);
            statement.executeUpdate();
        }
        return readLocked(dependantId);
    }

    @Override
    public List<Task> listDependants(long taskId) {
        checkUsable();
        StoreArguments.taskId(taskId);
        return sql("list the dependants of task " + taskId, () -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT dependant_id FROM taskagent_dependencies WHERE blocker_id = ? ORDER BY dependant_id")) {
                return byId(TaskReader.readIds(connection, dialect, Graph.longs(statement, taskId)));
            }
        });
    }

    @Override
    public List<Task> listChildren(long parentId) {
        checkUsable();
        StoreArguments.taskId(parentId);
        return sql("list the subtasks of task " + parentId, () -> {
            try (PreparedStatement statement =
                    connection.prepareStatement("SELECT id FROM taskagent_tasks WHERE parent_id = ? ORDER BY id")) {
                return byId(TaskReader.readIds(connection, dialect, Graph.longs(statement, parentId)));
            }
        });
    }

    private static void set(
            StringBuilder sql, List<Object> values, TaskUpdate update, Field field, String column, Object value) {
        if (update.changes(field)) {
            sql.append(", ").append(column).append(" = ?");
            values.add(value);
        }
    }

    private OptionalLong currentVersion(long taskId) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT version FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, taskId);
            return Dialect.queryLong(statement);
        }
    }

    /**
     * Appends an entry ({@link TaskDocument}) to one of the task's documents, bumping its version and
     * updatedAt in the same statement, which locks the row until the transaction ends: concurrent appends
     * wait for each other and keep every entry, in commit order.
     */
    private void appendTo(long taskId, String column, String entry, Instant now) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET " + column
                + " = " + TaskDocument.appendEntry(dialect, column) + ", " + Dialect.BUMP_VERSION
                + ", updated_at = ? WHERE id = ?")) {
            statement.setString(1, entry);
            statement.setObject(2, JdbcSupport.toDatabase(now));
            statement.setLong(3, taskId);
            if (statement.executeUpdate() == 0) {
                throw new TaskNotFoundException(taskId);
            }
        }
    }

    /** Bumps the task's version and updatedAt, which locks its row until the transaction ends. */
    private void bump(long taskId, Instant now) throws SQLException {
        bumped.add(taskId);
        try (PreparedStatement statement = connection.prepareStatement(BUMP)) {
            statement.setObject(1, JdbcSupport.toDatabase(now));
            statement.setLong(2, taskId);
            if (statement.executeUpdate() == 0) {
                throw new TaskNotFoundException(taskId);
            }
        }
    }

    // ---- appends

    @Override
    public Task appendProgress(long taskId, String progress) {
        checkUsable();
        StoreArguments.text(progress, "progress");
        StoreArguments.taskId(taskId);
        return sql("append progress to task " + taskId, () -> writeProgress(taskId, progress));
    }

    @Override
    public Task addComment(long taskId, String author, String text) {
        checkUsable();
        StoreArguments.name(author, "author");
        StoreArguments.text(text, "text");
        StoreArguments.taskId(taskId);
        return sql("add a comment to task " + taskId, () -> writeComment(taskId, author, text));
    }

    @Override
    public Task addLink(long taskId, String url, String description, String author) {
        checkUsable();
        StoreArguments.text(url, "url");
        TextLimits.check(description, "description");
        StoreArguments.name(author, "author");
        StoreArguments.taskId(taskId);
        return sql("add a link to task " + taskId, () -> writeLink(taskId, url, description, author));
    }

    @Override
    public AppendResult appendProgress(long taskId, String progress, String requestId) {
        checkUsable();
        StoreArguments.text(progress, "progress");
        StoreArguments.requestId(requestId);
        StoreArguments.taskId(taskId);
        return sql(
                "append progress to task " + taskId + " once",
                () -> once(taskId, requestId, () -> writeProgress(taskId, progress)));
    }

    @Override
    public AppendResult addComment(long taskId, String author, String text, String requestId) {
        checkUsable();
        StoreArguments.name(author, "author");
        StoreArguments.text(text, "text");
        StoreArguments.requestId(requestId);
        StoreArguments.taskId(taskId);
        return sql(
                "add a comment to task " + taskId + " once",
                () -> once(taskId, requestId, () -> writeComment(taskId, author, text)));
    }

    @Override
    public AppendResult addLink(long taskId, String url, String description, String author, String requestId) {
        checkUsable();
        StoreArguments.text(url, "url");
        TextLimits.check(description, "description");
        StoreArguments.name(author, "author");
        StoreArguments.requestId(requestId);
        StoreArguments.taskId(taskId);
        return sql(
                "add a link to task " + taskId + " once",
                () -> once(taskId, requestId, () -> writeLink(taskId, url, description, author)));
    }

    /**
     * Runs an append unless the task holds its request id (TS-5.5 to TS-5.7): the task's row stays locked from the
     * look-up on, and the id is recorded after the append wrote.
     */
    private AppendResult once(long taskId, String requestId, SqlWork<Task> append) throws SQLException {
        OptionalLong seq = AppendRequests.lockAndNumber(connection, taskId, requestId);
        if (seq.isEmpty()) {
            return AppendResult.replayOf(readOne(taskId).orElseThrow(() -> new TaskNotFoundException(taskId)));
        }
        Task task = append.run();
        AppendRequests.remember(connection, taskId, requestId, seq.getAsLong());
        return AppendResult.written(task);
    }

    private Task writeProgress(long taskId, String progress) throws SQLException {
        appendTo(taskId, "progresses", TaskDocument.progress(progress), now());
        Search.write(connection, dialect, taskId);
        return readLocked(taskId);
    }

    private Task writeComment(long taskId, String author, String text) throws SQLException {
        Instant now = now();
        appendTo(taskId, "comments", TaskDocument.comment(new Comment(author, text, now)), now);
        Search.write(connection, dialect, taskId);
        return readLocked(taskId);
    }

    private Task writeLink(long taskId, String url, String description, String author) throws SQLException {
        Instant now = now();
        appendTo(taskId, "links", TaskDocument.link(new Link(url, description, author, now)), now);
        return readLocked(taskId);
    }

    // ---- messages

    @Override
    public Task linkMessages(long taskId, List<String> messageIds) {
        checkUsable();
        List<String> ids = StoreArguments.messageIds(messageIds);
        StoreArguments.taskId(taskId);
        return sql("link messages to task " + taskId, () -> {
            String sessionId = sessionOf(taskId);
            lockSession(sessionId);
            Instant now = now();
            bump(taskId, now);
            moveMessages(sessionId, ids, taskId, now);
            return readLocked(taskId);
        });
    }

    @Override
    public void linkMessagesToPlanningSection(String sessionId, List<String> messageIds) {
        checkUsable();
        StoreArguments.sessionId(sessionId);
        List<String> ids = StoreArguments.messageIds(messageIds);
        sql("link messages to the planning section of session '" + sessionId + "'", () -> {
            lockSession(sessionId);
            moveMessages(sessionId, ids, PLANNING_SECTION, now());
            return null;
        });
    }

    private String sessionOf(long taskId) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT session_id FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, taskId);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new TaskNotFoundException(taskId);
                }
                return rows.getString(1);
            }
        }
    }

    /**
     * Gives messages to a new owner (a task, or the planning section), appended in the order given; a
     * message the owner holds already stays where it is; a message held elsewhere in the session moves,
     * and its previous task is written (TS-6.1, TS-6.2). The caller holds the session's lock.
     */
    private void moveMessages(String sessionId, List<String> messageIds, long newOwner, Instant now)
            throws SQLException {
        LinkedHashSet<String> distinct = new LinkedHashSet<>(messageIds);
        if (distinct.isEmpty()) {
            return;
        }
        Map<String, Long> owners = owners(sessionId, new ArrayList<>(distinct));
        long seq = lastSeq(sessionId, newOwner);
        TreeSet<Long> previousHolders = new TreeSet<>();
        try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO taskagent_messages (session_id, message_id, task_id, seq) VALUES (?, ?, ?, ?)");
                PreparedStatement move = connection.prepareStatement("UPDATE taskagent_messages SET task_id = ?,"
                        + " seq = ? WHERE session_id = ? AND message_id = ?")) {
            boolean inserts = false;
            boolean moves = false;
            for (String messageId : distinct) {
                Long owner = owners.get(messageId);
                if (owner != null && owner == newOwner) {
                    continue;
                }
                seq++;
                if (owner == null) {
                    insert.setString(1, sessionId);
                    insert.setString(2, messageId);
                    setOwner(insert, 3, newOwner);
                    insert.setLong(4, seq);
                    insert.addBatch();
                    inserts = true;
                } else {
                    setOwner(move, 1, newOwner);
                    move.setLong(2, seq);
                    move.setString(3, sessionId);
                    move.setString(4, messageId);
                    move.addBatch();
                    moves = true;
                    if (owner != PLANNING_SECTION) {
                        previousHolders.add(owner);
                    }
                }
            }
            if (inserts) {
                insert.executeBatch();
            }
            if (moves) {
                move.executeBatch();
            }
        }
        for (long holder : previousHolders) {
            // Not read back: the unit of work reports a previous holder by its new version only.
            bump(holder, now);
        }
    }

    private static void setOwner(PreparedStatement statement, int index, long owner) throws SQLException {
        if (owner == PLANNING_SECTION) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, owner);
        }
    }

    /** Maps each message id already linked in the session to its owner (a task id, or the planning section). */
    private Map<String, Long> owners(String sessionId, List<String> messageIds) throws SQLException {
        Map<String, Long> owners = new HashMap<>();
        for (int from = 0; from < messageIds.size(); from += IN_LIST_SIZE) {
            List<String> chunk = messageIds.subList(from, Math.min(messageIds.size(), from + IN_LIST_SIZE));
            String placeholders = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            try (PreparedStatement statement = connection.prepareStatement("SELECT message_id, task_id"
                    + " FROM taskagent_messages WHERE session_id = ? AND message_id IN (" + placeholders + ")")) {
                statement.setString(1, sessionId);
                for (int index = 0; index < chunk.size(); index++) {
                    statement.setString(index + 2, chunk.get(index));
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        long owner = rows.getLong(2);
                        owners.put(rows.getString(1), rows.wasNull() ? PLANNING_SECTION : owner);
                    }
                }
            }
        }
        return owners;
    }

    private long lastSeq(String sessionId, long owner) throws SQLException {
        String sql = owner == PLANNING_SECTION
                ? "SELECT MAX(seq) FROM taskagent_messages WHERE session_id = ? AND task_id IS NULL"
                : "SELECT MAX(seq) FROM taskagent_messages WHERE task_id = ?";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (owner == PLANNING_SECTION) {
                statement.setString(1, sessionId);
            } else {
                statement.setLong(1, owner);
            }
            return Dialect.queryLong(statement).orElse(0); // MAX of no rows is NULL, read as 0
        }
    }

    // ---- claims and leases

    @Override
    public Optional<Task> claimNext(String assignee, Duration lease) {
        checkUsable();
        StoreArguments.name(assignee, "assignee");
        Leases.lease(lease);
        return claim(assignee, lease);
    }

    /**
     * Claims for the store's own {@code claimNext}: like {@link #claimNext}, but a claimed task that cannot be
     * read (its documents are damaged) is returned as that damage, so that the claim commits and the damaged
     * task does not block its queue.
     */
    Claims.StoreClaim claimForStore(String assignee, Duration lease) {
        checkUsable();
        try {
            return new Claims.StoreClaim(claim(assignee, lease), null);
        } catch (DamagedTaskException e) {
            bumped.add(e.taskId()); // its feed hears of the claim as an update
            return new Claims.StoreClaim(Optional.empty(), e);
        }
    }

    private Optional<Task> claim(String assignee, Duration lease) {
        // Where the dialect can, the claim's statement appends its event too, sparing a statement per claim.
        boolean eventInStatement = feedEvents && Claims.appendsEvent(dialect);
        String token = JdbcSupport.claimToken();
        Optional<Task> claimed;
        Claims.Request request = new Claims.Request(
                assignee,
                JdbcSupport.toDatabase(now()),
                Claims.micros(lease),
                eventInStatement ? FeedEncoding.jsonString(assignee) : null,
                token);
        try {
            claimed = sql(
                    "claim the next task of '" + assignee + "'",
                    () -> Claims.claimAndRead(connection, dialect, request));
        } catch (DamagedTaskException e) {
            claims.add(new Claim(e.taskId(), token));
            throw e;
        }
        claimed.ifPresent(task -> {
            claims.add(new Claim(task.id(), token));
            wrote(task);
            if (eventInStatement) {
                appendedEvents = true;
            } else {
                recorded.add(FeedEncoding.encode(new TaskEvent.Claimed(task, assignee)));
            }
        });
        return claimed;
    }

    /**
     * Claims a batch in one statement where the dialect can ({@link Claims#claimManyAndRead}); elsewhere, and
     * when the batch statement found every claimable row held by another unit of work, one by one as the
     * interface does, which waits for a held row rather than come back empty (TS-7.6). A task claimed with
     * damaged documents stays claimed and is left out of the result, as the store's own claim does.
     */
    @Override
    public List<Task> claimUpTo(String assignee, Duration lease, int limit) {
        checkUsable();
        StoreArguments.name(assignee, "assignee");
        Leases.lease(lease);
        Leases.claimLimit(limit);
        if (limit == 1 || !Claims.claimsMany(dialect)) {
            return TaskTransaction.super.claimUpTo(assignee, lease, limit);
        }
        boolean eventInStatement = feedEvents && Claims.appendsEvent(dialect);
        String token = JdbcSupport.claimToken();
        Claims.Request request = new Claims.Request(
                assignee,
                JdbcSupport.toDatabase(now()),
                Claims.micros(lease),
                eventInStatement ? FeedEncoding.jsonString(assignee) : null,
                token);
        Claims.Batch batch = sql(
                "claim up to " + limit + " tasks of '" + assignee + "'",
                () -> Claims.claimManyAndRead(connection, dialect, request, limit));
        if (batch.isEmpty()) {
            return TaskTransaction.super.claimUpTo(assignee, lease, 1);
        }
        for (long taskId : batch.damaged()) {
            claims.add(new Claim(taskId, token));
            bumped.add(taskId); // its feed hears of the claim as an update
            LOG.warn(
                    "Claimed task {} for '{}' in a batch, but it cannot be read: its documents are damaged. The"
                            + " claim holds it until its lease expires; repair its row in taskagent_tasks",
                    taskId,
                    assignee);
        }
        for (Task task : batch.tasks()) {
            claims.add(new Claim(task.id(), token));
            wrote(task);
            if (!eventInStatement) {
                recorded.add(FeedEncoding.encode(new TaskEvent.Claimed(task, assignee)));
            }
        }
        if (eventInStatement) {
            appendedEvents = true;
        }
        return List.copyOf(batch.tasks());
    }

    /**
     * A claim this unit of work made: what to look for when its commit's outcome is unknown. The token tells
     * this claim from another claimer's of the same task under the same agent name, which may have taken
     * the task after this one rolled back.
     */
    record Claim(long taskId, String token) {}

    /** @return the claims this unit of work made, in order */
    List<Claim> claims() {
        return claims;
    }

    @Override
    public Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
        checkUsable();
        Leases.lease(lease);
        return fenced(
                "renew the lease of task " + taskId,
                "lease_expires_at = " + dialect.databaseNowPlusMicros(),
                List.of(micros(lease)),
                taskId,
                agent,
                attempt);
    }

    @Override
    public Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
        return complete(taskId, agent, attempt, outcome, false);
    }

    @Override
    public Task complete(long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
        checkUsable();
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isOutcome()) {
            throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName());
        }
        if (outcome == TaskStatus.SUCCESS && !evenWithOpenChildren) {
            StoreArguments.taskId(taskId);
            StoreArguments.name(agent, "agent");
            Leases.attempt(attempt);
            sql("complete task " + taskId, () -> {
                try {
                    refuseOpenChildren(taskId);
                } catch (TaskGraphException refused) {
                    // A claim that is no longer held says so first, as the completion would have.
                    Task current = readOne(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
                    if (current.status() != TaskStatus.RUNNING
                            || !agent.equals(current.assignee())
                            || current.attempt() != attempt) {
                        throw new ClaimLostException(current, agent, attempt);
                    }
                    throw refused;
                }
                return null;
            });
        }
        Task completed = fenced(
                "complete task " + taskId,
                "status = ?, lease_expires_at = NULL",
                List.of(outcome.wireName()),
                taskId,
                agent,
                attempt);
        if (outcome == TaskStatus.SUCCESS) {
            // It was running: its dependants have one open blocker fewer (TS-12.3).
            sql("unblock the dependants of task " + taskId, () -> {
                countBlocker(taskId, -1);
                return null;
            });
        }
        return completed;
    }

    /**
     * Ends the batch in a fixed number of statements whatever its size (up to {@value #IN_LIST_SIZE} tasks a
     * statement): a locking read of the claims still held, one of the unfinished subtasks of a success, one
     * UPDATE, one read of the blockers among them, and one read of the tasks (on PostgreSQL, the UPDATE's).
     */
    @Override
    public Map<Long, Task> completeHeld(String agent, Map<Long, Integer> attempts, TaskStatus outcome) {
        checkUsable();
        Leases.completions(agent, attempts, outcome);
        if (attempts.isEmpty()) {
            return Map.of();
        }
        return sql("complete " + attempts.size() + " tasks of '" + agent + "'", () -> {
            List<Long> held = new ArrayList<>(attempts.size());
            forChunks(new ArrayList<>(new TreeSet<>(attempts.keySet())), chunk -> {
                try (PreparedStatement statement = connection.prepareStatement("SELECT id, attempt FROM"
                        + " taskagent_tasks WHERE id IN (" + Graph.parameters(chunk.size()) + ") AND status = "
                        + Dialect.RUNNING + " AND assignee = ? ORDER BY id FOR UPDATE")) {
                    int index = bind(statement, 1, chunk);
                    statement.setString(index, agent);
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            if (attempts.get(rows.getLong(1)) == rows.getInt(2)) {
                                held.add(rows.getLong(1));
                            }
                        }
                    }
                }
            });
            if (outcome == TaskStatus.SUCCESS && !held.isEmpty()) {
                Set<Long> withOpenChildren = new HashSet<>();
                forChunks(held, chunk -> {
                    // Only the parent index can serve this WHERE clause: with the status in it, a planner whose
                    // statistics lag behind a bulk load may scan the claim index's whole pending range instead.
                    try (PreparedStatement statement = connection.prepareStatement("SELECT parent_id, status,"
                            + " archived FROM taskagent_tasks WHERE parent_id IN (" + Graph.parameters(chunk.size())
                            + ")")) {
                        bind(statement, 1, chunk);
                        try (ResultSet rows = statement.executeQuery()) {
                            while (rows.next()) {
                                TaskStatus status = TaskStatus.fromWireName(rows.getString(2));
                                if (!rows.getBoolean(3) && !status.isTerminal()) {
                                    withOpenChildren.add(rows.getLong(1));
                                }
                            }
                        }
                    }
                });
                held.removeAll(withOpenChildren); // complete() alone refuses them, naming the subtasks
            }
            if (held.isEmpty()) {
                return Map.of();
            }
            Object now = JdbcSupport.toDatabase(now());
            List<Task> ended = new ArrayList<>(held.size());
            boolean returning = dialect.id() == JdbcDialect.POSTGRESQL;
            forChunks(held, chunk -> {
                String update = "UPDATE taskagent_tasks SET status = ?, lease_expires_at = NULL, "
                        + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id IN (" + Graph.parameters(chunk.size())
                        + ")";
                try (PreparedStatement statement = connection.prepareStatement(
                        returning ? TaskReader.claimingReadOfMany(update + " RETURNING *", null) : update)) {
                    statement.setString(1, outcome.wireName());
                    statement.setObject(2, now);
                    bind(statement, 3, chunk);
                    if (!returning) {
                        statement.executeUpdate();
                        return;
                    }
                    // PostgreSQL reads the tasks as the UPDATE left them, in the same statement. The rows are
                    // locked since the first statement, so the read's snapshot holds their last version.
                    List<Long> damaged = new ArrayList<>();
                    try (ResultSet rows = statement.executeQuery()) {
                        for (TaskReader.ClaimedRead read : TaskReader.readClaimedMany(rows, damaged)) {
                            ended.add(
                                    read.task() != null
                                            ? read.task()
                                            : TaskReader.readLocked(connection, dialect, read.taskId()));
                        }
                    }
                    for (long taskId : damaged) {
                        TaskReader.readLocked(connection, dialect, taskId); // throws, naming the task
                    }
                }
            });
            if (outcome == TaskStatus.SUCCESS) {
                // They were running: their dependants have one open blocker fewer each (TS-12.3).
                List<Long> blockers = new ArrayList<>();
                forChunks(held, chunk -> {
                    try (PreparedStatement statement = connection.prepareStatement("SELECT DISTINCT blocker_id FROM"
                            + " taskagent_dependencies WHERE blocker_id IN (" + Graph.parameters(chunk.size())
                            + ")")) {
                        bind(statement, 1, chunk);
                        blockers.addAll(Graph.longs(statement));
                    }
                });
                for (long blocker : blockers) {
                    countBlocker(blocker, -1);
                }
                if (returning && !blockers.isEmpty()) {
                    ended.clear(); // one of them may depend on another: read their open blockers as now
                }
            }
            if (ended.isEmpty()) {
                ended.addAll(TaskReader.readIds(connection, dialect, held));
            }
            Map<Long, Task> read = new HashMap<>();
            for (Task task : ended) {
                read.put(task.id(), wrote(task));
            }
            Map<Long, Task> completed = new LinkedHashMap<>();
            for (long taskId : attempts.keySet()) {
                Task task = read.get(taskId);
                if (task != null) {
                    completed.put(taskId, task);
                }
            }
            return completed;
        });
    }

    /** Work on a list of ids, {@value #IN_LIST_SIZE} at a time. */
    @FunctionalInterface
    private interface ChunkWork {
        void run(List<Long> chunk) throws SQLException;
    }

    private static void forChunks(List<Long> ids, ChunkWork work) throws SQLException {
        for (int from = 0; from < ids.size(); from += IN_LIST_SIZE) {
            work.run(ids.subList(from, Math.min(ids.size(), from + IN_LIST_SIZE)));
        }
    }

    /** @return the index of the parameter after the ids */
    private static int bind(PreparedStatement statement, int first, List<Long> ids) throws SQLException {
        int index = first;
        for (long id : ids) {
            statement.setLong(index++, id);
        }
        return index;
    }

    @Override
    public Task release(long taskId, String agent, int attempt) {
        checkUsable();
        return fenced(
                "release task " + taskId,
                "status = " + Dialect.PENDING + ", lease_expires_at = NULL",
                List.of(),
                taskId,
                agent,
                attempt);
    }

    /**
     * Writes about a claim only while the task runs under that agent and attempt (TS-9.2); otherwise says
     * why not, writing nothing.
     */
    private Task fenced(
            String operation, String assignments, List<Object> values, long taskId, String agent, int attempt) {
        StoreArguments.taskId(taskId);
        StoreArguments.name(agent, "agent");
        Leases.attempt(attempt);
        return sql(operation, () -> {
            int changed;
            try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET " + assignments
                    + ", " + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id = ? AND " + Dialect.CLAIM_HELD)) {
                int index = 1;
                for (Object value : values) {
                    statement.setObject(index++, value);
                }
                statement.setObject(index++, JdbcSupport.toDatabase(now()));
                statement.setLong(index++, taskId);
                statement.setString(index++, agent);
                statement.setInt(index, attempt);
                changed = statement.executeUpdate();
            }
            if (changed == 0) {
                Task current = readOne(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
                throw new ClaimLostException(current, agent, attempt);
            }
            return readLocked(taskId);
        });
    }

    /** @throws TaskExistsException if a task holds the idempotency key (TS-3.6) */
    private void refuseExistingKey(String key) throws SQLException {
        OptionalLong holder;
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT id FROM taskagent_tasks WHERE idempotency_key = ?")) {
            statement.setString(1, key);
            holder = Dialect.queryLong(statement);
        }
        if (holder.isPresent()) {
            Task existing =
                    readOne(holder.getAsLong()).orElseThrow(() -> new TaskNotFoundException(holder.getAsLong()));
            throw new TaskExistsException(existing, key);
        }
    }

    @Override
    public Task delay(long taskId, Duration delay) {
        checkUsable();
        StoreArguments.taskId(taskId);
        Leases.delay(delay, "delay");
        return sql("delay task " + taskId, () -> {
            int changed;
            String notBefore = delay.isZero() ? "NULL" : dialect.databaseNowPlusMicros();
            try (PreparedStatement statement = connection.prepareStatement("UPDATE taskagent_tasks SET not_before = "
                    + notBefore + ", " + Dialect.BUMP_VERSION + ", updated_at = ? WHERE id = ? AND status IN ("
                    + Dialect.PENDING + ", " + Dialect.RUNNING + ")")) {
                int index = 1;
                if (!delay.isZero()) {
                    statement.setLong(index++, Claims.micros(delay));
                }
                statement.setObject(index++, JdbcSupport.toDatabase(now()));
                statement.setLong(index, taskId);
                changed = statement.executeUpdate();
            }
            if (changed == 0) {
                Task current = readOne(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
                throw new TaskCompleteException(taskId, current.status(), "delayed");
            }
            return readLocked(taskId);
        });
    }

    @Override
    public Optional<Duration> untilNextScheduled(String assignee) {
        checkUsable();
        StoreArguments.name(assignee, "assignee");
        String now = dialect.databaseNow();
        return sql("find the next scheduled task of " + assignee, () -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT MIN(not_before), " + now
                    + " FROM taskagent_tasks WHERE assignee = ? AND status = " + Dialect.PENDING
                    + " AND archived = FALSE AND open_blockers = 0 AND not_before > " + now)) {
                statement.setString(1, assignee);
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    LocalDateTime next = rows.getObject(1, LocalDateTime.class);
                    if (next == null) {
                        return Optional.empty();
                    }
                    LocalDateTime databaseNow = rows.getObject(2, LocalDateTime.class);
                    return Optional.of(Duration.between(databaseNow, next));
                }
            }
        });
    }

    @Override
    public List<ReclaimedTask> reclaimExpired(int defaultMaxAttempts, int limit) {
        return reclaimExpired(defaultMaxAttempts, limit, attempt -> Duration.ZERO);
    }

    @Override
    public List<ReclaimedTask> reclaimExpired(
            int defaultMaxAttempts, int limit, java.util.function.IntFunction<Duration> backoff) {
        checkUsable();
        Objects.requireNonNull(backoff, "backoff");
        Leases.maxAttempts(defaultMaxAttempts);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        return sql("take back the tasks whose lease expired", () -> {
            List<Expired> expired = dialect.lockExpiredLeases(connection, limit);
            List<Long> damaged = new ArrayList<>();
            while (!expired.isEmpty()) {
                // A savepoint, so that the tasks that turn out damaged can be left out without losing the
                // unit of work's other writes.
                Savepoint savepoint = connection.setSavepoint();
                List<ReclaimedTask> reclaimed = reclaim(expired, defaultMaxAttempts, backoff, damaged);
                if (damaged.isEmpty()) {
                    connection.releaseSavepoint(savepoint);
                    return reclaimed;
                }
                connection.rollback(savepoint);
                for (long taskId : damaged) {
                    LOG.warn(
                            "Task {} was not reclaimed although its lease expired: its documents are damaged;"
                                    + " repair its row in taskagent_tasks",
                            taskId);
                }
                Set<Long> skipped = new HashSet<>(damaged);
                expired = expired.stream()
                        .filter(task -> !skipped.contains(task.id()))
                        .toList();
                damaged.clear();
            }
            return List.of();
        });
    }

    /**
     * Takes back the expired tasks that are still expired: each back to pending, or failed on its last
     * attempt, with the reaper's comment appended in the same guarded statement (TS-9.4); then reads them,
     * noting in {@code damaged} those that cannot be read.
     */
    private List<ReclaimedTask> reclaim(
            List<Expired> expired,
            int defaultMaxAttempts,
            java.util.function.IntFunction<Duration> backoff,
            List<Long> damaged)
            throws SQLException {
        Instant now = now();
        List<Expired> taken = new ArrayList<>(expired.size());
        // One update per task, guarded by status, attempt and expiry, so that a task completed or renewed
        // since it was read is never touched (TS-9.4); a task put back gets its backoff in the same write.
        try (PreparedStatement update = connection.prepareStatement("UPDATE taskagent_tasks SET status = ?,"
                + " lease_expires_at = NULL, not_before = CASE WHEN ? = 0 THEN NULL ELSE "
                + dialect.databaseNowPlusMicros() + " END, comments = " + TaskDocument.appendEntry(dialect, "comments")
                + ", "
                + Dialect.BUMP_VERSION
                + ", updated_at = ? WHERE id = ? AND status = " + Dialect.RUNNING + " AND attempt = ? AND"
                + " lease_expires_at < " + dialect.databaseNow())) {
            for (Expired task : expired) {
                int maxAttempts = task.maxAttempts() > 0 ? task.maxAttempts() : defaultMaxAttempts;
                ReclaimedTask.Outcome outcome = Leases.outcome(task.attempt(), maxAttempts);
                update.setString(
                        1,
                        outcome == ReclaimedTask.Outcome.REQUEUED
                                ? TaskStatus.PENDING.wireName()
                                : TaskStatus.FAILED.wireName());
                long waitMicros = outcome == ReclaimedTask.Outcome.REQUEUED
                        ? Claims.micros(Leases.delay(backoff.apply(task.attempt()), "backoff"))
                        : 0;
                update.setLong(2, waitMicros);
                update.setLong(3, waitMicros);
                update.setString(
                        4,
                        TaskDocument.comment(new Comment(
                                Leases.REAPER,
                                Leases.reclaimComment(task.attempt(), maxAttempts, task.leaseExpiresAt()),
                                now)));
                update.setObject(5, JdbcSupport.toDatabase(now));
                update.setLong(6, task.id());
                update.setInt(7, task.attempt());
                update.addBatch();
            }
            int[] counts = update.executeBatch();
            for (int index = 0; index < counts.length; index++) {
                // SUCCESS_NO_INFO (-2) can only come from a driver that rewrote the batch; the guard holds
                // for rows this transaction locked, which is every dialect's case but H2's.
                if (counts[index] == 1 || counts[index] == java.sql.Statement.SUCCESS_NO_INFO) {
                    taken.add(expired.get(index));
                }
            }
        }
        if (taken.isEmpty()) {
            return List.of();
        }
        Search.write(connection, dialect, taken.stream().map(Expired::id).toList()); // the reaper's comment
        Map<Long, Task> read = new HashMap<>();
        for (Task task : TaskReader.readIdsSkippingDamaged(
                connection, dialect, taken.stream().map(Expired::id).toList(), damaged)) {
            read.put(task.id(), task);
        }
        List<ReclaimedTask> reclaimed = new ArrayList<>(taken.size());
        for (Expired task : taken) {
            int maxAttempts = task.maxAttempts() > 0 ? task.maxAttempts() : defaultMaxAttempts;
            Task current = read.get(task.id());
            if (current != null) {
                reclaimed.add(new ReclaimedTask(current, task.attempt(), Leases.outcome(task.attempt(), maxAttempts)));
            }
        }
        return List.copyOf(reclaimed);
    }

    // ---- the event feed

    @Override
    public void recordEvent(TaskEvent event) {
        checkUsable();
        Objects.requireNonNull(event, "event");
        if (event instanceof TaskEvent.Claimed claimed && claimed(claimed.task().id())) {
            return; // the claim appended or recorded it (TS-10.7)
        }
        recorded.add(FeedEncoding.encode(event));
    }

    /** @return whether this unit of work claimed the task */
    private boolean claimed(long taskId) {
        for (Claim claim : claims) {
            if (claim.taskId() == taskId) {
                return true;
            }
        }
        return false;
    }

    /** @return whether {@link #flushEvents()} appended events, which the commit makes visible */
    boolean appendedEvents() {
        return appendedEvents;
    }

    /**
     * Appends the unit of work's events to the feed, just before it commits: those recorded, and an {@code
     * updated} event for each task written without one (TS-10.1); a claim's event is recorded by the claim,
     * or already appended by its statement (TS-10.7). One batched INSERT, in the unit of work's transaction,
     * after the work {@linkplain #end() ended}: called by the store only.
     */
    void flushEvents() {
        List<FeedEncoding.Encoded> events = new ArrayList<>(recorded);
        Set<Long> told = new HashSet<>();
        claims.forEach(claim -> told.add(claim.taskId()));
        recorded.forEach(event -> told.add(event.taskId()));
        for (Task task : written.values()) {
            if (told.add(task.id())) {
                events.add(FeedEncoding.updated(task));
            }
        }
        List<Long> unread = bumped.stream().filter(told::add).toList();
        if (events.isEmpty() && unread.isEmpty()) {
            return;
        }
        appendedEvents = true;
        sql("append this unit of work's events to the feed", () -> {
            events.addAll(versionsOf(unread));
            Object now = JdbcSupport.toDatabase(now());
            // Rows of VALUES in one statement rather than a JDBC batch, which most drivers send as one execution
            // a row: the database then parses and plans once for a batch's events.
            for (int from = 0; from < events.size(); from += EVENTS_PER_INSERT) {
                List<FeedEncoding.Encoded> chunk =
                        events.subList(from, Math.min(events.size(), from + EVENTS_PER_INSERT));
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO taskagent_events"
                        + " (task_id, session_id, kind, payload, created_at) VALUES "
                        + String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, ?, ?, ?)")))) {
                    int index = 1;
                    for (FeedEncoding.Encoded event : chunk) {
                        insert.setLong(index++, event.taskId());
                        insert.setString(index++, event.sessionId());
                        insert.setString(index++, event.kind());
                        insert.setString(index++, event.payload());
                        insert.setObject(index++, now);
                    }
                    insert.executeUpdate();
                }
            }
            return null;
        });
    }

    /** The "updated" events of tasks bumped without being read back: their session and new version. */
    private List<FeedEncoding.Encoded> versionsOf(List<Long> taskIds) throws SQLException {
        List<FeedEncoding.Encoded> events = new ArrayList<>(taskIds.size());
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT session_id, version FROM taskagent_tasks WHERE id = ?")) {
            for (long taskId : taskIds) {
                statement.setLong(1, taskId);
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next()) {
                        events.add(FeedEncoding.updated(taskId, rows.getString(1), rows.getLong(2)));
                    }
                }
            }
        }
        return events;
    }

    /** A running task whose lease expired, as a reclaim found it. */
    record Expired(long id, int attempt, int maxAttempts, Instant leaseExpiresAt) {}

    private static long micros(Duration lease) {
        return Claims.micros(lease);
    }
}
