package dev.taskagent.store.jdbc;

import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads tasks with every field in ONE statement: the task rows, which hold their progresses, preferences,
 * comments and links as JSON documents ({@link TaskDocument}), and their message ids, as a UNION ALL of
 * two branches. One statement sees one committed state of the database on every supported database at
 * READ COMMITTED, so a reader never sees a task row from before a commit beside message ids from after it
 * (TS-1.3). Every read of a task, a claim's included, builds it here: a claim returns what a read returns
 * (TS-7.7).
 *
 * <p>The statement has no ORDER BY: message ids are put in order here, which spares the database a sort
 * of the union (MariaDB writes it to a temporary table). A read by id or by a list of ids matches the
 * messages' {@code task_id} directly; the other reads join them to the selected task rows.
 *
 * <p>Thread-safe (stateless).
 */
final class TaskReader {

    /** What a filter selects; each shape has one statement per dialect, built once. */
    enum Shape {
        ID("t.id = ?", "c.task_id = ?"),
        SESSION("t.session_id = ?", null),
        SESSION_ORDER("t.session_id = ? AND t.task_order = ?", null),
        QUEUE("t.assignee = ? AND t.archived = FALSE", null),
        IDS("t.id IN (" + parameterList(IDS_PER_READ) + ")", "c.task_id IN (" + parameterList(IDS_PER_READ) + ")");

        /** Selects the task rows (alias t). */
        private final String condition;

        /** Selects the message rows (alias c) by their task_id, or null to join them to the selected tasks. */
        private final String childCondition;

        Shape(String condition, String childCondition) {
            this.condition = condition;
            this.childCondition = childCondition;
        }

        private static String parameterList(int size) {
            return String.join(", ", java.util.Collections.nCopies(size, "?"));
        }
    }

    /** How many ids one read of {@link #readIds} takes; a shorter list is padded with its last id. */
    static final int IDS_PER_READ = 50;

    /** Which tasks to read: a shape and its parameters. */
    record Filter(Shape shape, Object... parameters) {
        static Filter id(long taskId) {
            return new Filter(Shape.ID, taskId);
        }

        static Filter session(String sessionId) {
            return new Filter(Shape.SESSION, sessionId);
        }

        static Filter sessionOrder(String sessionId, int order) {
            return new Filter(Shape.SESSION_ORDER, sessionId, order);
        }

        static Filter queue(String assignee) {
            return new Filter(Shape.QUEUE, assignee);
        }
    }

    /** TS-2.5: priority descending, then createdAt, then id. */
    static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

    static final Comparator<Task> SESSION_ORDER = Comparator.comparingInt(Task::order);

    private static final int COLUMNS = 31;

    /** The column that tells, in a claim's statement, the claimed row's version in the statement's snapshot. */
    private static final int SNAPSHOT_VERSION = 31;

    // Columns: kind, task_id, seq, text_a, text_b, text_c, time_a, time_b, int_a, int_b, int_c, long_a,
    // status, assignee, previous_assignee, created_by, archived, attempt, lease_expires_at, max_attempts,
    // progresses, preferences, comments, links, parent_id, open_blockers, blocked_by, tags, metadata,
    // not_before, snapshot_version. The task branch comes first so that its
    // types decide the union's column types; the message branch fills what it lacks with NULL.
    private static final String TASK_COLUMNS = "SELECT 'T' AS kind, t.id AS task_id, 0 AS seq,"
            + " t.description AS text_a, t.steps AS text_b, t.session_id AS text_c, t.created_at AS time_a,"
            + " t.updated_at AS time_b, t.task_order AS int_a, t.priority AS int_b, t.current_step AS int_c,"
            + " t.version AS long_a, t.status AS status, t.assignee AS assignee,"
            + " t.previous_assignee AS previous_assignee, t.created_by AS created_by, t.archived AS archived,"
            + " t.attempt AS attempt, t.lease_expires_at AS lease_expires_at, t.max_attempts AS max_attempts,"
            + " t.progresses AS progresses, t.preferences AS preferences, t.comments AS comments,"
            + " t.links AS links, t.parent_id AS parent_id, t.open_blockers AS open_blockers,"
            + " t.blocked_by AS blocked_by, t.tags AS tags, t.metadata AS metadata, t.not_before AS not_before";
    private static final String TASK_BRANCH = TASK_COLUMNS + ", NULL AS snapshot_version FROM taskagent_tasks t WHERE ";
    private static final String MESSAGE_BRANCH = messageBranch();

    private static final Map<Shape, String> UNIONS = new EnumMap<>(Shape.class);

    /**
     * The same unions as derived tables of a plain SELECT, for H2: it parses a UNION again on every
     * {@code prepareStatement} (its per-session statement cache keeps plain SELECTs only), which costs
     * several times running it; wrapped, the union is parsed once per connection.
     */
    private static final Map<Shape, String> DERIVED_TABLES = new EnumMap<>(Shape.class);

    static {
        for (Shape shape : Shape.values()) {
            String union = union(shape);
            UNIONS.put(shape, union);
            DERIVED_TABLES.put(shape, "SELECT * FROM (" + union + ") u");
        }
    }

    private TaskReader() {}

    private static String messageBranch() {
        StringBuilder sql = new StringBuilder("SELECT 'M', c.task_id, c.seq, c.message_id");
        for (int column = 5; column <= COLUMNS; column++) {
            sql.append(", NULL");
        }
        return sql.append(" FROM taskagent_messages c").toString();
    }

    private static String union(Shape shape) {
        // The messages of the selected tasks by a join, not "c.task_id IN (SELECT ...)": H2 evaluated the
        // IN subquery as a list and scanned the table whole, so a session's read grew with the database.
        // A read by id matches the messages' task_id straight away (an index lookup per id); the other
        // shapes join the task table. Joined, a read of 50 ids made PostgreSQL hash the whole table.
        String childCondition = shape.childCondition != null
                ? " WHERE " + shape.childCondition
                : " JOIN taskagent_tasks t ON t.id = c.task_id WHERE " + shape.condition;
        return TASK_BRANCH + shape.condition + " UNION ALL " + MESSAGE_BRANCH + childCondition;
    }

    /** The statement that reads the tasks of a shape, with all their children, on a dialect. */
    static String sql(Shape shape, Dialect dialect) {
        return (dialect.cachesUnionStatements() ? UNIONS : DERIVED_TABLES).get(shape);
    }

    /**
     * A statement that claims and reads at once, for PostgreSQL: {@code claim} is an {@code UPDATE …
     * RETURNING *} of the claimed task row, run as the CTE {@code claimed}, and {@code moreCte}, when not
     * null, one more data-modifying CTE after it ({@code name AS (INSERT …)}, its parameters after the
     * claim's). It returns the rows {@link #readClaimed} reads: the claimed row as the claim left it, its
     * message ids, and the row's version in the statement's snapshot, by which the reader knows that the
     * message ids (read in that snapshot) belong to the claimed version of the row.
     */
    static String claimingRead(String claim, String moreCte) {
        return claimingRead(claim, moreCte, "=");
    }

    /**
     * Like {@link #claimingRead(String, String)} for a claim of several rows: the rows {@link #readClaimedMany}
     * reads.
     */
    static String claimingReadOfMany(String claim, String moreCte) {
        return claimingRead(claim, moreCte, "IN");
    }

    private static String claimingRead(String claim, String moreCte, String membership) {
        StringBuilder sql = new StringBuilder("WITH claimed AS (").append(claim).append(") ");
        if (moreCte != null) {
            sql.append(", ").append(moreCte).append(' ');
        }
        return sql.append(TASK_COLUMNS)
                .append(", (SELECT s.version FROM taskagent_tasks s WHERE s.id = t.id) FROM claimed t UNION ALL ")
                .append(MESSAGE_BRANCH)
                .append(" WHERE c.task_id ")
                .append(membership)
                .append(" (SELECT id FROM claimed)")
                .toString();
    }

    /**
     * What a {@link #claimingRead} returned.
     *
     * @param taskId the claimed task
     * @param task the claimed task, or null when another unit of work wrote the task between the statement's
     *     snapshot and the claim's lock, so that its message ids must be read again
     */
    record ClaimedRead(long taskId, Task task) {}

    /**
     * @return the claimed task from the rows of a {@link #claimingRead}, or empty when it claimed nothing
     * @throws DamagedTaskException if the claimed task's documents are damaged
     */
    static Optional<ClaimedRead> readClaimed(ResultSet rows) throws SQLException {
        Map<Long, Parts> tasks = collect(rows);
        if (tasks.isEmpty()) {
            return Optional.empty();
        }
        if (tasks.size() > 1) {
            throw new IllegalStateException("A claim returned more than one task");
        }
        Parts parts = tasks.values().iterator().next();
        if (parts.task == null) {
            throw new IllegalStateException("A claim returned message ids without its task");
        }
        boolean snapshotCurrent = parts.snapshotVersion + 1 == parts.version;
        return Optional.of(new ClaimedRead(parts.id, snapshotCurrent ? parts.build() : null));
    }

    /**
     * @return the tasks from the rows of a {@link #claimingReadOfMany}, in no particular order; a task whose
     *     documents are damaged is left out and its id added to {@code damaged}
     */
    static List<ClaimedRead> readClaimedMany(ResultSet rows, List<Long> damaged) throws SQLException {
        Map<Long, Parts> tasks = collect(rows);
        List<ClaimedRead> claimed = new ArrayList<>(tasks.size());
        for (Parts parts : tasks.values()) {
            if (parts.task == null) {
                throw new IllegalStateException("A claim returned message ids without their task");
            }
            try {
                boolean snapshotCurrent = parts.snapshotVersion + 1 == parts.version;
                claimed.add(new ClaimedRead(parts.id, snapshotCurrent ? parts.build() : null));
            } catch (DamagedTaskException e) {
                damaged.add(parts.id);
            }
        }
        return claimed;
    }

    /** Reads a task that this unit of work holds locked, so that it exists. */
    static Task readLocked(Connection connection, Dialect dialect, long taskId) throws SQLException {
        return read(connection, dialect, Filter.id(taskId)).stream()
                .findFirst()
                .orElseThrow(() -> new TaskNotFoundException(taskId));
    }

    /**
     * Reads tasks by id, {@value #IDS_PER_READ} per statement (a fixed shape, so the statement is prepared
     * once per connection), in no particular order; ids of tasks that do not exist are skipped.
     */
    static List<Task> readIds(Connection connection, Dialect dialect, List<Long> ids) throws SQLException {
        return readIdsSkippingDamaged(connection, dialect, ids, null);
    }

    /**
     * Reads the selected tasks, in no particular order.
     *
     * @throws DamagedTaskException if a document of a selected task is damaged
     */
    static List<Task> read(Connection connection, Dialect dialect, Filter filter) throws SQLException {
        return read(connection, dialect, filter, null);
    }

    /**
     * Reads tasks in the order of their ids, leaving out a task whose documents are damaged (its id added to
     * {@code damaged}) and one deleted meanwhile: a listing or a batch goes on with the others.
     */
    static List<Task> readInOrder(Connection connection, Dialect dialect, List<Long> ids, List<Long> damaged)
            throws SQLException {
        Map<Long, Task> byId = new HashMap<>();
        for (Task task : readIdsSkippingDamaged(connection, dialect, ids, damaged)) {
            byId.put(task.id(), task);
        }
        List<Task> tasks = new ArrayList<>(ids.size());
        for (long id : ids) {
            Task task = byId.get(id);
            if (task != null) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    /**
     * Reads tasks by id like {@link #readIds}, leaving out the tasks whose documents are damaged and adding
     * their ids to {@code damaged}, for writes of many tasks that one damaged task must not stop; with a null
     * {@code damaged}, a damaged task throws {@link DamagedTaskException}.
     */
    static List<Task> readIdsSkippingDamaged(Connection connection, Dialect dialect, List<Long> ids, List<Long> damaged)
            throws SQLException {
        List<Task> tasks = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += IDS_PER_READ) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_READ));
            Object[] parameters = new Object[IDS_PER_READ];
            for (int index = 0; index < IDS_PER_READ; index++) {
                parameters[index] = chunk.get(Math.min(index, chunk.size() - 1));
            }
            tasks.addAll(read(connection, dialect, new Filter(Shape.IDS, parameters), damaged));
        }
        return tasks;
    }

    private static List<Task> read(Connection connection, Dialect dialect, Filter filter, List<Long> damaged)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql(filter.shape(), dialect))) {
            int index = 1;
            for (int branch = 0; branch < 2; branch++) {
                for (Object parameter : filter.parameters()) {
                    statement.setObject(index++, parameter);
                }
            }
            try (ResultSet rows = statement.executeQuery()) {
                return assemble(rows, damaged);
            }
        }
    }

    /** Builds the tasks of the rows; a damaged one throws, or with a {@code damaged} list is left out. */
    private static List<Task> assemble(ResultSet rows, List<Long> damaged) throws SQLException {
        Map<Long, Parts> tasks = collect(rows);
        List<Task> result = new ArrayList<>(tasks.size());
        for (Parts parts : tasks.values()) {
            // Message ids whose task row the filter matched in the join but not in the task branch cannot
            // occur within one statement; skip them defensively rather than build half a task.
            if (parts.task == null) {
                continue;
            }
            try {
                result.add(parts.build());
            } catch (DamagedTaskException e) {
                if (damaged == null) {
                    throw e;
                }
                damaged.add(parts.id);
            }
        }
        return result;
    }

    private static Map<Long, Parts> collect(ResultSet rows) throws SQLException {
        Map<Long, Parts> tasks = new LinkedHashMap<>();
        while (rows.next()) {
            String kind = rows.getString(1);
            Parts parts = tasks.computeIfAbsent(rows.getLong(2), Parts::new);
            switch (kind) {
                case "T" -> parts.readTask(rows);
                case "M" -> parts.messageIds.add(rows.getLong(3), rows.getString(4));
                default -> throw new IllegalStateException("Unknown row kind " + kind);
            }
        }
        return tasks;
    }

    private static Instant time(ResultSet rows, int column) throws SQLException {
        LocalDateTime value = rows.getObject(column, LocalDateTime.class);
        return value == null ? null : JdbcSupport.fromDatabase(value);
    }

    /** The rows of one task, gathered until the task can be built. */
    private static final class Parts {
        private final long id;
        private TaskBuilder task;
        private long version;
        private long snapshotVersion;
        private String progresses;
        private String preferences;
        private String comments;
        private String links;
        private String tags;
        private final Children<String> messageIds = new Children<>();

        Parts(long id) {
            this.id = id;
        }

        void readTask(ResultSet rows) throws SQLException {
            version = rows.getLong(12);
            task = TaskBuilder.newBuilder()
                    .id(id)
                    .description(rows.getString(4))
                    .steps(rows.getString(5))
                    .sessionId(rows.getString(6))
                    .createdAt(time(rows, 7))
                    .updatedAt(time(rows, 8))
                    .order(rows.getInt(9))
                    .priority(rows.getInt(10))
                    .currentStep(rows.getInt(11))
                    .version(version)
                    .status(TaskStatus.fromWireName(rows.getString(13)))
                    .assignee(rows.getString(14))
                    .previousAssignee(rows.getString(15))
                    .createdBy(rows.getString(16))
                    .archived(rows.getBoolean(17))
                    .attempt(rows.getInt(18))
                    .leaseExpiresAt(time(rows, 19))
                    .maxAttempts(rows.getInt(20));
            progresses = rows.getString(21);
            preferences = rows.getString(22);
            comments = rows.getString(23);
            links = rows.getString(24);
            task.parentId(rows.getLong(25))
                    .openBlockers(rows.getInt(26))
                    .blockedBy(Graph.readIds(rows.getString(27), id))
                    .metadata(rows.getString(29))
                    .notBefore(time(rows, 30));
            tags = rows.getString(28);
            snapshotVersion = rows.getLong(SNAPSHOT_VERSION);
        }

        /** @throws DamagedTaskException if a document of the task is damaged */
        Task build() {
            return task.progresses(TaskDocument.readStrings(progresses, id, "progresses"))
                    .userPreferences(TaskDocument.readStrings(preferences, id, "preferences"))
                    .comments(TaskDocument.readComments(comments, id))
                    .links(TaskDocument.readLinks(links, id))
                    .messageIds(messageIds.inOrder())
                    .tags(tags == null ? List.of() : TaskDocument.readStrings(tags, id, "tags"))
                    .build();
        }
    }

    /** The rows of one child table of one task, put in sequence order when they did not arrive in it. */
    static final class Children<T> {
        private final List<Sequenced<T>> entries = new ArrayList<>();
        private boolean inOrder = true;

        void add(long seq, T value) {
            if (!entries.isEmpty() && entries.get(entries.size() - 1).seq() > seq) {
                inOrder = false;
            }
            entries.add(new Sequenced<>(seq, value));
        }

        List<T> inOrder() {
            if (!inOrder) {
                entries.sort(Comparator.comparingLong(Sequenced::seq));
            }
            List<T> values = new ArrayList<>(entries.size());
            for (Sequenced<T> entry : entries) {
                values.add(entry.value());
            }
            return values;
        }
    }

    private record Sequenced<T>(long seq, T value) {}
}
