package dev.taskagent.store.jdbc;

import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads tasks with every field in ONE statement: the task rows and their progresses, preferences,
 * comments, links and message ids, as a UNION ALL of one branch per table. One statement sees one
 * committed state of the database on every supported database at READ COMMITTED, so a reader never sees a
 * task row from before a commit beside children from after it (TS-1.3).
 *
 * <p>The statement has no ORDER BY: the rows are put in order here (children by their sequence), which
 * spares the database a sort of the whole union (MariaDB writes it to a temporary table). A read by id
 * or by a list of ids matches the children's {@code task_id} directly; the other reads join them to the
 * selected task rows.
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

        /** Selects the child rows (alias c) by their task_id, or null to join them to the selected tasks. */
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

    private static final int COLUMNS = 20;

    // Columns: kind, task_id, seq, text_a, text_b, text_c, time_a, time_b, int_a, int_b, int_c, long_a,
    // status, assignee, previous_assignee, created_by, archived, attempt, lease_expires_at, max_attempts.
    // The task branch comes first so that
    // its types decide the union's column types; the other branches fill what they lack with NULL.
    private static final String TASK_COLUMNS = "SELECT 'T' AS kind, t.id AS task_id, 0 AS seq,"
            + " t.description AS text_a, t.steps AS text_b, t.session_id AS text_c, t.created_at AS time_a,"
            + " t.updated_at AS time_b, t.task_order AS int_a, t.priority AS int_b, t.current_step AS int_c,"
            + " t.version AS long_a, t.status AS status, t.assignee AS assignee,"
            + " t.previous_assignee AS previous_assignee, t.created_by AS created_by, t.archived AS archived,"
            + " t.attempt AS attempt, t.lease_expires_at AS lease_expires_at, t.max_attempts AS max_attempts";
    private static final String TASK_BRANCH = TASK_COLUMNS + " FROM taskagent_tasks t WHERE ";
    private static final List<String> CHILD_BRANCHES = List.of(
            childBranch("P", "taskagent_progresses", "c.id", "c.content"),
            childBranch("U", "taskagent_preferences", "c.id", "c.content"),
            childBranch("C", "taskagent_comments", "c.id", "c.content", "c.author", "NULL", "c.created_at"),
            childBranch("L", "taskagent_links", "c.id", "c.url", "c.description", "c.author", "c.created_at"),
            childBranch("M", "taskagent_messages", "c.seq", "c.message_id"));

    /** The task columns, then the children's text and its version ({@link ChildrenText}), of the row t. */
    private static final String CLAIMED_COLUMNS =
            TASK_COLUMNS + ", t.children_text AS children_text, t.children_version AS children_version";

    /** Reads a claimed task's row by id, for {@link #readClaimed}. */
    static final String CLAIMED_ROW = CLAIMED_COLUMNS + " FROM taskagent_tasks t WHERE t.id = ?";

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

    private static String childBranch(String kind, String table, String seq, String... columns) {
        StringBuilder sql = new StringBuilder("SELECT '")
                .append(kind)
                .append("', c.task_id, ")
                .append(seq);
        for (String column : columns) {
            sql.append(", ").append(column);
        }
        for (int column = 3 + columns.length; column < COLUMNS; column++) {
            sql.append(", NULL");
        }
        return sql.append(" FROM ").append(table).append(" c").toString();
    }

    private static String union(Shape shape) {
        StringBuilder sql = new StringBuilder(TASK_BRANCH).append(shape.condition);
        // The children of the selected tasks by a join, not "c.task_id IN (SELECT ...)": H2 evaluated the
        // IN subquery as a list and scanned each child table whole, so a session's read grew with the
        // database (an extraction iteration on H2 took 66 ms where it had taken 14).
        // A read by id matches the children's task_id straight away (an index lookup per id); the other
        // shapes join the task table. Joined, a read of 50 ids made PostgreSQL hash whole child tables.
        String childCondition = shape.childCondition != null
                ? " WHERE " + shape.childCondition
                : " JOIN taskagent_tasks t ON t.id = c.task_id WHERE " + shape.condition;
        for (String branch : CHILD_BRANCHES) {
            sql.append(" UNION ALL ").append(branch).append(childCondition);
        }
        return sql.toString();
    }

    /** The statement that reads the tasks of a shape, with all their children, on a dialect. */
    static String sql(Shape shape, Dialect dialect) {
        return (dialect.cachesUnionStatements() ? UNIONS : DERIVED_TABLES).get(shape);
    }

    /**
     * A statement that claims and reads at once, for PostgreSQL: {@code claim} is an {@code UPDATE … RETURNING
     * *} of the claimed task row; run as the CTE {@code claimed}, it returns that row with its children's
     * text ({@link ChildrenText}), for {@link #readClaimed}. The row is the newest committed version, the
     * one the claim locked, so its text belongs to it. The statement reads no child table: a statement
     * that did, even to find no rows, set up each table and index on every claim, a third of its cost.
     */
    static String claimingRead(String claim) {
        return claimingRead(claim, null);
    }

    /**
     * A {@link #claimingRead(String)} with one more data-modifying CTE after {@code claimed}, which reads it:
     * {@code name AS (INSERT …)}. PostgreSQL runs it to completion whether or not the statement reads it; its
     * parameters follow the claim's.
     */
    static String claimingRead(String claim, String moreCte) {
        StringBuilder sql = new StringBuilder("WITH claimed AS (").append(claim).append(") ");
        if (moreCte != null) {
            sql.append(", ").append(moreCte).append(' ');
        }
        return sql.append(CLAIMED_COLUMNS).append(" FROM claimed t").toString();
    }

    /**
     * What a {@link #claimingRead} or {@link #CLAIMED_ROW} returned.
     *
     * @param taskId the claimed task
     * @param task the claimed task, or null when the row's children's text is not valid ({@link ChildrenText}),
     *     so that its children must be read from their tables
     */
    record ClaimedRead(long taskId, Task task) {}

    /**
     * @return the claimed task from the row of a {@link #claimingRead} or {@link #CLAIMED_ROW}, or empty when
     *     there is no row
     */
    static Optional<ClaimedRead> readClaimed(ResultSet rows) throws SQLException {
        if (!rows.next()) {
            return Optional.empty();
        }
        Parts parts = new Parts(rows.getLong(2));
        parts.readTask(rows);
        String text = rows.getString(21);
        long textVersion = rows.getLong(22);
        if (rows.next()) {
            throw new IllegalStateException("A claim returned more than one row");
        }
        if (text == null || textVersion != parts.version) {
            return Optional.of(new ClaimedRead(parts.id, null));
        }
        ChildrenText.Children children;
        try {
            children = ChildrenText.parse(text);
        } catch (IllegalArgumentException e) {
            // Written by hand or damaged: the child tables are the truth.
            return Optional.of(new ClaimedRead(parts.id, null));
        }
        return Optional.of(new ClaimedRead(
                parts.id,
                parts.task
                        .progresses(children.progresses())
                        .userPreferences(children.preferences())
                        .comments(children.comments())
                        .links(children.links())
                        .messageIds(children.messageIds())
                        .build()));
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
        List<Task> tasks = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += IDS_PER_READ) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_READ));
            Object[] parameters = new Object[IDS_PER_READ];
            for (int index = 0; index < IDS_PER_READ; index++) {
                parameters[index] = chunk.get(Math.min(index, chunk.size() - 1));
            }
            tasks.addAll(read(connection, dialect, new Filter(Shape.IDS, parameters)));
        }
        return tasks;
    }

    /** Reads the selected tasks, in no particular order. */
    static List<Task> read(Connection connection, Dialect dialect, Filter filter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql(filter.shape(), dialect))) {
            int index = 1;
            for (int branch = 0; branch <= CHILD_BRANCHES.size(); branch++) {
                for (Object parameter : filter.parameters()) {
                    statement.setObject(index++, parameter);
                }
            }
            try (ResultSet rows = statement.executeQuery()) {
                return assemble(rows);
            }
        }
    }

    private static List<Task> assemble(ResultSet rows) throws SQLException {
        Map<Long, Parts> tasks = collect(rows);
        List<Task> result = new ArrayList<>(tasks.size());
        for (Parts parts : tasks.values()) {
            // A child whose task row the filter matched in its subquery but not in the task branch
            // cannot occur within one statement; skip it defensively rather than build half a task.
            if (parts.task != null) {
                result.add(parts.build());
            }
        }
        return result;
    }

    private static Map<Long, Parts> collect(ResultSet rows) throws SQLException {
        Map<Long, Parts> tasks = new LinkedHashMap<>();
        while (rows.next()) {
            String kind = rows.getString(1);
            Parts parts = tasks.computeIfAbsent(rows.getLong(2), Parts::new);
            long seq = rows.getLong(3);
            switch (kind) {
                case "T" -> parts.readTask(rows);
                case "P" -> parts.progresses.add(seq, rows.getString(4));
                case "U" -> parts.preferences.add(seq, rows.getString(4));
                case "C" -> parts.comments.add(seq, new Comment(rows.getString(5), rows.getString(4), time(rows, 7)));
                case "L" ->
                    parts.links.add(
                            seq, new Link(rows.getString(4), rows.getString(5), rows.getString(6), time(rows, 7)));
                case "M" -> parts.messageIds.add(seq, rows.getString(4));
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
        private final Children<String> progresses = new Children<>();
        private final Children<String> preferences = new Children<>();
        private final Children<Comment> comments = new Children<>();
        private final Children<Link> links = new Children<>();
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
        }

        Task build() {
            return task.progresses(progresses.inOrder())
                    .userPreferences(preferences.inOrder())
                    .comments(comments.inOrder())
                    .links(links.inOrder())
                    .messageIds(messageIds.inOrder())
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
