package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskPage;
import dev.taskagent.store.spi.DeadLetterPaging;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One page of the dead letters (TS-2.8) in one statement: failed, non-archived tasks whose attempt reached their
 * limit, by id after the cursor's last task and at most the first page's highest task id, with the count of the
 * rest by a window function; then the page's tasks read by id. On PostgreSQL the count reads the partial index of
 * failed tasks (schema version 12); elsewhere it visits every task of the range, but only its id, status and
 * attempts: the documents read are the page's.
 *
 * <p>Thread-safe (stateless).
 */
final class DeadLetterPages {

    private DeadLetterPages() {}

    /**
     * The page's statement: parameters the last id of the previous page (0 for the first), the listing's highest
     * id and the default attempt limit. Its literal status and archived conditions let PostgreSQL read it from the
     * partial index {@code taskagent_tasks_dead_letters}.
     */
    static String sql(int limit) {
        return "SELECT id, COUNT(*) OVER () AS total FROM taskagent_tasks WHERE id > ? AND id <= ?"
                + " AND status = '" + TaskStatus.FAILED.wireName() + "' AND archived = FALSE"
                + " AND attempt >= CASE WHEN max_attempts > 0 THEN max_attempts ELSE ? END"
                + " ORDER BY id LIMIT " + limit;
    }

    static TaskPage page(Connection connection, Dialect dialect, int defaultMaxAttempts, int limit, String cursor)
            throws SQLException {
        DeadLetterPaging.checkArguments(defaultMaxAttempts, limit);
        Optional<SearchCursors.ListingPosition> after = DeadLetterPaging.after(defaultMaxAttempts, cursor);
        long watermark = after.isPresent() ? after.get().watermark() : Search.highestId(connection);
        long lastId = after.map(SearchCursors.ListingPosition::lastId).orElse(0L);
        String sql = sql(limit);
        IdPage page = IdPage.read(connection, sql, List.of(lastId, watermark, defaultMaxAttempts), limit);
        if (page.ids().isEmpty()) {
            return TaskPage.empty();
        }
        List<Task> tasks = TaskReader.readInOrder(connection, dialect, page.ids(), new ArrayList<>());
        return new TaskPage(
                tasks,
                page.remaining(),
                page.remaining() == 0 ? null : DeadLetterPaging.cursor(defaultMaxAttempts, watermark, page.lastId()));
    }
}
