package dev.taskagent.store.spi;

import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Task;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A search over tasks held in memory (TS-13), for stores without a search engine of their own: which tasks
 * match, a rank, and the paging of {@link SearchCursors}. The in-memory store finds its candidates with an
 * inverted index and pages them here.
 *
 * <p>The rank counts the occurrences of the query's words, a word in the description four times, in the steps,
 * progress and comments once each; it depends only on the task and the query, so a later page never sees a
 * task move.
 *
 * <p>Thread-safe (stateless).
 */
public final class TaskSearch {
    /** How much more an occurrence in the description counts than one elsewhere. */
    public static final int DESCRIPTION_WEIGHT = 4;

    private TaskSearch() {}

    /**
     * The texts of a task that a search reads: description, steps, progress entries and comment texts.
     *
     * @param task the task
     * @return the texts, description first
     */
    public static List<String> searchableTexts(Task task) {
        List<String> texts =
                new ArrayList<>(2 + task.progresses().size() + task.comments().size());
        texts.add(task.description());
        if (task.steps() != null) {
            texts.add(task.steps());
        }
        texts.addAll(task.progresses());
        for (Comment comment : task.comments()) {
            texts.add(comment.text());
        }
        return texts;
    }

    /**
     * The distinct words of a task's searchable texts ({@link SearchQuery#words(String)}).
     *
     * @param task the task
     * @return the words
     */
    public static Set<String> words(Task task) {
        Set<String> words = new LinkedHashSet<>();
        for (String text : searchableTexts(task)) {
            words.addAll(SearchQuery.words(text));
        }
        return words;
    }

    /**
     * Tells whether a task passes a query's filters (statuses, assignee, session, tag, archived).
     *
     * @param task the task
     * @param query the query
     * @return true when it passes every filter
     */
    public static boolean passesFilters(Task task, SearchQuery query) {
        return (query.includeArchived() || !task.archived())
                && (query.statuses().isEmpty() || query.statuses().contains(task.status()))
                && query.assignee()
                        .map(assignee -> assignee.equals(task.assignee()))
                        .orElse(true)
                && query.sessionId().map(task.sessionId()::equals).orElse(true)
                && query.tag().map(task.tags()::contains).orElse(true);
    }

    /**
     * Tells whether a task matches a query: it holds every word and passes the filters.
     *
     * @param task the task
     * @param query the query
     * @return true when it matches
     */
    public static boolean matches(Task task, SearchQuery query) {
        return passesFilters(task, query) && words(task).containsAll(query.words());
    }

    /**
     * Ranks a task for a query's words (see the class comment).
     *
     * @param task the task
     * @param query the query
     * @return the rank; higher is better
     */
    public static double rank(Task task, SearchQuery query) {
        Set<String> wanted = Set.copyOf(query.words());
        double rank = 0;
        List<String> texts = searchableTexts(task);
        for (int i = 0; i < texts.size(); i++) {
            int weight = i == 0 ? DESCRIPTION_WEIGHT : 1;
            Map<String, Integer> counts = occurrences(texts.get(i), wanted);
            for (int count : counts.values()) {
                rank += weight * count;
            }
        }
        return rank;
    }

    /**
     * Returns a page of a query: checks its cursor, keeps the candidates that match and lie after the cursor,
     * ranks them and cuts the page.
     *
     * @param query the query
     * @param highestId the highest task id of the store now (the watermark of a first page)
     * @param candidates tasks that may match, in any order; at least every task that matches
     * @return the page
     * @throws dev.taskagent.store.SearchCursorException if the query's cursor is not one of this query
     */
    public static TaskPage page(SearchQuery query, long highestId, Collection<Task> candidates) {
        Optional<SearchCursors.Position> after = SearchCursors.decode(query);
        long watermark = after.map(SearchCursors.Position::watermark).orElse(highestId);
        List<Ranked> matches = new ArrayList<>();
        for (Task task : candidates) {
            if (task.id() <= watermark && matches(task, query)) {
                double rank = rank(task, query);
                if (after.isEmpty() || after.get().precedes(rank, task.id())) {
                    matches.add(new Ranked(task, rank));
                }
            }
        }
        matches.sort(Comparator.comparingDouble(Ranked::rank)
                .reversed()
                .thenComparing(Comparator.comparingLong(
                                (Ranked ranked) -> ranked.task().id())
                        .reversed()));
        List<Ranked> page = matches.subList(0, Math.min(query.limit(), matches.size()));
        long remaining = matches.size() - page.size();
        String cursor = null;
        if (remaining > 0) {
            Ranked last = page.get(page.size() - 1);
            cursor = SearchCursors.encode(
                    query,
                    new SearchCursors.Position(
                            watermark, last.rank(), last.task().id()));
        }
        return new TaskPage(page.stream().map(Ranked::task).toList(), remaining, cursor);
    }

    private static Map<String, Integer> occurrences(String text, Set<String> wanted) {
        Map<String, Integer> counts = new HashMap<>();
        StringBuilder word = new StringBuilder();
        String normal = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFC);
        for (int i = 0; i <= normal.length(); ) {
            int codePoint = i < normal.length() ? normal.codePointAt(i) : ' ';
            if (i < normal.length() && SearchQuery.isWordCharacter(codePoint)) {
                word.appendCodePoint(codePoint);
            } else if (word.length() > 0) {
                String lower = word.toString().toLowerCase(java.util.Locale.ROOT);
                if (wanted.contains(lower)) {
                    counts.merge(lower, 1, Integer::sum);
                }
                word.setLength(0);
            }
            i += i < normal.length() ? Character.charCount(codePoint) : 1;
        }
        return counts;
    }

    private record Ranked(Task task, double rank) {}
}
