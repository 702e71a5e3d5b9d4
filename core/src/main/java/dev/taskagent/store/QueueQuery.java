package dev.taskagent.store;

import dev.taskagent.task.Task;
import dev.taskagent.task.TextLimits;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of an agent's queue (TS-2.6 of {@link TaskStore}): the agent's non-archived tasks in claim order
 * (highest priority first, then oldest, then lowest id), optionally only the ready or the blocked ones, or those
 * with a tag, at most {@link #limit()} of them, after the {@link #cursor()} of the page before.
 *
 * <pre>{@code
 * QueueQuery query = QueueQuery.of("alice").ready().withLimit(50);
 * TaskPage page = queue.listQueue(query);
 * while (page.hasMore()) {
 *     page = queue.listQueue(query.withCursor(page.cursor()));
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class QueueQuery {
    /** The page size when none is given. */
    public static final int DEFAULT_LIMIT = 20;

    /** The largest page. */
    public static final int MAX_LIMIT = 100;

    /** The longest cursor a store hands out is well below this; longer ones are refused unread. */
    public static final int MAX_CURSOR_LENGTH = 256;

    /** Which of the agent's tasks a listing keeps. */
    public enum Readiness {
        /** Every non-archived task, of every status. */
        ALL,
        /**
         * The tasks a claim may hand out ({@link Task#isReady()}): pending with every blocker in success; one that
         * waits for its {@linkplain Task#notBefore() not-before time} is kept too.
         */
        READY,
        /** The unfinished tasks that wait for a task not (yet) ended in success. */
        BLOCKED;

        /**
         * Tells whether a task of the agent's queue is kept.
         *
         * @param task a non-archived task of the agent
         * @return true when the listing keeps it
         */
        public boolean keeps(Task task) {
            return switch (this) {
                case ALL -> true;
                case READY -> task.isReady();
                case BLOCKED -> task.isBlocked() && !task.status().isTerminal();
            };
        }
    }

    private final String assignee;
    private final Readiness readiness;
    private final String tag;
    private final int limit;
    private final String cursor;

    private QueueQuery(String assignee, Readiness readiness, String tag, int limit, String cursor) {
        this.assignee = assignee;
        this.readiness = readiness;
        this.tag = tag;
        this.limit = limit;
        this.cursor = cursor;
    }

    /**
     * The first page of {@link #DEFAULT_LIMIT} of an agent's tasks, every status.
     *
     * @param assignee the agent's name
     * @return the query
     * @throws NullPointerException if {@code assignee} is null
     * @throws IllegalArgumentException if the name is blank, too long or holds a control character
     */
    public static QueueQuery of(String assignee) {
        Objects.requireNonNull(assignee, "assignee");
        return new QueueQuery(
                TextLimits.checkAgentName(assignee, "assignee"), Readiness.ALL, null, DEFAULT_LIMIT, null);
    }

    /**
     * The query with only the tasks of a readiness.
     *
     * @param value which tasks to keep
     * @return a new query, on its first page
     */
    public QueueQuery withReadiness(Readiness value) {
        return new QueueQuery(assignee, Objects.requireNonNull(value, "readiness"), tag, limit, null);
    }

    /**
     * The query with only the tasks a claim may hand out now.
     *
     * @return a new query, on its first page
     */
    public QueueQuery ready() {
        return withReadiness(Readiness.READY);
    }

    /**
     * The query with only the unfinished tasks that wait for another.
     *
     * @return a new query, on its first page
     */
    public QueueQuery blocked() {
        return withReadiness(Readiness.BLOCKED);
    }

    /**
     * The query with only tasks that carry a tag.
     *
     * @param value the tag, as stored (see {@link TextLimits#checkTags(List)})
     * @return a new query, on its first page
     * @throws IllegalArgumentException if the tag is not one a task could carry
     */
    public QueueQuery withTag(String value) {
        String checked = TextLimits.checkTags(List.of(value)).get(0);
        return new QueueQuery(assignee, readiness, checked, limit, null);
    }

    /**
     * The query with another page size; the cursor is kept, so the size may change between pages.
     *
     * @param value 1..{@link #MAX_LIMIT}
     * @return a new query
     * @throws IllegalArgumentException if out of range
     */
    public QueueQuery withLimit(int value) {
        if (value < 1 || value > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + value);
        }
        return new QueueQuery(assignee, readiness, tag, value, cursor);
    }

    /**
     * The query's next page: the cursor of the page before ({@link TaskPage#nextCursor()}). The store checks it
     * when it lists: a cursor of another query, or one changed or cut, throws {@link PageCursorException} there.
     *
     * @param value the cursor, or null for the first page
     * @return a new query
     * @throws PageCursorException if the cursor is blank or longer than any cursor a store hands out
     */
    public QueueQuery withCursor(String value) {
        if (value != null && (value.isBlank() || value.length() > MAX_CURSOR_LENGTH)) {
            throw new PageCursorException("cursor is not one a queue listing returned (" + value.length()
                    + " characters); list the queue again without a cursor");
        }
        return new QueueQuery(assignee, readiness, tag, limit, value);
    }

    /** @return the agent whose queue is listed */
    public String assignee() {
        return assignee;
    }

    /** @return which tasks are kept */
    public Readiness readiness() {
        return readiness;
    }

    /** @return the tag to keep, if any */
    public Optional<String> tag() {
        return Optional.ofNullable(tag);
    }

    /** @return the most tasks of a page */
    public int limit() {
        return limit;
    }

    /** @return the cursor of the page to return; empty for the first page */
    public Optional<String> cursor() {
        return Optional.ofNullable(cursor);
    }

    /**
     * Tells whether a task belongs to the listing, wherever the page is: the agent's, not archived, of the
     * readiness and with the tag.
     *
     * @param task the task
     * @return true when the listing holds it
     */
    public boolean keeps(Task task) {
        return assignee.equals(task.assignee())
                && !task.archived()
                && readiness.keeps(task)
                && (tag == null || task.tags().contains(tag));
    }

    /**
     * A text that is equal for two queries exactly when they list the same tasks: the agent and the filters,
     * not the page. A cursor carries a digest of it, so that another query refuses it.
     *
     * @return the canonical form
     */
    public String canonicalForm() {
        return String.join("\u0000", "queue", assignee, readiness.name(), String.valueOf(tag));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof QueueQuery that
                && canonicalForm().equals(that.canonicalForm())
                && limit == that.limit
                && Objects.equals(cursor, that.cursor);
    }

    @Override
    public int hashCode() {
        return Objects.hash(canonicalForm(), limit, cursor);
    }

    @Override
    public String toString() {
        return "QueueQuery[" + assignee + ", " + readiness + (tag == null ? "" : ", tag=" + tag) + ", limit=" + limit
                + (cursor == null ? "" : ", cursor") + "]";
    }
}
