package dev.taskagent.store;

import dev.taskagent.task.Task;
import java.util.List;
import java.util.Optional;

/**
 * One page of a listing of tasks, with how many tasks follow it and the cursor of the next page: an agent's queue
 * in claim order (TS-2.6 of {@link TaskStore}, {@link QueueQuery}), a search's matches best first (TS-13, {@link
 * SearchQuery}), or the dead letters by id ({@link dev.taskagent.queue.TaskQueue#deadLetters(int, String)}).
 *
 * <p>Paging is stable while tasks are added: the cursor holds the place of the last task in the listing's order,
 * not a count, and the first page fixes which tasks the listing covers (those that existed then). So across the
 * pages of one listing no task is returned twice or left out, however many tasks are created in between; a new
 * listing sees them. A cursor belongs to its listing: given to another, it is refused.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tasks the tasks of this page, in the listing's order; at most the query's limit
 * @param remaining how many tasks of the listing follow this page (0 on the last page)
 * @param cursor the cursor of the next page (for {@link QueueQuery#withCursor(String)}, {@link
 *     SearchQuery#withCursor(String)} or the dead letters); null on the last page
 */
public record TaskPage(List<Task> tasks, long remaining, String cursor) {

    /**
     * Checks the invariants.
     *
     * @param tasks not null
     * @param remaining not negative; 0 exactly when there is no cursor
     * @param cursor null exactly when nothing remains
     */
    public TaskPage {
        tasks = List.copyOf(tasks);
        if (remaining < 0 || (remaining == 0) != (cursor == null)) {
            throw new IllegalArgumentException(
                    "a page has a cursor exactly when tasks remain: remaining=" + remaining + ", cursor=" + cursor);
        }
    }

    /**
     * An empty last page.
     *
     * @return a page without tasks and without a next one
     */
    public static TaskPage empty() {
        return new TaskPage(List.of(), 0, null);
    }

    /** @return the cursor of the next page; empty on the last page */
    public Optional<String> nextCursor() {
        return Optional.ofNullable(cursor);
    }

    /** @return whether another page follows */
    public boolean hasMore() {
        return remaining > 0;
    }

    @Override
    public String toString() {
        return "TaskPage[" + tasks.stream().map(Task::id).toList() + ", remaining=" + remaining + "]";
    }
}
