package dev.taskagent.benchmarks;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
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
 * <p>The comments and links are JSON documents in the task row. The loader never writes that format
 * itself: it adds one template task through the store's API (archived, with no assignee, so no claim takes
 * it), reads the template's documents once, and writes that text into every row it inserts, so the store's
 * own code is the one writer of the format. It writes no search rows (the store's search table): the
 * benchmarks that load tasks this way claim and move them, and never search them. This ties the
 * benchmarks to the store's schema (table and column names, the same on every database); {@link #verify} reads a loaded task back through the store and fails with a clear
 * message when the two have drifted apart. Thread-safe.
 */
final class JdbcStoreLoader {
    private static final int TASKS_PER_SESSION = 100;
    private static final int RECYCLE_BATCH = 500;

    /** Bumps a task row's version as the store's writes do. */
    static final String BUMP_VERSION = "version = version + 1";

    private final DataSource dataSource;
    private final String sessionPrefix;
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong tasksCreated = new AtomicLong();
    private volatile long templateId;
    private final int textKb;
    private volatile String[] templateDocuments;

    /**
     * @param dataSource the store's database
     * @param sessionPrefix makes the session ids of this loader unique in the database
     */
    JdbcStoreLoader(DataSource dataSource, String sessionPrefix) {
        this(dataSource, sessionPrefix, 0);
    }

    /**
     * @param dataSource the store's database
     * @param sessionPrefix makes the session ids of this loader unique in the database
     * @param textKb how many progress entries of about a kilobyte of words each task carries besides its
     *     description and comments ({@link Fixtures#progress}), so that a write's cost over the task's text shows
     */
    JdbcStoreLoader(DataSource dataSource, String sessionPrefix, int textKb) {
        if (textKb < 0) {
            throw new IllegalArgumentException("textKb must be 0 or more, was " + textKb);
        }
        this.dataSource = dataSource;
        this.sessionPrefix = sessionPrefix;
        this.textKb = textKb;
    }

    /**
     * Adds pending tasks, each with two comments and two links, in sessions of up to 100 tasks.
     *
     * @param assignee their assignee
     * @param count how many
     * @return their ids, in the order they were added
     */
    long[] addTasks(String assignee, int count) {
        String[] documents = templateDocuments();
        long[] ids = new long[count];
        int done = 0;
        while (done < count) {
            int batch = Math.min(TASKS_PER_SESSION, count - done);
            addSession(assignee, batch, ids, done, documents);
            done += batch;
        }
        return ids;
    }

    /**
     * The template task whose documents every loaded task copies, written through the store's API on first
     * use: two comments and two links.
     *
     * @return its id
     */
    long templateId() {
        long id = templateId;
        if (id != 0) {
            return id;
        }
        synchronized (this) {
            if (templateId == 0) {
                try (JdbcTaskStore store =
                        JdbcTaskStore.builder(dataSource).withoutEventFeed().build()) {
                    templateId = store.inTransaction(tx -> {
                        long task = tx.appendTask(NewTask.of(sessionPrefix + "-template", "template of loaded tasks"))
                                .id();
                        tx.addComment(task, Fixtures.COMMENT_AUTHOR, Fixtures.FIRST_COMMENT);
                        tx.addComment(task, Fixtures.COMMENT_AUTHOR, Fixtures.SECOND_COMMENT);
                        tx.addLink(task, Fixtures.FIRST_LINK, Fixtures.FIRST_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
                        tx.addLink(
                                task, Fixtures.SECOND_LINK, Fixtures.SECOND_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
                        for (int entry = 0; entry < textKb; entry++) {
                            tx.appendProgress(task, Fixtures.progress(entry));
                        }
                        return tx.updateTask(TaskUpdate.of(task).archived(true).build())
                                .id();
                    });
                }
            }
            return templateId;
        }
    }

    /**
     * The template's four documents (progresses, preferences, comments, links), read once: the text the
     * store wrote, copied into every loaded row.
     */
    private String[] templateDocuments() {
        String[] documents = templateDocuments;
        if (documents != null) {
            return documents;
        }
        long id = templateId();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT progresses, preferences, comments, links FROM taskagent_tasks WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("The template task " + id + " is gone");
                }
                documents = new String[] {row.getString(1), row.getString(2), row.getString(3), row.getString(4)};
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Reading the template task failed: " + e.getMessage()
                            + "; has the schema of storage-jdbc changed? Update JdbcStoreLoader",
                    e);
        }
        templateDocuments = documents;
        return documents;
    }

    private void addSession(String assignee, int count, long[] ids, int offset, String[] documents) {
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
                try (PreparedStatement task = connection.prepareStatement(
                        "INSERT INTO taskagent_tasks (session_id,"
                                + " task_order, description, status, priority, assignee, previous_assignee, created_by,"
                                + " archived, steps, current_step, created_at, updated_at, version, progresses, preferences,"
                                + " comments, links) VALUES (?, ?, ?, 'pending', ?, ?, NULL, ?, ?, NULL, 0, ?, ?, 1, ?, ?, ?, ?)")) {
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
                        for (int document = 0; document < documents.length; document++) {
                            task.setString(10 + document, documents[document]);
                        }
                        task.addBatch();
                    }
                    task.executeBatch();
                }
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
     * Makes claimed tasks pending again, in batches, bumping their version as the store's own writes do.
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
}
