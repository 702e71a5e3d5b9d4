package dev.taskagent.store.jdbc;

import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One page of an agent's queue (TS-2.6, TS-2.7) in one statement: a keyset over the claim order (priority
 * descending, then {@code created_at}, then id) after the cursor's last task, bounded by the first page's highest
 * task id, with the count of the rest by a window function; then the page's tasks read by id.
 *
 * <p>Thread-safe (stateless).
 */
final class QueuePages {

    private QueuePages() {}

    static TaskPage page(Connection connection, Dialect dialect, QueueQuery query) throws SQLException {
        Optional<SearchCursors.QueuePosition> after = SearchCursors.decode(query);
        long watermark = after.isPresent() ? after.get().watermark() : Search.highestId(connection);
        List<Object> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT id, COUNT(*) OVER () AS total FROM taskagent_tasks"
                + " WHERE assignee = ? AND archived = FALSE AND id <= ?");
        parameters.add(query.assignee());
        parameters.add(watermark);
        switch (query.readiness()) {
            case ALL -> {}
            case READY -> sql.append(" AND status = " + Dialect.PENDING + " AND open_blockers = 0");
            case BLOCKED ->
                sql.append(" AND open_blockers > 0 AND status NOT IN ('" + TaskStatus.SUCCESS.wireName() + "', '"
                        + TaskStatus.FAILED.wireName() + "', '" + TaskStatus.CANCELLED.wireName() + "')");
        }
        query.tag().ifPresent(tag -> Search.appendTagCondition(sql, tag, parameters));
        if (after.isPresent()) {
            SearchCursors.QueuePosition position = after.get();
            sql.append(" AND (priority < ? OR (priority = ? AND (created_at > ? OR (created_at = ? AND id > ?))))");
            parameters.add(position.priority());
            parameters.add(position.priority());
            parameters.add(JdbcSupport.toDatabase(position.createdAt()));
            parameters.add(JdbcSupport.toDatabase(position.createdAt()));
            parameters.add(position.lastId());
        }
        sql.append(" ORDER BY priority DESC, created_at, id LIMIT ").append(query.limit());
        IdPage page = IdPage.read(connection, sql.toString(), parameters, query.limit());
        if (page.ids().isEmpty()) {
            return TaskPage.empty();
        }
        List<Task> tasks = TaskReader.readInOrder(connection, dialect, page.ids(), new ArrayList<>());
        long remaining = page.remaining();
        String cursor = null;
        if (remaining > 0) {
            // The key of the last row listed, as read in this unit of work: a damaged task left out of the page
            // still marks where it ends.
            long lastId = page.lastId();
            Task last =
                    !tasks.isEmpty() && tasks.get(tasks.size() - 1).id() == lastId ? tasks.get(tasks.size() - 1) : null;
            cursor = SearchCursors.encode(
                    query,
                    last != null
                            ? SearchCursors.QueuePosition.after(watermark, last)
                            : lastKey(connection, watermark, lastId));
        }
        return new TaskPage(tasks, remaining, cursor);
    }

    private static SearchCursors.QueuePosition lastKey(Connection connection, long watermark, long id)
            throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT priority, created_at FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new SearchCursors.QueuePosition(
                        watermark,
                        rows.getInt(1),
                        JdbcSupport.fromDatabase(rows.getObject(2, java.time.LocalDateTime.class)),
                        id);
            }
        }
    }
}
