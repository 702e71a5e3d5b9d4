package dev.taskagent.store;

import dev.taskagent.task.Task;
import java.util.List;
import java.util.Optional;

/**
 * One page of a search's matches, best first (the ranking is the store's), with how many matches follow and the
 * cursor of the next page.
 *
 * <p>Paging is stable while tasks are added: the first page fixes which tasks the search covers (those that
 * existed then), so across the pages of one search no task is left out or returned twice, however many tasks
 * are created in between; a new search sees them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tasks the matches of this page, best first; at most the query's limit
 * @param remaining how many matches follow this page (0 on the last page)
 * @param cursor the cursor of the next page ({@link SearchQuery#withCursor(String)}); null on the last page
 */
public record SearchPage(List<Task> tasks, long remaining, String cursor) {

    /**
     * Checks the invariants.
     *
     * @param tasks not null
     * @param remaining not negative; 0 exactly when there is no cursor
     * @param cursor null exactly when nothing remains
     */
    public SearchPage {
        tasks = List.copyOf(tasks);
        if (remaining < 0 || (remaining == 0) != (cursor == null)) {
            throw new IllegalArgumentException(
                    "a page has a cursor exactly when matches remain: remaining=" + remaining + ", cursor=" + cursor);
        }
    }

    /**
     * An empty last page.
     *
     * @return a page without tasks and without a next one
     */
    public static SearchPage empty() {
        return new SearchPage(List.of(), 0, null);
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
        return "SearchPage[" + tasks.stream().map(Task::id).toList() + ", remaining=" + remaining + "]";
    }
}
