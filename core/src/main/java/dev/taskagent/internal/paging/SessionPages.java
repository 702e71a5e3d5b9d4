package dev.taskagent.internal.paging;

import dev.taskagent.internal.Pages;
import dev.taskagent.internal.Texts;
import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.store.spi.SearchCursors.ListingPosition;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The paging of a session's list in the listing tools ({@code TaskList}, {@code TodoRead}, the MCP server's {@code
 * list_tasks}): the optional
 * {@code limit} and {@code cursor} arguments, and a page cut so that its text fits the toolset's result budget.
 *
 * <p>A cursor is a {@linkplain SearchCursors#encode(String, ListingPosition) listing cursor}: the last task shown, by
 * id, and the highest id of the session when the first page was read (its watermark). The next page starts after
 * wherever that task is now in the session's order, so tasks inserted or appended between pages move nothing out
 * of the listing and are not part of it (they are above the watermark); a page tells how many were added. The
 * task a cursor names may have been archived since: archived tasks keep their place in the order. The store has
 * no paged read of a session, so every page reads the session whole.
 *
 * <p>Thread-safe (stateless).
 */
public final class SessionPages {
    /** Items a page holds when no limit is given. */
    public static final int DEFAULT_LIMIT = 100;

    /** The largest limit. */
    public static final int MAX_LIMIT = 500;

    /**
     * The most tokens (estimated) a page's text takes, its last line included: a page of longer items holds fewer
     * of them, and an item that alone takes more is shown shortened, so that the cursor is never cut off.
     */
    public static final int PAGE_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    private SessionPages() {}

    /**
     * What a call asks for.
     *
     * @param listing the listing's canonical form: the tool and the session
     * @param limit the most items of the page
     * @param after where the previous page ended; empty for the first page
     */
    public record Request(String listing, int limit, Optional<ListingPosition> after) {}

    /**
     * One page.
     *
     * @param tasks the tasks of the page, in the session's order
     * @param remaining how many tasks of the listing follow it
     * @param nextCursor the cursor of the next page; null when none follows
     * @param continued whether the page continues a listing (a cursor was given)
     * @param added how many tasks of the session were added since the listing's first page (0 on a first page)
     * @param shortened whether the page's one task must be shown shortened to fit the budget
     */
    public record Page(
            List<Task> tasks, int remaining, String nextCursor, boolean continued, int added, boolean shortened) {

        /**
         * The line a page of a text listing ends with: how many tasks follow and the cursor for the next page, or,
         * on the last page, how many were added since the first; empty when neither.
         *
         * @param tool the listing tool's name, as the model calls it
         * @return the line, starting with a line break; or empty
         */
        public String footer(String tool) {
            if (nextCursor != null) {
                return "\n" + remaining + " more: call " + tool + " again with cursor \"" + nextCursor + "\"";
            }
            if (added > 0) {
                return "\n" + added + (added == 1 ? " task was" : " tasks were") + " added since the first page: call "
                        + tool + " without a cursor to list them.";
            }
            return "";
        }
    }

    /**
     * Declares the paging arguments in a tool's schema.
     *
     * @param schema the schema without them
     * @param noun what a page holds, plural ("tasks")
     * @return the schema with {@code limit} and {@code cursor}
     */
    public static JsonSchema schema(JsonSchema schema, String noun) {
        return schema.optionalInteger(
                        "limit",
                        Character.toUpperCase(noun.charAt(0)) + noun.substring(1) + " per page, 1 to " + MAX_LIMIT
                                + "; default " + DEFAULT_LIMIT)
                .optionalString("cursor", "The cursor the previous page gave, for the next page");
    }

    /**
     * Reads the paging arguments of a call.
     *
     * @param arguments the call's arguments
     * @param listing the listing's canonical form
     * @return the request
     * @throws ToolArgumentException if the limit is out of range or not an integer, or the cursor is not one this
     *     listing returned (changed, cut, of another tool or session); its text says what to send instead
     */
    public static Request request(ToolArguments arguments, String listing) {
        OptionalInt limit = arguments.optionalInt("limit", 1, MAX_LIMIT);
        Optional<String> cursor = arguments.optionalString("cursor");
        try {
            return new Request(
                    listing, limit.orElse(DEFAULT_LIMIT), SearchCursors.decode(listing, cursor.orElse(null)));
        } catch (PageCursorException e) {
            throw new ToolArgumentException(e.getMessage());
        }
    }

    /**
     * Picks the page a request asks for from the session and renders it within {@link #PAGE_TOKENS}: a page whose
     * text would take more is rendered again with as many tasks as its share of the budget allows, and a page of
     * one task that still takes more is rendered {@linkplain Page#shortened() shortened}.
     *
     * @param request the request
     * @param session every task of the session, archived ones too, in the session's order
     * @param render renders a page
     * @return the text; an error when the task the cursor names is no longer in the session
     */
    public static ToolResult render(Request request, List<Task> session, Function<Page, String> render) {
        return render(request, session, task -> true, render);
    }

    /**
     * Picks the page a request asks for from the tasks of the session that a filter keeps, as {@link
     * #render(Request, List, Function)} does. The cursor's task is looked for in the whole session, so a task that
     * no longer passes the filter (a tag taken off) still marks where the next page starts.
     *
     * @param request the request
     * @param session every task of the session, archived ones too, in the session's order
     * @param filter which tasks the listing shows
     * @param render renders a page
     * @return the text; an error when the task the cursor names is no longer in the session
     */
    public static ToolResult render(
            Request request, List<Task> session, Predicate<Task> filter, Function<Page, String> render) {
        long watermark = request.after()
                .map(ListingPosition::watermark)
                .orElseGet(() -> session.stream().mapToLong(Task::id).max().orElse(0));
        int from = 0;
        if (request.after().isPresent()) {
            long lastId = request.after().get().lastId();
            int index = 0;
            while (index < session.size() && session.get(index).id() != lastId) {
                index++;
            }
            if (index == session.size()) {
                return ToolResult.error("The cursor ends at a task that is no longer in this list (it was removed"
                        + " for good); list again without a cursor.");
            }
            from = index + 1;
        }
        List<Task> following = new ArrayList<>();
        for (Task task : session.subList(from, session.size())) {
            if (!task.archived() && task.id() <= watermark && filter.test(task)) {
                following.add(task);
            }
        }
        int added = (int) session.stream()
                .filter(task -> !task.archived() && task.id() > watermark && filter.test(task))
                .count();
        int shown = Math.max(1, Math.min(request.limit(), following.size()));
        Pages.Fitted<Page> fitted = Pages.fit(
                shown,
                PAGE_TOKENS,
                size -> page(request, following, Math.min(size, following.size()), watermark, added, false),
                render,
                page -> page.tasks().size());
        if (fitted.page().tasks().size() == 1 && fitted.tokens() > PAGE_TOKENS) {
            return ToolResult.ok(render.apply(page(request, following, 1, watermark, added, true)));
        }
        return ToolResult.ok(fitted.text());
    }

    private static Page page(
            Request request, List<Task> following, int size, long watermark, int added, boolean shortened) {
        List<Task> tasks = following.subList(0, size);
        int remaining = following.size() - size;
        String cursor = remaining == 0
                ? null
                : SearchCursors.encode(
                        request.listing(),
                        new ListingPosition(watermark, tasks.get(size - 1).id()));
        return new Page(tasks, remaining, cursor, request.after().isPresent(), added, shortened);
    }

    /**
     * Shortens a text to about a number of tokens (estimated), on one line, ending with an ellipsis when cut.
     *
     * @param text the text
     * @param tokens the most tokens it may take
     * @return the text, cut when longer
     */
    public static String shorten(String text, int tokens) {
        int end = Texts.endWithinTokens(text, tokens);
        return end == text.length() ? text : Texts.abbreviate(text, Math.max(2, end));
    }
}
