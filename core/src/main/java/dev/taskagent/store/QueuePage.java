package dev.taskagent.store;

import dev.taskagent.task.Task;
import java.util.List;
import java.util.Optional;

/**
 * One page of an agent's queue in claim order, with how many tasks follow and the cursor of the next page
 * (TS-2.6 of {@link TaskStore}); also one page of the dead letters, by id ({@link
 * dev.taskagent.queue.TaskQueue#deadLetters(int, String)}).
 *
 * <p>Paging is stable while tasks are added: the cursor holds the place of the last task in the claim order
 * (priority, creation time, id), not a count, and the first page fixes which tasks the listing covers (those that
 * existed then). So across the pages of one listing no task is returned twice or left out, however many tasks
 * are created in between, at whatever priority; a new listing sees them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tasks the tasks of this page, in the listing's order; at most the query's limit
 * @param remaining how many tasks of the listing follow this page (0 on the last page)
 * @param cursor the cursor of the next page ({@link QueueQuery#withCursor(String)}); null on the last page
 */
public record QueuePage(List<Task> tasks, long remaining, String cursor) {

    /**
     * Checks the invariants.
     *
     * @param tasks not null
     * @param remaining not negative; 0 exactly when there is no cursor
     * @param cursor null exactly when nothing remains
     */
    public QueuePage {
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
    public static QueuePage empty() {
        return new QueuePage(List.of(), 0, null);
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
        return "QueuePage[" + tasks.stream().map(Task::id).toList() + ", remaining=" + remaining + "]";
    }
}
