package dev.taskagent.benchmarks;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Fills the JDBC store's tables for a benchmark with plain batched SQL: the same rows the store's API
 * would write (a task with two comments and two links), at a small fraction of the cost. Through the API
 * a task with its comments and links takes five units of work of several statements each, a few
 * milliseconds on PostgreSQL, which would make stocking the queue, not claiming from it, the time of a
 * run; claims, moves and every figure still go through the store's API.
 *
 * <p>This ties the benchmarks to the store's schema (table and column names, the same on every database),
 * including the copy of a task's children that version 5 keeps in the task row ({@code children_text}, in
 * the format of the store's {@code ChildrenText}, valid while {@code children_version} equals {@code
 * version}), which a claim returns. {@link #verify} reads a loaded task back through the store and fails
 * with a clear message when the two have drifted apart; {@code JdbcStoreLoaderTest} claims loaded tasks and
 * compares them with what the store reads from the child tables. Thread-safe.
 */
final class JdbcStoreLoader {
    private static final int TASKS_PER_SESSION = 100;
    private static final int RECYCLE_BATCH = 500;

    /**
     * Bumps a task row's version as the store's writes do, carrying the row's copy of the children along
     * ({@code children_version} first: MariaDB assigns left to right).
     */
    static final String BUMP_VERSION = "children_version = CASE WHEN children_version = version THEN version + 1"
            + " ELSE children_version END, version = version + 1";

    private final DataSource dataSource;
    private final String sessionPrefix;
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong tasksCreated = new AtomicLong();

    /**
     * @param dataSource the store's database
     * @param sessionPrefix makes the session ids of this loader unique in the database
     */
    JdbcStoreLoader(DataSource dataSource, String sessionPrefix) {
        this.dataSource = dataSource;
        this.sessionPrefix = sessionPrefix;
    }

    /**
     * Adds pending tasks, each with two comments and two links, in sessions of up to 100 tasks.
     *
     * @param assignee their assignee
     * @param count how many
     * @return their ids, in the order they were added
     */
    long[] addTasks(String assignee, int count) {
        long[] ids = new long[count];
        int done = 0;
        while (done < count) {
            int batch = Math.min(TASKS_PER_SESSION, count - done);
            addSession(assignee, batch, ids, done);
            done += batch;
        }
        return ids;
    }

    private void addSession(String assignee, int count, long[] ids, int offset) {
        String sessionId = sessionPrefix + "-" + sessions.incrementAndGet();
        long firstNumber = tasksCreated.getAndAdd(count);
        LocalDateTime now = LocalDateTime.ofInstant(Instant.now().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                try (PreparedStatement session =
                        connection.prepareStatement("INSERT INTO taskagent_sessions (session_id) VALUES (?)")) {
                    session.setString(1, sessionId);
                    session.executeUpdate();
                }
                try (PreparedStatement task = connection.prepareStatement("INSERT INTO taskagent_tasks (session_id,"
                        + " task_order, description, status, priority, assignee, previous_assignee, created_by,"
                        + " archived, steps, current_step, created_at, updated_at, version, children_text,"
                        + " children_version) VALUES (?, ?, ?, 'pending', ?, ?, NULL, ?, ?, NULL, 0, ?, ?, 1, ?, 1)")) {
                    String children = childrenText(now.toInstant(ZoneOffset.UTC).toString());
                    for (int index = 0; index < count; index++) {
                        long number = firstNumber + index;
                        task.setString(1, sessionId);
                        task.setInt(2, index + 1);
                        task.setString(3, Fixtures.description(number));
                        task.setInt(4, (int) (number % 3));
                        task.setString(5, assignee);
                        task.setString(6, Fixtures.CREATED_BY);
                        task.setBoolean(7, false);
                        task.setObject(8, now);
                        task.setObject(9, now);
                        task.setString(10, children);
                        task.addBatch();
                    }
                    task.executeBatch();
                }
                // One statement per comment and link for the whole session: the ids of the first come
                // before those of the second, as when they are added one after the other.
                addChildren(
                        connection,
                        "INSERT INTO taskagent_comments (task_id, author, content, created_at)"
                                + " SELECT id, ?, ?, ? FROM taskagent_tasks WHERE session_id = ? ORDER BY id",
                        sessionId,
                        now,
                        Fixtures.COMMENT_AUTHOR,
                        Fixtures.FIRST_COMMENT);
                addChildren(
                        connection,
                        "INSERT INTO taskagent_comments (task_id, author, content, created_at)"
                                + " SELECT id, ?, ?, ? FROM taskagent_tasks WHERE session_id = ? ORDER BY id",
                        sessionId,
                        now,
                        Fixtures.COMMENT_AUTHOR,
                        Fixtures.SECOND_COMMENT);
                addChildren(
                        connection,
                        "INSERT INTO taskagent_links (task_id, url, description, author, created_at)"
                                + " SELECT id, ?, ?, ?, ? FROM taskagent_tasks WHERE session_id = ? ORDER BY id",
                        sessionId,
                        now,
                        Fixtures.FIRST_LINK,
                        Fixtures.FIRST_LINK_DESCRIPTION,
                        Fixtures.COMMENT_AUTHOR);
                addChildren(
                        connection,
                        "INSERT INTO taskagent_links (task_id, url, description, author, created_at)"
                                + " SELECT id, ?, ?, ?, ? FROM taskagent_tasks WHERE session_id = ? ORDER BY id",
                        sessionId,
                        now,
                        Fixtures.SECOND_LINK,
                        Fixtures.SECOND_LINK_DESCRIPTION,
                        Fixtures.COMMENT_AUTHOR);
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT id FROM taskagent_tasks WHERE session_id = ? ORDER BY task_order")) {
                    select.setString(1, sessionId);
                    try (ResultSet rows = select.executeQuery()) {
                        int index = offset;
                        while (rows.next()) {
                            ids[index++] = rows.getLong(1);
                        }
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Loading tasks into the store's tables failed: " + e.getMessage()
                            + "; has the schema of storage-jdbc changed? Update JdbcStoreLoader",
                    e);
        }
    }

    /**
     * The copy of the two comments and two links that the store would keep in the task row: each entry a
     * kind letter, then each field as its length, a colon and its characters.
     */
    static String childrenText(String createdAt) {
        return entry("C", Fixtures.COMMENT_AUTHOR, Fixtures.FIRST_COMMENT, createdAt)
                + entry("C", Fixtures.COMMENT_AUTHOR, Fixtures.SECOND_COMMENT, createdAt)
                + entry("L", Fixtures.FIRST_LINK, Fixtures.FIRST_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR, createdAt)
                + entry(
                        "L",
                        Fixtures.SECOND_LINK,
                        Fixtures.SECOND_LINK_DESCRIPTION,
                        Fixtures.COMMENT_AUTHOR,
                        createdAt);
    }

    private static String entry(String kind, String... fields) {
        StringBuilder entry = new StringBuilder(kind);
        for (String field : fields) {
            entry.append(field.length()).append(':').append(field);
        }
        return entry.toString();
    }

    private static void addChildren(
            Connection connection, String sql, String sessionId, LocalDateTime now, String... texts)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            int index = 1;
            for (String text : texts) {
                insert.setString(index++, text);
            }
            insert.setObject(index++, now);
            insert.setString(index, sessionId);
            insert.executeUpdate();
        }
    }

    /**
     * Makes claimed tasks pending again, in batches, carrying the row's copy of the children along as the
     * store's own writes do.
     *
     * @param ids the ids, in {@code ids[0..count)}
     * @param count how many
     */
    void makePending(long[] ids, int count) {
        if (count == 0) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE taskagent_tasks SET status = 'pending', " + BUMP_VERSION + " WHERE id = ?")) {
                for (int index = 0; index < count; index++) {
                    update.setLong(1, ids[index]);
                    update.addBatch();
                    if ((index + 1) % RECYCLE_BATCH == 0 || index + 1 == count) {
                        update.executeBatch();
                        connection.commit();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Making claimed tasks pending again failed: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a loaded task back through the store and checks that it is what the API would have written.
     *
     * @param store the store on the same database
     * @param taskId a task this loader added
     * @param assignee its assignee
     * @throws IllegalStateException if the store reads something else
     */
    static void verify(TaskStore store, long taskId, String assignee) {
        Task task = store.findTask(taskId)
                .orElseThrow(() -> new IllegalStateException("The store does not find loaded task " + taskId
                        + "; JdbcStoreLoader is out of step with the schema of storage-jdbc"));
        boolean asExpected = task.status() == TaskStatus.PENDING
                && assignee.equals(task.assignee())
                && task.comments().size() == 2
                && task.comments().get(0).text().equals(Fixtures.FIRST_COMMENT)
                && task.links().size() == 2
                && task.links().get(1).url().equals(Fixtures.SECOND_LINK);
        if (!asExpected) {
            throw new IllegalStateException("The store reads loaded task " + taskId + " as " + task
                    + "; JdbcStoreLoader is out of step with the schema of storage-jdbc");
        }
    }

    /**
     * Checks that a loaded task's row carries a valid copy of its children, so that claims of loaded tasks
     * take the store's path for tasks it wrote itself.
     *
     * @param taskId a task this loader added
     * @throws IllegalStateException if the copy is missing or not valid for the row's version
     */
    void verifyChildrenText(long taskId) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT children_text, children_version, version FROM taskagent_tasks WHERE id = ?")) {
            select.setLong(1, taskId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next() || row.getString(1) == null || row.getLong(2) != row.getLong(3)) {
                    throw new IllegalStateException("Loaded task " + taskId + " has no valid copy of its children;"
                            + " JdbcStoreLoader is out of step with the schema of storage-jdbc");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Reading loaded task " + taskId + " failed: " + e.getMessage(), e);
        }
    }
}
