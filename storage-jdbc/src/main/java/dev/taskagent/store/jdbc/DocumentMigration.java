package dev.taskagent.store.jdbc;

import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data step of schema version 6: moves each task's progresses, preferences, comments and links from
 * their tables into the task row's documents ({@link TaskDocument}, the store's one writer of the format),
 * {@value #BATCH} tasks per transaction. A task is moved once its {@code comments} column is no longer NULL,
 * so a migration killed half-way goes on with the tasks it had not reached, and two processes migrating at
 * once write the same documents.
 *
 * <p>Thread-safe (stateless).
 */
final class DocumentMigration {
    private static final Logger LOG = LoggerFactory.getLogger(DocumentMigration.class);

    /** Tasks moved per transaction. */
    static final int BATCH = 500;

    private DocumentMigration() {}

    /**
     * Moves every task not moved yet; commits after each batch.
     *
     * @param connection in manual-commit mode
     * @return how many tasks it moved
     */
    static long run(Connection connection) throws SQLException {
        long moved = 0;
        long after = 0;
        while (true) {
            List<Long> ids = nextBatch(connection, after);
            if (ids.isEmpty()) {
                break;
            }
            move(connection, ids);
            connection.commit();
            moved += ids.size();
            after = ids.get(ids.size() - 1);
            if (moved % (BATCH * 100L) == 0) {
                LOG.info("Moved the children of {} tasks into their rows so far", moved);
            }
        }
        return moved;
    }

    private static List<Long> nextBatch(Connection connection, long after) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT id FROM taskagent_tasks" + " WHERE id > ? AND comments IS NULL ORDER BY id LIMIT " + BATCH)) {
            statement.setLong(1, after);
            try (ResultSet rows = statement.executeQuery()) {
                List<Long> ids = new ArrayList<>(BATCH);
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
                return ids;
            }
        }
    }

    private static void move(Connection connection, List<Long> ids) throws SQLException {
        String in = " WHERE task_id IN (" + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")"
                + " ORDER BY task_id, id";
        Map<Long, List<String>> progresses = new HashMap<>();
        Map<Long, List<String>> preferences = new HashMap<>();
        Map<Long, List<Comment>> comments = new HashMap<>();
        Map<Long, List<Link>> links = new HashMap<>();
        select(connection, "SELECT task_id, content FROM taskagent_progresses" + in, ids, rows -> progresses
                .computeIfAbsent(rows.getLong(1), id -> new ArrayList<>())
                .add(rows.getString(2)));
        select(connection, "SELECT task_id, content FROM taskagent_preferences" + in, ids, rows -> preferences
                .computeIfAbsent(rows.getLong(1), id -> new ArrayList<>())
                .add(rows.getString(2)));
        select(
                connection,
                "SELECT task_id, author, content, created_at FROM taskagent_comments" + in,
                ids,
                rows -> comments.computeIfAbsent(rows.getLong(1), id -> new ArrayList<>())
                        .add(new Comment(rows.getString(2), rows.getString(3), time(rows, 4))));
        select(
                connection,
                "SELECT task_id, url, description, author, created_at FROM taskagent_links" + in,
                ids,
                rows -> links.computeIfAbsent(rows.getLong(1), id -> new ArrayList<>())
                        .add(new Link(rows.getString(2), rows.getString(3), rows.getString(4), time(rows, 5))));
        try (PreparedStatement update = connection.prepareStatement("UPDATE taskagent_tasks SET progresses = ?,"
                + " preferences = ?, comments = ?, links = ? WHERE id = ? AND comments IS NULL")) {
            for (long id : ids) {
                update.setString(1, TaskDocument.strings(progresses.getOrDefault(id, List.of())));
                update.setString(2, TaskDocument.strings(preferences.getOrDefault(id, List.of())));
                update.setString(3, TaskDocument.comments(comments.getOrDefault(id, List.of())));
                update.setString(4, TaskDocument.links(links.getOrDefault(id, List.of())));
                update.setLong(5, id);
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rows) throws SQLException;
    }

    private static void select(Connection connection, String sql, List<Long> ids, RowReader reader)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int index = 0; index < ids.size(); index++) {
                statement.setLong(index + 1, ids.get(index));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    reader.read(rows);
                }
            }
        }
    }

    private static java.time.Instant time(ResultSet rows, int column) throws SQLException {
        return JdbcSupport.fromDatabase(rows.getObject(column, LocalDateTime.class));
    }
}
