package dev.taskagent.store.spi;

import dev.taskagent.store.TaskPage;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The listing of dead letters (TS-2.8 of {@link dev.taskagent.store.TaskStore}): its rule, its cursors, and its
 * paging over tasks held in memory, for stores that read them all anyway. A store with a query of its own writes
 * and reads its cursors with {@link #cursor} and {@link #after}.
 *
 * <p>Thread-safe (stateless).
 */
public final class DeadLetterPaging {

    /** The most dead letters one page lists. */
    public static final int MAX_LIMIT = 100;

    private DeadLetterPaging() {}

    /**
     * Tells whether a task is a dead letter: failed, not archived, and its attempt at least its own attempt limit,
     * else the default.
     *
     * @param task the task
     * @param defaultMaxAttempts the attempts of a task that sets none
     * @return true for a dead letter
     */
    public static boolean isDeadLetter(Task task, int defaultMaxAttempts) {
        return task.status() == TaskStatus.FAILED
                && !task.archived()
                && task.attempt() >= Leases.maxAttemptsOf(task, defaultMaxAttempts);
    }

    /**
     * Checks the arguments of a dead-letter listing.
     *
     * @param defaultMaxAttempts at least 1
     * @param limit 1 to {@value #MAX_LIMIT}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkArguments(int defaultMaxAttempts, int limit) {
        if (defaultMaxAttempts < 1) {
            throw new IllegalArgumentException("defaultMaxAttempts must be at least 1, was " + defaultMaxAttempts);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }

    /**
     * Reads where the previous page ended.
     *
     * @param defaultMaxAttempts the listing's default attempt limit (a cursor of another default is refused)
     * @param cursor the previous page's cursor; null for the first page
     * @return the position; empty for the first page
     * @throws dev.taskagent.store.PageCursorException if the cursor is not one of this listing, or was changed or
     *     cut
     */
    public static Optional<SearchCursors.ListingPosition> after(int defaultMaxAttempts, String cursor) {
        return SearchCursors.decode(listing(defaultMaxAttempts), cursor);
    }

    /**
     * Writes the cursor of the page after a task.
     *
     * @param defaultMaxAttempts the listing's default attempt limit
     * @param watermark the highest task id the listing covers (fixed by its first page)
     * @param lastId the id of the page's last task
     * @return the cursor
     */
    public static String cursor(int defaultMaxAttempts, long watermark, long lastId) {
        return SearchCursors.encode(listing(defaultMaxAttempts), new SearchCursors.ListingPosition(watermark, lastId));
    }

    private static String listing(int defaultMaxAttempts) {
        return "dead-letters\u0000" + defaultMaxAttempts;
    }

    /**
     * Returns a page of the dead letters among tasks held in memory: checks the arguments and the cursor, keeps the
     * dead letters after the cursor and at or below the first page's watermark, by id, and cuts the page.
     *
     * @param defaultMaxAttempts the attempts of a task that sets none; at least 1
     * @param limit the page size, 1 to {@value #MAX_LIMIT}
     * @param cursor the previous page's cursor; null for the first page
     * @param highestId the store's highest task id now (the watermark of a first page)
     * @param tasks tasks in any order; those that are not dead letters are skipped
     * @return the page
     * @throws IllegalArgumentException if an argument is out of range
     * @throws dev.taskagent.store.PageCursorException if the cursor is not one of this listing
     */
    public static TaskPage page(
            int defaultMaxAttempts, int limit, String cursor, long highestId, Iterable<Task> tasks) {
        checkArguments(defaultMaxAttempts, limit);
        Optional<SearchCursors.ListingPosition> after = after(defaultMaxAttempts, cursor);
        long watermark = after.map(SearchCursors.ListingPosition::watermark).orElse(highestId);
        long lastId = after.map(SearchCursors.ListingPosition::lastId).orElse(0L);
        List<Task> following = new ArrayList<>();
        for (Task task : tasks) {
            if (task.id() > lastId && task.id() <= watermark && isDeadLetter(task, defaultMaxAttempts)) {
                following.add(task);
            }
        }
        following.sort(Comparator.comparingLong(Task::id));
        List<Task> page = following.subList(0, Math.min(limit, following.size()));
        long remaining = following.size() - page.size();
        return new TaskPage(
                page,
                remaining,
                remaining == 0
                        ? null
                        : cursor(
                                defaultMaxAttempts,
                                watermark,
                                page.get(page.size() - 1).id()));
    }
}
