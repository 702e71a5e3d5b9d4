package dev.taskagent.store;

import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TextLimits;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A full-text search over tasks (TS-13 of {@link TaskStore}): words to find in a task's description, steps,
 * progress and comments, optional filters, and the page to return.
 *
 * <p>A task matches when its text holds every word of the query, compared case-insensitively; a word is a run
 * of letters, digits and combining marks of any script ({@link #words(String)}), so punctuation and
 * operators in the query are ignored. The filters narrow the matches: statuses (any of them), assignee,
 * session and tag; archived tasks are left out unless {@link #includingArchived()}. Start with {@link
 * #of(String)} and add what you need:
 *
 * <pre>{@code
 * TaskPage page = queue.search(SearchQuery.of("Überweisung prüfen").withAssignee("alice").withLimit(10));
 * page.nextCursor().ifPresent(cursor -> queue.search(query.withCursor(cursor)));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class SearchQuery {
    /** The page size when none is given. */
    public static final int DEFAULT_LIMIT = 20;

    /** The largest page. */
    public static final int MAX_LIMIT = 100;

    /** The longest query text, in UTF-16 characters. */
    public static final int MAX_TEXT_LENGTH = 1_000;

    /** The most distinct words of one query. */
    public static final int MAX_WORDS = 16;

    /** The longest cursor a store hands out is well below this; longer ones are refused unread. */
    public static final int MAX_CURSOR_LENGTH = 256;

    private final String text;
    private final List<String> words;
    private final Set<TaskStatus> statuses;
    private final String assignee;
    private final String sessionId;
    private final String tag;
    private final boolean includeArchived;
    private final int limit;
    private final String cursor;

    private SearchQuery(
            String text,
            List<String> words,
            Set<TaskStatus> statuses,
            String assignee,
            String sessionId,
            String tag,
            boolean includeArchived,
            int limit,
            String cursor) {
        this.text = text;
        this.words = words;
        this.statuses = statuses;
        this.assignee = assignee;
        this.sessionId = sessionId;
        this.tag = tag;
        this.includeArchived = includeArchived;
        this.limit = limit;
        this.cursor = cursor;
    }

    /**
     * A search for the words of a text, with no filter, the first page of {@link #DEFAULT_LIMIT} tasks.
     *
     * @param text what to find; its words are what counts ({@link #words(String)})
     * @return the query
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if the text is longer than {@link #MAX_TEXT_LENGTH}, holds no word (it is
     *     empty, blank or only punctuation and operators) or more than {@link #MAX_WORDS} distinct words
     */
    public static SearchQuery of(String text) {
        Objects.requireNonNull(text, "text");
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("query text must be at most " + MAX_TEXT_LENGTH + " characters, was "
                    + text.length() + "; search for a few distinctive words");
        }
        TextLimits.check(text, "query text");
        List<String> words = words(text);
        if (words.isEmpty()) {
            throw new IllegalArgumentException("query text holds no word to search for (letters or digits), was '"
                    + abbreviate(text) + "'; operators and punctuation are ignored");
        }
        if (words.size() > MAX_WORDS) {
            throw new IllegalArgumentException("query text must hold at most " + MAX_WORDS + " distinct words, had "
                    + words.size() + "; search for a few distinctive words");
        }
        return new SearchQuery(text, words, Set.of(), null, null, null, false, DEFAULT_LIMIT, null);
    }

    /**
     * Splits a text into the words a search compares: after Unicode NFC normalisation, each maximal run of
     * letters, digits and combining marks, lower-cased ({@link Locale#ROOT}); the distinct ones in the order
     * they first appear. "Überweisung, PRÜFEN!" gives {@code [überweisung, prüfen]}.
     *
     * @param text the text
     * @return the distinct words; empty when the text holds none
     * @throws NullPointerException if {@code text} is null
     */
    public static List<String> words(String text) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFC);
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < normal.length(); ) {
            int codePoint = normal.codePointAt(i);
            if (isWordCharacter(codePoint)) {
                word.appendCodePoint(codePoint);
            } else if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
            i += Character.charCount(codePoint);
        }
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return List.copyOf(words);
    }

    /**
     * Tells whether a character belongs to a word ({@link #words(String)}).
     *
     * @param codePoint the character
     * @return true for letters, digits and combining marks
     */
    public static boolean isWordCharacter(int codePoint) {
        if (Character.isLetterOrDigit(codePoint)) {
            return true;
        }
        int type = Character.getType(codePoint);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /**
     * The query with only tasks of these statuses (any of them).
     *
     * @param value the statuses; empty for every status
     * @return a new query, on its first page
     */
    public SearchQuery withStatuses(Set<TaskStatus> value) {
        Set<TaskStatus> copy = value.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(value));
        return new SearchQuery(text, words, copy, assignee, sessionId, tag, includeArchived, limit, null);
    }

    /**
     * The query with only one agent's tasks.
     *
     * @param value the assignee
     * @return a new query, on its first page
     * @throws IllegalArgumentException if the name is blank, too long or holds a control character
     */
    public SearchQuery withAssignee(String value) {
        String checked = TextLimits.checkAgentName(value, "assignee");
        return new SearchQuery(text, words, statuses, checked, sessionId, tag, includeArchived, limit, null);
    }

    /**
     * The query with only one session's tasks.
     *
     * @param value the session id
     * @return a new query, on its first page
     * @throws IllegalArgumentException if the id is blank or too long
     */
    public SearchQuery withSession(String value) {
        String checked = TextLimits.checkName(value, "sessionId");
        return new SearchQuery(text, words, statuses, assignee, checked, tag, includeArchived, limit, null);
    }

    /**
     * The query with only tasks that carry a tag.
     *
     * @param value the tag, as stored (see {@link TextLimits#checkTags(List)})
     * @return a new query, on its first page
     * @throws IllegalArgumentException if the tag is not one a task could carry
     */
    public SearchQuery withTag(String value) {
        String checked = TextLimits.checkTags(List.of(value)).get(0);
        return new SearchQuery(text, words, statuses, assignee, sessionId, checked, includeArchived, limit, null);
    }

    /**
     * The query with archived tasks among the matches.
     *
     * @return a new query, on its first page
     */
    public SearchQuery includingArchived() {
        return new SearchQuery(text, words, statuses, assignee, sessionId, tag, true, limit, null);
    }

    /**
     * The query with another page size; the cursor is kept, so the size may change between pages.
     *
     * @param value 1..{@link #MAX_LIMIT}
     * @return a new query
     * @throws IllegalArgumentException if out of range
     */
    public SearchQuery withLimit(int value) {
        if (value < 1 || value > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + value);
        }
        return new SearchQuery(text, words, statuses, assignee, sessionId, tag, includeArchived, value, cursor);
    }

    /**
     * The query's next page: the cursor of the page before ({@link TaskPage#nextCursor()}). The store checks
     * it when it searches: a cursor of another query, or one changed or cut, throws {@link
     * SearchCursorException} there.
     *
     * @param value the cursor, or null for the first page
     * @return a new query
     * @throws SearchCursorException if the cursor is blank or longer than any cursor a store hands out
     */
    public SearchQuery withCursor(String value) {
        if (value != null && (value.isBlank() || value.length() > MAX_CURSOR_LENGTH)) {
            throw new SearchCursorException("cursor is not one a search returned (" + value.length()
                    + " characters); run the search again without a cursor");
        }
        return new SearchQuery(text, words, statuses, assignee, sessionId, tag, includeArchived, limit, value);
    }

    /** @return the query text as given */
    public String text() {
        return text;
    }

    /** @return the distinct words to find, lower-cased ({@link #words(String)}); never empty */
    public List<String> words() {
        return words;
    }

    /** @return the statuses to keep; empty for every status */
    public Set<TaskStatus> statuses() {
        return statuses;
    }

    /** @return the assignee to keep, if any */
    public Optional<String> assignee() {
        return Optional.ofNullable(assignee);
    }

    /** @return the session to keep, if any */
    public Optional<String> sessionId() {
        return Optional.ofNullable(sessionId);
    }

    /** @return the tag to keep, if any */
    public Optional<String> tag() {
        return Optional.ofNullable(tag);
    }

    /** @return whether archived tasks are matched too */
    public boolean includeArchived() {
        return includeArchived;
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
     * A text that is equal for two queries exactly when they find the same tasks in the same order: the words
     * and every filter, not the page. A store's cursor carries a digest of it, so that a cursor is refused by
     * another query.
     *
     * @return the canonical form
     */
    public String canonicalForm() {
        List<String> parts = new ArrayList<>();
        parts.add(String.join(" ", words));
        parts.add(statuses.stream().map(TaskStatus::wireName).sorted().toList().toString());
        parts.add(String.valueOf(assignee));
        parts.add(String.valueOf(sessionId));
        parts.add(String.valueOf(tag));
        parts.add(String.valueOf(includeArchived));
        return String.join("\u0000", parts);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SearchQuery that
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
        return "SearchQuery[" + abbreviate(text) + ", statuses=" + statuses + ", assignee=" + assignee + ", session="
                + sessionId + ", tag=" + tag + ", archived=" + includeArchived + ", limit=" + limit
                + (cursor == null ? "" : ", cursor") + "]";
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
