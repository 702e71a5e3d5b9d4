package dev.taskagent.internal.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.steps.Step;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The one JSON model of a task: one vocabulary of field names (snake case, the names below) and a few
 * views that choose which fields to show and how far to cut them. Each field means the same thing in
 * every view; a view only leaves fields out, cuts texts and lists, or shortens list entries.
 *
 * <ul>
 *   <li>{@link View#COMPACT}: for a model (the queue tools' {@code signup_for_task}, {@code move_task},
 *       {@code get_task}). Every token is paid for, so empty, null and false fields are left out, there is no
 *       bookkeeping (session, order, version, times), the checklist is its Markdown text, and comments and
 *       links are one string each: {@code "author: text"}, {@code "[description](url) by author"}. Its size
 *       is bounded whatever the task holds: the description and the checklist are cut at 2,000 characters,
 *       every entry at 500, and of the progress notes, comments and links only the newest ten are shown; a
 *       cut list has its full count beside it ({@code comments_total}) and the number of its first shown
 *       entry ({@code comments_from}, counted from 1, oldest first), and {@code truncated} names what was
 *       cut. {@link View#FULL} is the same with whole texts and fifty entries per list (its texts cut as the
 *       compact view's only when the task would not fit a tool's budget otherwise).
 *   <li>{@link View#STEPS}: a task with its checklist as a list of steps ({@code get_task_with_steps}), bounded as
 *       the compact view is: the description cut at 2,000 characters, fifty steps from a given one (the first by
 *       default), each step and progress note cut at 500, the newest ten progress notes with {@code
 *       progress_total} and {@code progress_from} when there are more, and {@code truncated} naming what was
 *       cut.
 *   <li>{@link View#CARD}, {@link View#DETAIL}, {@link View#QUEUE_ENTRY}: the board's card, one task asked
 *       for by id, and an entry of a queue: every field, nulls included, bounded; a cut text ends with an
 *       ellipsis and has its full length beside it ({@code description_length}), a cut list keeps its newest
 *       entries (its first, for steps) with its full count beside it ({@code comments_total}), and {@code
 *       truncated} names what was cut.
 *   <li>{@link View#CREATED_EVENT}: the payload of the feed's {@code created} event.
 * </ul>
 *
 * <p>Thread-safe (stateless).
 */
public final class TaskJson {
    /** The task id. */
    public static final String ID = "id";
    /** The session the task belongs to. */
    public static final String SESSION_ID = "session_id";
    /** The task's 1-based position in its session. */
    public static final String ORDER = "order";
    /** {@code pending}, {@code running}, {@code success}, {@code failed} or {@code cancelled}. */
    public static final String STATUS = "status";
    /** Higher is claimed first. */
    public static final String PRIORITY = "priority";
    /** What to do. */
    public static final String DESCRIPTION = "description";
    /** The agent whose queue holds the task. */
    public static final String ASSIGNEE = "assignee";
    /** The agent who handed the task over. */
    public static final String PREVIOUS_ASSIGNEE = "previous_assignee";
    /** Who created the task. */
    public static final String CREATED_BY = "created_by";
    /** The claim's attempt, counted from 1. */
    public static final String ATTEMPT = "attempt";
    /** The attempts a task gets before a lost lease fails it. */
    public static final String MAX_ATTEMPTS = "max_attempts";
    /** When the claim's lease ends, as {@code Instant.toString()} writes it. */
    public static final String LEASE_UNTIL = "lease_until";
    /**
     * The time before which no claim hands the task out (created for later, or backing off after a failed
     * attempt), as {@code Instant.toString()} writes it.
     */
    public static final String NOT_BEFORE = "not_before";
    /** Whether the task left every queue. */
    public static final String ARCHIVED = "archived";
    /** When the task (or a comment, a link) was created. */
    public static final String CREATED_AT = "created_at";
    /** When the task last changed. */
    public static final String UPDATED_AT = "updated_at";
    /** The task's version, raised by every change. */
    public static final String VERSION = "version";
    /** The user's preferences for the task, as one text. */
    public static final String PREFERENCE = "preference";
    /** The checklist: its Markdown text in the compact view, its steps elsewhere. */
    public static final String STEPS = "steps";
    /** The step being worked on, from 1; 0 for none. */
    public static final String CURRENT_STEP = "current_step";
    /** How many steps are ticked. */
    public static final String STEPS_DONE = "steps_done";
    /** How many steps there are. */
    public static final String STEPS_TOTAL = "steps_total";
    /** The progress notes, oldest first. */
    public static final String PROGRESS = "progress";
    /** The comments, oldest first. */
    public static final String COMMENTS = "comments";
    /** The links, oldest first. */
    public static final String LINKS = "links";
    /** How many conversation messages are linked to the task. */
    public static final String MESSAGE_COUNT = "message_count";
    /** The fields a bounded view cut. */
    public static final String TRUNCATED = "truncated";
    /** The parent task's id. */
    public static final String PARENT_ID = "parent_id";
    /** The ids of the tasks a task depends on. */
    public static final String BLOCKED_BY = "blocked_by";
    /** How many of those have not ended in success. */
    public static final String OPEN_BLOCKERS = "open_blockers";
    /** Whether a claim may hand the task out. */
    public static final String READY = "ready";
    /** The task's tags. */
    public static final String TAGS = "tags";
    /** The caller's metadata object. */
    public static final String METADATA = "metadata";

    /** Which fields of a task a reader gets, and how far they are cut. */
    public enum View {
        /**
         * For a model: no empty field, no bookkeeping, short list entries; long texts cut and the newest
         * entries of each list only, with the count of the rest.
         */
        COMPACT(new Limits(2_000, 500, 0, 10)),
        /** For a model that asked for everything: the compact view's fields, texts whole, longer lists. */
        FULL(new Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, 0, 50)),
        /** A task with its checklist as steps and its progress notes: a window of each, texts cut. */
        STEPS(new Limits(2_000, 500, 50, 10)),
        /** A card on the board: enough to render, small enough for a thousand of them. */
        CARD(new Limits(2_000, 1_000, 100, 20)),
        /** One task asked for by id. */
        DETAIL(new Limits(100_000, 10_000, 1_000, 200)),
        /** An entry of an agent's queue or of the dead letters: no lists. */
        QUEUE_ENTRY(new Limits(200, 200, 0, 0)),
        /** The payload of a {@code created} event: what a watcher needs to show the new task. */
        CREATED_EVENT(new Limits(Limits.EVENT_TEXT, 0, 0, 0));

        private final Limits limits;

        View(Limits limits) {
            this.limits = limits;
        }

        /**
         * Returns the bounds of this view.
         *
         * @return its limits; {@link Integer#MAX_VALUE} where it cuts nothing
         */
        public Limits limits() {
            return limits;
        }
    }

    /**
     * The bounds of a view.
     *
     * @param descriptionChars the longest description shown
     * @param textChars the longest other text shown (a step, a progress note, a comment, a link)
     * @param steps the most steps shown, the first ones (the compact and full views show the checklist's
     *     text, cut like the description)
     * @param entries the most progress notes, comments and links shown, the newest ones; 0 for none
     */
    public record Limits(int descriptionChars, int textChars, int steps, int entries) {
        /** A payload text is cut here, as {@code FeedEvent.PAYLOAD_TEXT_LIMIT} says. */
        static final int EVENT_TEXT = dev.taskagent.event.FeedEvent.PAYLOAD_TEXT_LIMIT;

        static final Limits NONE =
                new Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /** The schema of {@code {"task": <the compact view>}}, or {@code {}} when there is no task. */
    private static final String COMPACT_RESULT_SCHEMA = """
            {"type":"object","properties":{"task":{"type":"object","properties":{\
            "id":{"type":"integer","minimum":1},\
            "status":{"type":"string","enum":["pending","running","success","failed","cancelled"]},\
            "priority":{"type":"integer"},\
            "assignee":{"type":"string"},\
            "previous_assignee":{"type":"string"},\
            "created_by":{"type":"string"},\
            "attempt":{"type":"integer","minimum":1},\
            "lease_until":{"type":"string"},\
            "not_before":{"type":"string"},\
            "description":{"type":"string"},\
            "steps":{"type":"string"},\
            "current_step":{"type":"integer","minimum":1},\
            "progress":{"type":"array","items":{"type":"string"}},\
            "preference":{"type":"string"},\
            "comments":{"type":"array","items":{"type":"string"}},\
            "links":{"type":"array","items":{"type":"string"}},\
            "parent_id":{"type":"integer","minimum":1},\
            "blocked_by":{"type":"array","items":{"type":"integer","minimum":1}},\
            "open_blockers":{"type":"integer","minimum":0},\
            "tags":{"type":"array","items":{"type":"string"}},\
            "metadata":{"type":"object"},\
            "archived":{"type":"boolean"},\
            "description_length":{"type":"integer","minimum":0},\
            "steps_length":{"type":"integer","minimum":0},\
            "progress_total":{"type":"integer","minimum":0},\
            "progress_from":{"type":"integer","minimum":1},\
            "comments_total":{"type":"integer","minimum":0},\
            "comments_from":{"type":"integer","minimum":1},\
            "links_total":{"type":"integer","minimum":0},\
            "links_from":{"type":"integer","minimum":1},\
            "truncated":{"type":"array","items":{"type":"string"}}},\
            "required":["id","status","priority","description"]}}}""";

    /** The schema of {@code {"task": <the steps view>}}. */
    private static final String STEPS_RESULT_SCHEMA = """
            {"type":"object","properties":{"task":{"type":"object","properties":{\
            "id":{"type":"integer","minimum":1},\
            "session_id":{"type":"string"},\
            "order":{"type":"integer","minimum":1},\
            "status":{"type":"string","enum":["pending","running","success","failed","cancelled"]},\
            "description":{"type":"string"},\
            "assignee":{"type":"string"},\
            "steps_done":{"type":"integer","minimum":0},\
            "steps_total":{"type":"integer","minimum":0},\
            "steps":{"type":"array","items":{"type":"object","properties":{\
            "number":{"type":"integer","minimum":1},"text":{"type":"string"},"done":{"type":"boolean"}},\
            "required":["number","text","done"]}},\
            "progress":{"type":"array","items":{"type":"string"}},\
            "description_length":{"type":"integer","minimum":0},\
            "progress_total":{"type":"integer","minimum":0},\
            "progress_from":{"type":"integer","minimum":1},\
            "truncated":{"type":"array","items":{"type":"string"}}},\
            "required":["id","session_id","order","status","description","steps_done","steps_total","steps",\
            "progress"]}},"required":["task"]}""";

    private TaskJson() {}

    /**
     * Returns the output schema of a tool whose structured content is {@code {"task": <the task in a
     * view>}}, kept beside the view it describes so that the two change together.
     *
     * @param view {@link View#COMPACT} (the queue tools; {@code task} is left out when there is none) or
     *     {@link View#STEPS} ({@code get_task_with_steps})
     * @return the JSON schema of an object
     * @throws IllegalArgumentException for a view that no tool returns
     */
    public static String resultSchema(View view) {
        return switch (view) {
            case COMPACT, FULL -> COMPACT_RESULT_SCHEMA;
            case STEPS -> STEPS_RESULT_SCHEMA;
            default -> throw new IllegalArgumentException("No tool returns the " + view + " view of a task");
        };
    }

    /**
     * Renders a task in a view.
     *
     * @param task the task
     * @param view the view
     * @return the JSON object, to add to or write out
     */
    public static ObjectNode node(Task task, View view) {
        ObjectNode node = Json.mapper().createObjectNode();
        switch (view) {
            case COMPACT, FULL -> compact(node, task, view.limits, Integer.MAX_VALUE);
            case STEPS -> withSteps(node, task, view.limits, 1);
            case CARD, DETAIL, QUEUE_ENTRY -> card(node, task, view.limits);
            case CREATED_EVENT -> created(node, task);
        }
        return node;
    }

    /**
     * Renders a task in a view as one line of JSON.
     *
     * @param task the task
     * @param view the view
     * @return e.g. {@code {"id":7,"status":"running","priority":2,"assignee":"bob",...}} for {@link
     *     View#COMPACT}
     */
    public static String render(Task task, View view) {
        return node(task, view).toString();
    }

    /**
     * Renders a task in the compact or the full view with its comments shown up to an older one than the
     * newest: the window of comments ends just before comment number {@code commentsBefore} (counted from 1,
     * oldest first), so that a reader pages back through a long discussion; the other lists show their
     * newest entries. Comments are only ever appended, so a page stays the same while new ones arrive.
     *
     * @param task the task
     * @param view {@link View#COMPACT} or {@link View#FULL}
     * @param commentsBefore the number of the first comment not shown, at least 1; {@link Integer#MAX_VALUE}
     *     for the newest
     * @return the JSON object
     * @throws IllegalArgumentException for another view
     */
    public static ObjectNode paged(Task task, View view, int commentsBefore) {
        return within(task, view, commentsBefore, Integer.MAX_VALUE);
    }

    /**
     * Renders a task in the compact or the full view, as {@link #paged} does, within a number of tokens
     * (estimated as {@link Texts#estimateTokens} does): when the view's limits make it larger, fewer of the
     * newest entries are shown (down to one per list), then shorter texts (the full view's whole texts first cut
     * as the compact view cuts them). A task
     * whose smallest rendering is still larger is returned as that.
     *
     * @param task the task
     * @param view {@link View#COMPACT} or {@link View#FULL}
     * @param commentsBefore the number of the first comment not shown, at least 1; {@link Integer#MAX_VALUE}
     *     for the newest
     * @param tokens the most estimated tokens the JSON text should take
     * @return the JSON object
     * @throws IllegalArgumentException for another view
     */
    public static ObjectNode within(Task task, View view, int commentsBefore, int tokens) {
        if (view != View.COMPACT && view != View.FULL) {
            throw new IllegalArgumentException("Only the compact and the full view page their comments, not " + view);
        }
        Limits limits = view.limits;
        while (true) {
            ObjectNode node = Json.mapper().createObjectNode();
            compact(node, task, limits, commentsBefore);
            Limits smaller = smaller(limits);
            if (smaller.equals(limits) || Texts.estimateTokens(node.toString()) <= tokens) {
                return node;
            }
            limits = smaller;
        }
    }

    /**
     * The next smaller limits: half the entries down to one, then the compact view's texts (a full view's whole
     * description or checklist can be larger than any budget), then half the texts.
     */
    private static Limits smaller(Limits limits) {
        if (limits.entries() > 1) {
            return new Limits(limits.descriptionChars(), limits.textChars(), limits.steps(), limits.entries() / 2);
        }
        Limits compact = View.COMPACT.limits;
        if (limits.textChars() > compact.textChars()) {
            return new Limits(compact.descriptionChars(), compact.textChars(), limits.steps(), limits.entries());
        }
        if (limits.textChars() <= 100) {
            return limits;
        }
        return new Limits(
                Math.max(300, limits.descriptionChars() / 2),
                Math.max(100, limits.textChars() / 2),
                limits.steps(),
                limits.entries());
    }

    private static void compact(ObjectNode node, Task task, Limits limits, int commentsBefore) {
        List<String> truncated = new ArrayList<>();
        node.put(ID, task.id());
        node.put(STATUS, task.status().wireName());
        node.put(PRIORITY, task.priority());
        putIfPresent(node, ASSIGNEE, task.assignee());
        putIfPresent(node, PREVIOUS_ASSIGNEE, task.previousAssignee());
        putIfPresent(node, CREATED_BY, task.createdBy());
        if (task.isLeased()) {
            node.put(ATTEMPT, task.attempt());
            node.put(LEASE_UNTIL, task.leaseExpiresAt().toString());
        }
        if (task.status() == TaskStatus.PENDING && task.notBefore() != null) {
            node.put(NOT_BEFORE, task.notBefore().toString());
        }
        text(node, DESCRIPTION, task.description(), limits.descriptionChars(), truncated);
        if (task.hasSteps()) {
            text(node, STEPS, task.steps(), limits.descriptionChars(), truncated);
            if (task.currentStep() > 0) {
                node.put(CURRENT_STEP, task.currentStep());
            }
        }
        window(node, PROGRESS, task.progresses(), Integer.MAX_VALUE, limits, truncated, entry -> entry);
        if (!task.userPreferences().isEmpty()) {
            text(node, PREFERENCE, task.userPreferenceText(), limits.descriptionChars(), truncated);
        }
        window(
                node,
                COMMENTS,
                task.comments(),
                commentsBefore,
                limits,
                truncated,
                comment -> comment.author() + ": " + comment.text());
        window(node, LINKS, task.links(), Integer.MAX_VALUE, limits, truncated, TaskJson::linkText);
        graph(node, task, false);
        if (task.archived()) {
            node.put(ARCHIVED, true);
        }
        if (!truncated.isEmpty()) {
            ArrayNode cutFields = node.putArray(TRUNCATED);
            truncated.forEach(cutFields::add);
        }
    }

    /**
     * Puts the newest entries of a list before entry number {@code before} (from 1), each cut; when that is not
     * the whole list, also its full count ({@code <field>_total}) and the number of the first entry shown
     * ({@code <field>_from}), and names the field as truncated. An empty list is left out.
     */
    private static <T> void window(
            ObjectNode node,
            String field,
            List<T> entries,
            int before,
            Limits limits,
            List<String> truncated,
            java.util.function.Function<T, String> text) {
        if (entries.isEmpty()) {
            return;
        }
        int end = Math.min(entries.size(), Math.max(0, before - 1));
        int start = Math.max(0, end - limits.entries());
        ArrayNode shown = node.putArray(field);
        boolean cutEntry = false;
        for (T entry : entries.subList(start, end)) {
            String whole = text.apply(entry);
            String cut = cut(whole, limits.textChars());
            cutEntry |= !cut.equals(whole);
            shown.add(cut);
        }
        if (start > 0 || end < entries.size()) {
            node.put(field + "_total", entries.size());
            node.put(field + "_from", start + 1);
        }
        if (start > 0 || end < entries.size() || cutEntry) {
            truncated.add(field);
        }
    }

    /** The work-graph fields; a view for a model leaves out the empty ones. */
    private static void graph(ObjectNode node, Task task, boolean always) {
        if (always || task.hasParent()) {
            node.put(PARENT_ID, task.hasParent() ? task.parentId() : null);
        }
        if (always || !task.blockedBy().isEmpty()) {
            ArrayNode blockers = node.putArray(BLOCKED_BY);
            task.blockedBy().forEach(blockers::add);
            node.put(OPEN_BLOCKERS, task.openBlockers());
        }
        if (always) {
            node.put(READY, task.isReady());
        }
        if (always || !task.tags().isEmpty()) {
            ArrayNode tags = node.putArray(TAGS);
            task.tags().forEach(tags::add);
        }
        if (task.metadata() != null) {
            try {
                node.set(METADATA, dev.taskagent.internal.Json.mapper().readTree(task.metadata()));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("stored metadata of task " + task.id() + " is not JSON", e);
            }
        } else if (always) {
            node.putNull(METADATA);
        }
    }

    /**
     * Renders a task in the {@linkplain View#STEPS steps view} with its steps shown from step number {@code
     * stepsFrom} on, within a number of tokens (estimated as {@link Texts#estimateTokens} does): when the view's
     * limits make it larger, fewer steps and progress notes are shown (down to one each), then shorter texts. A
     * task whose smallest rendering is still larger is returned as that.
     *
     * @param task the task
     * @param stepsFrom the number of the first step shown, from 1; past the last step, no step is shown
     * @param tokens the most estimated tokens the JSON text should take
     * @return the JSON object
     * @throws IllegalArgumentException if {@code stepsFrom} is less than 1
     */
    public static ObjectNode stepsWithin(Task task, int stepsFrom, int tokens) {
        if (stepsFrom < 1) {
            throw new IllegalArgumentException("stepsFrom must be at least 1, was " + stepsFrom);
        }
        Limits limits = View.STEPS.limits;
        while (true) {
            ObjectNode node = Json.mapper().createObjectNode();
            withSteps(node, task, limits, stepsFrom);
            if (Texts.estimateTokens(node.toString()) <= tokens) {
                return node;
            }
            Limits smaller;
            if (limits.steps() > 1 || limits.entries() > 1) {
                smaller = new Limits(
                        limits.descriptionChars(),
                        limits.textChars(),
                        Math.max(1, limits.steps() / 2),
                        Math.max(1, limits.entries() / 2));
            } else if (limits.textChars() > 100) {
                smaller = new Limits(
                        Math.max(300, limits.descriptionChars() / 2),
                        Math.max(100, limits.textChars() / 2),
                        limits.steps(),
                        limits.entries());
            } else {
                return node;
            }
            limits = smaller;
        }
    }

    private static void withSteps(ObjectNode node, Task task, Limits limits, int stepsFrom) {
        List<String> truncated = new ArrayList<>();
        node.put(ID, task.id());
        node.put(SESSION_ID, task.sessionId());
        node.put(ORDER, task.order());
        node.put(STATUS, task.status().wireName());
        text(node, DESCRIPTION, task.description(), limits.descriptionChars(), truncated);
        putIfPresent(node, ASSIGNEE, task.assignee());
        MarkdownSteps steps = parsedSteps(task);
        node.put(STEPS_DONE, steps.done());
        node.put(STEPS_TOTAL, steps.total());
        ArrayNode stepNodes = node.putArray(STEPS);
        List<Step> all = steps.steps();
        int from = Math.min(all.size(), stepsFrom - 1);
        int to = (int) Math.min(all.size(), (long) from + limits.steps());
        boolean cutStep = from > 0 || to < all.size();
        for (Step step : all.subList(from, to)) {
            String text = cut(step.text(), limits.textChars());
            cutStep |= !text.equals(step.text());
            stepNodes.addObject().put("number", step.number()).put("text", text).put("done", step.checked());
        }
        if (cutStep) {
            truncated.add(STEPS);
        }
        List<String> notes = task.progresses();
        int start = Math.max(0, notes.size() - limits.entries());
        ArrayNode progress = node.putArray(PROGRESS);
        boolean cutNote = start > 0;
        for (String note : notes.subList(start, notes.size())) {
            String text = cut(note, limits.textChars());
            cutNote |= !text.equals(note);
            progress.add(text);
        }
        if (start > 0) {
            node.put(PROGRESS + "_total", notes.size());
            node.put(PROGRESS + "_from", start + 1);
        }
        if (cutNote) {
            truncated.add(PROGRESS);
        }
        if (!truncated.isEmpty()) {
            ArrayNode cutFields = node.putArray(TRUNCATED);
            truncated.forEach(cutFields::add);
        }
    }

    private static void card(ObjectNode node, Task task, Limits limits) {
        List<String> truncated = new ArrayList<>();
        node.put(ID, task.id());
        node.put(SESSION_ID, task.sessionId());
        node.put(ORDER, task.order());
        text(node, DESCRIPTION, task.description(), limits.descriptionChars(), truncated);
        node.put(STATUS, task.status().wireName());
        node.put(ASSIGNEE, task.assignee());
        node.put(PREVIOUS_ASSIGNEE, task.previousAssignee());
        node.put(CREATED_BY, task.createdBy());
        node.put(PRIORITY, task.priority());
        node.put(ARCHIVED, task.archived());
        node.put(ATTEMPT, task.attempt());
        node.put(MAX_ATTEMPTS, task.maxAttempts());
        instant(node, LEASE_UNTIL, task.leaseExpiresAt());
        instant(node, NOT_BEFORE, task.notBefore());
        instant(node, CREATED_AT, task.createdAt());
        instant(node, UPDATED_AT, task.updatedAt());
        node.put(VERSION, task.version());
        graph(node, task, true);
        if (limits.entries() > 0) {
            text(node, PREFERENCE, task.userPreferenceText(), limits.textChars(), truncated);
            cardSteps(node, task, limits, truncated);
            node.put(PROGRESS + "_total", task.progresses().size());
            ArrayNode progress = node.putArray(PROGRESS);
            for (String entry : newest(task.progresses(), limits.entries(), PROGRESS, truncated)) {
                progress.add(cut(entry, limits.textChars()));
            }
            node.put(COMMENTS + "_total", task.comments().size());
            ArrayNode comments = node.putArray(COMMENTS);
            for (Comment comment : newest(task.comments(), limits.entries(), COMMENTS, truncated)) {
                ObjectNode entry = comments.addObject();
                entry.put("author", comment.author());
                entry.put("text", cut(comment.text(), limits.textChars()));
                instant(entry, CREATED_AT, comment.createdAt());
            }
            node.put(LINKS + "_total", task.links().size());
            ArrayNode links = node.putArray(LINKS);
            for (Link link : newest(task.links(), limits.entries(), LINKS, truncated)) {
                ObjectNode entry = links.addObject();
                entry.put("url", cut(link.url(), limits.textChars()));
                entry.put("description", cut(link.description(), limits.textChars()));
                entry.put("author", link.author());
                instant(entry, CREATED_AT, link.createdAt());
            }
            node.put(MESSAGE_COUNT, task.messageIds().size());
        }
        ArrayNode cutFields = node.putArray(TRUNCATED);
        truncated.forEach(cutFields::add);
    }

    private static void cardSteps(ObjectNode node, Task task, Limits limits, List<String> truncated) {
        MarkdownSteps steps = parsedSteps(task);
        node.put(CURRENT_STEP, task.currentStep());
        node.put(STEPS_DONE, steps.done());
        node.put(STEPS_TOTAL, steps.total());
        ArrayNode stepNodes = node.putArray(STEPS);
        int shown = Math.min(steps.total(), limits.steps());
        for (Step step : steps.steps().subList(0, shown)) {
            stepNodes
                    .addObject()
                    .put("number", step.number())
                    .put("text", cut(step.text(), limits.textChars()))
                    .put("done", step.checked())
                    .put("depth", step.depth());
        }
        if (shown < steps.total()) {
            truncated.add(STEPS);
        }
    }

    private static void created(ObjectNode node, Task task) {
        node.put(VERSION, task.version());
        node.put(ORDER, task.order());
        node.put(STATUS, task.status().wireName());
        putIfPresent(node, ASSIGNEE, task.assignee());
        node.put(PRIORITY, task.priority());
        node.put(DESCRIPTION, Texts.abbreviate(task.description(), Limits.EVENT_TEXT));
    }

    /**
     * Renders a task as one line of a listing: id, status, priority and the start of the description.
     *
     * @param task the task
     * @param descriptionLength where the description is cut
     * @return e.g. {@code #7 running p2: Fix the login redirect}, or {@code #8 pending p0 (Steps 1/2): Plan
     *     the trip} for a task with steps
     */
    public static String listingLine(Task task, int descriptionLength) {
        String description = Texts.abbreviate(Texts.oneLine(task.description()), descriptionLength);
        String steps = task.hasSteps() ? " (" + parsedSteps(task).progressLabel() + ")" : "";
        String waits = task.status() == TaskStatus.PENDING && task.notBefore() != null
                ? " not before " + task.notBefore().truncatedTo(ChronoUnit.SECONDS)
                : "";
        return "#" + task.id() + " " + task.status().wireName() + " p" + task.priority() + waits + steps + ": "
                + description;
    }

    private static MarkdownSteps parsedSteps(Task task) {
        return MarkdownSteps.parse(task.hasSteps() ? task.steps() : "");
    }

    private static String linkText(Link link) {
        String target = link.description().isBlank() ? link.url() : "[" + link.description() + "](" + link.url() + ")";
        return target + " by " + link.author();
    }

    private static <T> List<T> newest(List<T> entries, int limit, String field, List<String> truncated) {
        if (entries.size() <= limit) {
            return entries;
        }
        truncated.add(field);
        return entries.subList(entries.size() - limit, entries.size());
    }

    /** Puts a text cut to a length; a cut field gets its full length beside it and is listed as truncated. */
    private static void text(ObjectNode node, String field, String value, int limit, List<String> truncated) {
        String shown = cut(value, limit);
        node.put(field, shown);
        if (value != null && !shown.equals(value)) {
            node.put(field + "_length", value.length());
            truncated.add(field);
        }
    }

    /** Cuts a text to a length and ends it with an ellipsis; never splits a surrogate pair. */
    private static String cut(String value, int limit) {
        if (value == null || value.length() <= limit) {
            return value;
        }
        int end = limit;
        if (Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end) + "\u2026";
    }

    private static void instant(ObjectNode node, String field, Instant value) {
        node.put(field, value == null ? null : value.toString());
    }

    private static void putIfPresent(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
    }
}
