package dev.taskagent.store.spi;

import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.task.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The paging of an agent's queue (TS-2.6, TS-2.7) over tasks held in memory, for stores that read the whole queue
 * anyway; a store with an index pages in its own query and writes its cursors with {@link SearchCursors}.
 *
 * <p>Thread-safe (stateless).
 */
public final class QueuePaging {

    private QueuePaging() {}

    /**
     * Returns a page of a queue listing: checks the query's cursor, keeps the tasks the query keeps that lie after
     * the cursor and at or below the first page's watermark, and cuts the page.
     *
     * @param query the agent, filters, page size and cursor
     * @param highestId the highest task id of the store, or of the agent's queue, now (the watermark of a first
     *     page)
     * @param queue the agent's non-archived tasks in claim order (TS-2.5); others are skipped
     * @return the page
     * @throws dev.taskagent.store.PageCursorException if the query's cursor is not one of this query
     */
    public static TaskPage page(QueueQuery query, long highestId, Iterable<Task> queue) {
        Optional<SearchCursors.QueuePosition> after = SearchCursors.decode(query);
        long watermark = after.map(SearchCursors.QueuePosition::watermark).orElse(highestId);
        List<Task> page = new ArrayList<>(Math.min(query.limit(), 64));
        long remaining = 0;
        for (Task task : queue) {
            if (task.id() > watermark
                    || !query.keeps(task)
                    || (after.isPresent() && !after.get().precedes(task))) {
                continue;
            }
            if (page.size() < query.limit()) {
                page.add(task);
            } else {
                remaining++;
            }
        }
        String cursor = remaining == 0
                ? null
                : SearchCursors.encode(query, SearchCursors.QueuePosition.after(watermark, page.get(page.size() - 1)));
        return new TaskPage(page, remaining, cursor);
    }

    /**
     * The highest id among tasks, for a store that knows no better watermark.
     *
     * @param tasks the tasks
     * @return the highest id; 0 when there is none
     */
    public static long highestId(Iterable<Task> tasks) {
        long highest = 0;
        for (Task task : tasks) {
            highest = Math.max(highest, task.id());
        }
        return highest;
    }
}
