package dev.taskagent.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The board's JSON API: sessions, a session's tasks with filters and paging, one task, the agents' queues (one
 * agent's a page at a time), the dead letters, the search, and the actions when they are enabled. Pages that
 * continue are named by cursors ({@link SearchCursors}): the place of the last task shown, not a count, so tasks
 * created between two pages never show a task twice or skip one. Every answer is bounded (see {@link CardJson}).
 *
 * <p>Thread-safe.
 */
final class BoardApi {
    /** The largest request body accepted (an action's JSON). */
    static final int MAX_BODY_BYTES = 16 * 1024;

    /** The most tasks one page of a session's tasks holds. */
    static final int MAX_LIMIT = 1_000;

    static final int DEFAULT_LIMIT = 100;

    /** The most sessions, agents, and tasks per queue, one answer lists. */
    static final int MAX_LISTED = 1_000;

    /** Who the actions' comments are by. */
    static final String ACTOR = "task-board";

    private static final List<String> FILTERS = List.of("status", "assignee", "text", "tag", "readiness");

    private static final List<String> TASK_FILTERS =
            List.of("status", "assignee", "text", "tag", "readiness", "offset", "limit", "cursor");

    private static final List<String> CURSOR_PAGING = List.of("limit", "cursor");

    private static final List<String> SEARCH_PARAMETERS =
            List.of("q", "status", "assignee", "session", "tag", "archived", "limit", "cursor");

    private static final List<String> PAGING = List.of("offset", "limit");

    /** The lists of related tasks one task has, each {@code GET /api/tasks/{id}/<name>}. */
    private static final List<String> RELATIONS = List.of("blockers", "dependants", "children");

    /** What the API answers: a status and a JSON body. */
    record Reply(int status, byte[] json) {}

    private final TaskDashboard.Settings settings;
    private final TaskStore store;
    private final EventStream events;
    private final TaskQueue queue;

    BoardApi(TaskDashboard.Settings settings, EventStream events) {
        this.settings = settings;
        this.store = settings.store();
        this.events = events;
        this.queue = settings.queue();
    }

    Reply answer(String method, String rawPath, String rawQuery, UnaryOperator<String> headers, byte[] body) {
        List<String> segments = segments(rawPath);
        if (method.equals("POST") && segments.size() == 4 && segments.get(1).equals("tasks")) {
            QueryParameters.parse(rawQuery, List.of());
            return act(taskId(segments.get(2)), segments.get(3), headers, body);
        }
        if (!method.equals("GET")) {
            throw new ApiException(
                    405,
                    null,
                    method + " is not allowed on " + rawPath
                            + "; the API reads with GET, and actions are POST /api/tasks/{id}/requeue, archive or move");
        }
        if (segments.equals(List.of("api", "config"))) {
            QueryParameters.parse(rawQuery, List.of());
            return ok(config());
        }
        if (segments.equals(List.of("api", "sessions"))) {
            QueryParameters.parse(rawQuery, List.of());
            return ok(sessions());
        }
        if (segments.size() == 4
                && segments.get(1).equals("sessions")
                && segments.get(3).equals("tasks")) {
            String sessionId = QueryParameters.checkText("session", segments.get(2), Task.MAX_ID_LENGTH);
            return ok(sessionTasks(sessionId, QueryParameters.parse(rawQuery, TASK_FILTERS)));
        }
        if (segments.size() == 3 && segments.get(1).equals("tasks")) {
            QueryParameters.parse(rawQuery, List.of());
            long id = taskId(segments.get(2));
            Task task = store.findTask(id).orElseThrow(() -> unknownTask(id));
            CardGraph graph = CardGraph.read(store, List.of(task), () -> store.listTasks(task.sessionId()));
            return ok(Json.write(json -> CardJson.write(json, task, CardJson.DETAIL, queue, graph)));
        }
        if (segments.size() == 4 && segments.get(1).equals("tasks") && RELATIONS.contains(segments.get(3))) {
            long id = taskId(segments.get(2));
            return ok(related(id, segments.get(3), QueryParameters.parse(rawQuery, PAGING)));
        }
        if (segments.equals(List.of("api", "queues"))) {
            QueryParameters.parse(rawQuery, List.of());
            return ok(queues());
        }
        if (segments.size() == 3 && segments.get(1).equals("queues")) {
            return ok(agentQueue(segments.get(2), QueryParameters.parse(rawQuery, CURSOR_PAGING)));
        }
        if (segments.equals(List.of("api", "dead-letters"))) {
            return ok(deadLetters(QueryParameters.parse(rawQuery, CURSOR_PAGING)));
        }
        if (segments.equals(List.of("api", "search"))) {
            return ok(search(QueryParameters.parse(rawQuery, SEARCH_PARAMETERS)));
        }
        throw ApiException.notFound("No API endpoint at " + rawPath + "; see /api/sessions, /api/sessions/{id}/tasks,"
                + " /api/tasks/{id}, /api/tasks/{id}/blockers, /api/tasks/{id}/dependants, /api/tasks/{id}/children,"
                + " /api/queues, /api/queues/{agent}, /api/dead-letters, /api/search, /api/events");
    }

    private byte[] config() {
        return Json.write(json -> {
            json.writeStartObject();
            json.writeBooleanField("actions", settings.actionsEnabled());
            json.writeBooleanField("live", events.live());
            json.writeNumberField("position", events.position());
            json.writeEndObject();
        });
    }

    private byte[] sessions() {
        long position = events.position();
        List<String> ids = store.listSessionIds();
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("position", position);
            json.writeNumberField("total", ids.size());
            json.writeArrayFieldStart("sessions");
            for (String id : ids.subList(0, Math.min(ids.size(), MAX_LISTED))) {
                json.writeString(id);
            }
            json.writeEndArray();
            json.writeBooleanField("truncated", ids.size() > MAX_LISTED);
            json.writeEndObject();
        });
    }

    private byte[] sessionTasks(String sessionId, QueryParameters parameters) {
        Predicate<Task> filter = filter(parameters);
        if (parameters.text("cursor").isPresent() && parameters.text("offset").isPresent()) {
            throw ApiException.badParameter(
                    "cursor",
                    "Give offset or cursor, not both: a cursor continues the page that returned it as next_cursor");
        }
        int limit = parameters.integer("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        String listing = sessionListing(sessionId, parameters);
        Optional<SearchCursors.ListingPosition> after = listingPosition(listing, parameters);
        long position = events.position();
        List<Task> all = store.listTasks(sessionId);
        if (all.isEmpty()) {
            throw ApiException.notFound(
                    "No session '" + QueryParameters.cut(sessionId) + "'; GET /api/sessions lists them");
        }
        List<Task> matching = all.stream().filter(filter).toList();
        // A cursor names the last task shown, not a count: tasks inserted before it move it and everything after
        // it down alike, so the next page starts after wherever it is now. Tasks created since the first page
        // (above its highest id) wait for a new listing.
        long watermark = after.map(SearchCursors.ListingPosition::watermark).orElseGet(() -> highestId(all));
        int offset;
        List<Task> following;
        if (after.isPresent()) {
            long lastId = after.get().lastId();
            int lastOrder = all.stream()
                    .filter(task -> task.id() == lastId)
                    .mapToInt(Task::order)
                    .findFirst()
                    .orElseThrow(() -> ApiException.badParameter(
                            "cursor",
                            "The cursor ends at a task that is not in session '" + QueryParameters.cut(sessionId)
                                    + "'; list the session again without a cursor"));
            offset = (int)
                    matching.stream().filter(task -> task.order() <= lastOrder).count();
            following = matching.stream()
                    .filter(task -> task.order() > lastOrder && task.id() <= watermark)
                    .toList();
        } else {
            offset = parameters.integer("offset", 0, 0, Integer.MAX_VALUE);
            following = matching.subList(Math.min(offset, matching.size()), matching.size());
        }
        List<Task> page = following.subList(0, Math.min(limit, following.size()));
        long remaining = following.size() - page.size();
        String nextCursor = remaining == 0
                ? null
                : SearchCursors.encode(
                        listing,
                        new SearchCursors.ListingPosition(
                                watermark, page.get(page.size() - 1).id()));
        CardGraph graph = CardGraph.read(store, page, () -> all);
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("session_id", sessionId);
            json.writeNumberField("position", position);
            json.writeNumberField("session_total", all.size());
            json.writeNumberField("total", matching.size());
            json.writeNumberField("offset", offset);
            json.writeNumberField("limit", limit);
            json.writeNumberField("remaining", remaining);
            json.writeStringField("next_cursor", nextCursor);
            json.writeBooleanField("graph_complete", graph.complete());
            json.writeArrayFieldStart("tasks");
            for (Task task : page) {
                CardJson.write(json, task, CardJson.BOARD, queue, graph);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private static Predicate<Task> filter(QueryParameters parameters) {
        Predicate<Task> filter = task -> true;
        Optional<String> statuses = parameters.text("status");
        if (statuses.isPresent()) {
            Set<TaskStatus> wanted = statuses(statuses.get());
            filter = filter.and(task -> wanted.contains(task.status()));
        }
        Optional<String> assignee = parameters.text("assignee");
        if (assignee.isPresent()) {
            String name = assignee.get();
            filter = filter.and(task -> name.equals(task.assignee()));
        }
        Optional<String> text = parameters.text("text");
        if (text.isPresent()) {
            String needle = text.get().toLowerCase(Locale.ROOT);
            filter = filter.and(
                    task -> task.description().toLowerCase(Locale.ROOT).contains(needle));
        }
        Optional<String> tag = parameters.text("tag");
        if (tag.isPresent()) {
            String wanted = QueryParameters.checkText("tag", tag.get(), Task.MAX_TAG_LENGTH);
            filter = filter.and(task -> task.tags().contains(wanted));
        }
        Optional<String> readiness = parameters.text("readiness");
        if (readiness.isPresent()) {
            String value = readiness.get();
            if (value.equals("ready")) {
                filter = filter.and(Task::isReady);
            } else if (value.equals("blocked")) {
                filter = filter.and(Task::isBlocked);
            } else {
                throw ApiException.badParameter(
                        "readiness",
                        "Parameter 'readiness' must be ready (pending, not archived, nothing open to wait for) or"
                                + " blocked (waiting for a task that has not succeeded); was '"
                                + QueryParameters.cut(value) + "'");
            }
        }
        return filter;
    }

    private static Set<TaskStatus> statuses(String list) {
        Set<TaskStatus> wanted = EnumSet.noneOf(TaskStatus.class);
        for (String name : list.split(",")) {
            try {
                wanted.add(TaskStatus.fromWireName(name));
            } catch (IllegalArgumentException e) {
                throw ApiException.badParameter(
                        "status",
                        "Parameter 'status' must be one or more of " + TaskStatus.wireNames()
                                + ", comma separated; was '" + QueryParameters.cut(list) + "'");
            }
        }
        return wanted;
    }

    /** A task's blockers, dependants or children as cards, lowest id first, a page at a time. */
    private byte[] related(long id, String relation, QueryParameters parameters) {
        int offset = parameters.integer("offset", 0, 0, Integer.MAX_VALUE);
        int limit = parameters.integer("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        long position = events.position();
        Task task = store.findTask(id).orElseThrow(() -> unknownTask(id));
        List<Task> tasks;
        try {
            tasks = store.inTransaction(transaction -> switch (relation) {
                case "blockers" -> {
                    List<Task> blockers = new ArrayList<>();
                    for (long blocker : task.blockedBy()) {
                        transaction.findTask(blocker).ifPresent(blockers::add);
                    }
                    yield blockers;
                }
                case "dependants" -> transaction.listDependants(id);
                default -> transaction.listChildren(id);
            });
        } catch (UnsupportedOperationException e) {
            throw new ApiException(
                    501,
                    null,
                    "This store does not keep the work graph, so it cannot list a task's " + relation
                            + "; a card's blocked_by and parent_id still say what it waits for and belongs to");
        }
        int from = Math.min(offset, tasks.size());
        List<Task> page = tasks.subList(from, from + Math.min(limit, tasks.size() - from));
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("task_id", id);
            json.writeStringField("relation", relation);
            json.writeNumberField("position", position);
            json.writeNumberField("total", tasks.size());
            if (relation.equals("blockers")) {
                json.writeNumberField("open", task.openBlockers());
            } else if (relation.equals("children")) {
                json.writeNumberField(
                        "done",
                        tasks.stream()
                                .filter(child -> child.status() == TaskStatus.SUCCESS)
                                .count());
            }
            json.writeNumberField("offset", offset);
            json.writeNumberField("limit", limit);
            json.writeArrayFieldStart("tasks");
            for (Task entry : page) {
                CardJson.write(json, entry, CardJson.BOARD, queue);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private byte[] queues() {
        long position = events.position();
        List<String> agents = store.listAssignees();
        List<List<Task>> queues = new ArrayList<>();
        for (String agent : agents.subList(0, Math.min(agents.size(), MAX_LISTED))) {
            queues.add(store.inTransaction(transaction -> transaction.listQueue(agent)));
        }
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("position", position);
            CardJson.instant(json, "now", settings.clock().instant());
            json.writeNumberField("total", agents.size());
            json.writeArrayFieldStart("agents");
            for (int i = 0; i < queues.size(); i++) {
                List<Task> tasks = queues.get(i);
                json.writeStartObject();
                json.writeStringField("agent", agents.get(i));
                json.writeNumberField("total", tasks.size());
                json.writeArrayFieldStart("tasks");
                for (Task task : tasks.subList(0, Math.min(tasks.size(), MAX_LISTED))) {
                    CardJson.write(json, task, CardJson.QUEUE, queue);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeBooleanField("truncated", agents.size() > MAX_LISTED);
            json.writeEndObject();
        });
    }

    /**
     * The queue's dead letters ({@link TaskQueue#deadLetters(int, String)}): failed after their last attempt, by
     * the queue's attempt limit, oldest id first, a page at a time.
     */
    private byte[] deadLetters(QueryParameters parameters) {
        // The same range as the queue's (and as one agent's queue and the search): checked here, so that a limit
        // out of it is a 400 naming the parameter, never the queue's IllegalArgumentException.
        int limit = parameters.integer(
                "limit", Math.min(DEFAULT_LIMIT, TaskQueue.MAX_DEAD_LETTER_LIMIT), 1, TaskQueue.MAX_DEAD_LETTER_LIMIT);
        long position = events.position();
        TaskPage page;
        try {
            page = queue.deadLetters(limit, parameters.text("cursor").orElse(null));
        } catch (PageCursorException e) {
            throw ApiException.badParameter("cursor", e.getMessage());
        }
        TaskPage shown = page;
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("position", position);
            json.writeNumberField("limit", limit);
            json.writeNumberField("remaining", shown.remaining());
            json.writeStringField("next_cursor", shown.cursor());
            json.writeArrayFieldStart("tasks");
            for (Task task : shown.tasks()) {
                CardJson.write(json, task, CardJson.QUEUE, queue);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    /** One agent's queue in claim order, a page at a time (the store's keyset paging). */
    private byte[] agentQueue(String agent, QueryParameters parameters) {
        int limit = parameters.integer("limit", QueueQuery.DEFAULT_LIMIT, 1, QueueQuery.MAX_LIMIT);
        QueueQuery query;
        try {
            query = QueueQuery.of(agent).withLimit(limit);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter("agent", "The agent name cannot be used: " + e.getMessage());
        }
        long position = events.position();
        TaskPage page;
        try {
            query = query.withCursor(parameters.text("cursor").orElse(null));
            page = queue.listQueue(query);
        } catch (PageCursorException e) {
            throw ApiException.badParameter("cursor", e.getMessage());
        }
        TaskPage shown = page;
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("agent", agent);
            json.writeNumberField("position", position);
            CardJson.instant(json, "now", settings.clock().instant());
            json.writeNumberField("limit", limit);
            json.writeNumberField("remaining", shown.remaining());
            json.writeStringField("next_cursor", shown.cursor());
            json.writeArrayFieldStart("tasks");
            for (Task task : shown.tasks()) {
                CardJson.write(json, task, CardJson.QUEUE, queue);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    /** The store's full-text search: every session unless one is named, best match first, a page at a time. */
    private byte[] search(QueryParameters parameters) {
        String text = parameters
                .text("q")
                .orElseThrow(() -> ApiException.badParameter(
                        "q", "Give the words to find as q, e.g. /api/search?q=invoice+overdue"));
        SearchQuery query;
        try {
            query = SearchQuery.of(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter("q", "Parameter 'q': " + e.getMessage());
        }
        Optional<String> statuses = parameters.text("status");
        if (statuses.isPresent()) {
            query = query.withStatuses(statuses(statuses.get()));
        }
        query = withSearchFilter(query, parameters, "assignee", SearchQuery::withAssignee);
        query = withSearchFilter(query, parameters, "session", SearchQuery::withSession);
        query = withSearchFilter(query, parameters, "tag", SearchQuery::withTag);
        Optional<String> archived = parameters.text("archived");
        if (archived.isPresent()) {
            if (!archived.get().equals("true") && !archived.get().equals("false")) {
                throw ApiException.badParameter(
                        "archived",
                        "Parameter 'archived' must be true or false; was '" + QueryParameters.cut(archived.get())
                                + "'");
            }
            if (archived.get().equals("true")) {
                query = query.includingArchived();
            }
        }
        query = query.withLimit(parameters.integer("limit", SearchQuery.DEFAULT_LIMIT, 1, SearchQuery.MAX_LIMIT));
        long position = events.position();
        TaskPage page;
        try {
            query = query.withCursor(parameters.text("cursor").orElse(null));
            page = store.searchTasks(query);
        } catch (PageCursorException e) {
            throw ApiException.badParameter("cursor", e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw new ApiException(
                    501, null, "This store cannot search its tasks; the session boards and their filters still work");
        }
        SearchQuery asked = query;
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("q", asked.text());
            json.writeArrayFieldStart("words");
            for (String word : asked.words()) {
                json.writeString(word);
            }
            json.writeEndArray();
            json.writeNumberField("position", position);
            json.writeNumberField("limit", asked.limit());
            json.writeNumberField("remaining", page.remaining());
            json.writeStringField("next_cursor", page.cursor());
            json.writeArrayFieldStart("tasks");
            for (Task task : page.tasks()) {
                CardJson.write(json, task, CardJson.QUEUE, queue);
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private static SearchQuery withSearchFilter(
            SearchQuery query,
            QueryParameters parameters,
            String name,
            BiFunction<SearchQuery, String, SearchQuery> with) {
        Optional<String> value = parameters.text(name);
        if (value.isEmpty()) {
            return query;
        }
        try {
            return with.apply(query, value.get());
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter(name, "Parameter '" + name + "': " + e.getMessage());
        }
    }

    /** What identifies a session's listing for its cursors: the session and every filter, not the page. */
    private static String sessionListing(String sessionId, QueryParameters parameters) {
        StringBuilder listing = new StringBuilder("session\u0000").append(sessionId);
        for (String name : FILTERS) {
            listing.append('\u0000').append(parameters.text(name).orElse(""));
        }
        return listing.toString();
    }

    private static Optional<SearchCursors.ListingPosition> listingPosition(String listing, QueryParameters parameters) {
        try {
            return SearchCursors.decode(listing, parameters.text("cursor").orElse(null));
        } catch (PageCursorException e) {
            throw ApiException.badParameter("cursor", e.getMessage());
        }
    }

    private static long highestId(List<Task> tasks) {
        return tasks.stream().mapToLong(Task::id).max().orElse(0);
    }

    private Reply act(long taskId, String action, UnaryOperator<String> headers, byte[] body) {
        if (!settings.actionsEnabled()) {
            throw new ApiException(
                    403,
                    null,
                    "Actions are off: this board is read-only. Its owner can turn them on"
                            + " with TaskDashboard.builder(store).token(...).actionsEnabled(true), or"
                            + " taskagent.dashboard.actions-enabled=true in Spring Boot");
        }
        JsonNode request = requestBody(body);
        long version = expectedVersion(headers, request);
        Task task = store.findTask(taskId).orElseThrow(() -> unknownTask(taskId));
        if (task.version() != version) {
            throw stale(task, version);
        }
        try {
            return switch (action) {
                case "requeue" -> requeue(task, version);
                case "archive" -> archive(task, version);
                case "move" -> move(task, version, request);
                default ->
                    throw ApiException.notFound("No action '" + QueryParameters.cut(action)
                            + "'; the actions are requeue, archive and move");
            };
        } catch (StaleTaskException e) {
            throw stale(store.findTask(taskId).orElseThrow(() -> unknownTask(taskId)), version);
        }
    }

    private Reply requeue(Task task, long version) {
        if (task.status() != TaskStatus.FAILED || task.archived()) {
            throw conflict("Task " + task.id() + " is " + describe(task)
                    + "; only a failed task that is not archived can be requeued");
        }
        queue.update(TaskUpdate.of(task.id())
                .expectVersion(version)
                .status(TaskStatus.PENDING)
                .build());
        Task after = queue.comment(
                task.id(),
                ACTOR,
                "Requeued from the task board (it had failed"
                        + (queue.isDeadLetter(task) ? " after its last attempt" : "") + ").");
        return done(
                "requeue",
                after,
                "Task " + task.id() + " is pending again"
                        + (after.assignee() == null ? "" : " in " + after.assignee() + "'s queue")
                        + "; it was failed.");
    }

    private Reply archive(Task task, long version) {
        if (task.archived()) {
            throw conflict("Task " + task.id() + " is archived already");
        }
        Task after = queue.update(
                TaskUpdate.of(task.id()).expectVersion(version).archived(true).build());
        return done("archive", after, "Task " + task.id() + " is archived: it left every queue and stays readable.");
    }

    private Reply move(Task task, long version, JsonNode request) {
        JsonNode to = request.get("to");
        if (to == null || !to.isTextual() || to.asText().isBlank()) {
            throw ApiException.badParameter("to", "Give the agent to move the task to as {\"to\": \"agent\"}");
        }
        String agent = QueryParameters.checkText("to", to.asText().strip(), Task.MAX_ID_LENGTH);
        if (agent.equals(task.assignee())) {
            throw conflict("Task " + task.id() + " is " + agent + "'s already; choose another agent");
        }
        if (task.status().isTerminal() || task.archived()) {
            throw conflict("Task " + task.id() + " is " + describe(task)
                    + "; only a pending or running task can be moved (requeue a failed one first)");
        }
        String from = task.assignee();
        queue.update(TaskUpdate.of(task.id())
                .expectVersion(version)
                .assignee(agent)
                .status(TaskStatus.PENDING)
                .build());
        Task after = queue.comment(
                task.id(),
                ACTOR,
                "Moved from " + (from == null ? "no agent" : from) + " to " + agent + " on the task board.");
        return done(
                "move",
                after,
                "Task " + task.id() + " moved from " + (from == null ? "no agent" : from) + " to " + agent
                        + "; it is pending in " + agent + "'s queue.");
    }

    private static String describe(Task task) {
        return task.archived() ? "archived" : task.status().wireName();
    }

    private static JsonNode requestBody(byte[] body) {
        if (body.length == 0) {
            return Json.MAPPER.createObjectNode();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(body);
            if (node == null || !node.isObject()) {
                throw ApiException.badParameter("body", "The request body must be a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiException.badParameter("body", "The request body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badParameter("body", "The request body could not be read: " + e.getMessage());
        }
    }

    /** The version the caller saw: the If-Match header ({@code "7"} or {@code 7}), else the body's version. */
    private static long expectedVersion(UnaryOperator<String> headers, JsonNode request) {
        String ifMatch = headers.apply("If-Match");
        if (ifMatch != null) {
            String value = ifMatch.strip();
            if (value.startsWith("W/")) {
                value = value.substring(2);
            }
            value = value.replace("\"", "");
            try {
                long version = Long.parseLong(value);
                if (version >= 0) {
                    return version;
                }
            } catch (NumberFormatException e) {
                // the message below says what is expected
            }
            throw ApiException.badParameter(
                    "If-Match", "If-Match must be the task's version, e.g. \"7\"; was " + QueryParameters.cut(ifMatch));
        }
        JsonNode version = request.get("version");
        if (version == null || !version.canConvertToLong() || !version.isIntegralNumber() || version.asLong() < 0) {
            throw ApiException.badParameter(
                    "version",
                    "An action needs the version of the task you saw: send"
                            + " If-Match: \"<version>\" or {\"version\": <version>}");
        }
        return version.asLong();
    }

    private Reply done(String action, Task after, String message) {
        return new Reply(200, Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("action", action);
            json.writeNumberField("task_id", after.id());
            json.writeStringField("result", "done");
            json.writeStringField("message", message);
            json.writeFieldName("task");
            CardJson.write(json, after, CardJson.BOARD, queue);
            json.writeEndObject();
        }));
    }

    private static ApiException stale(Task current, long expected) {
        return new ApiException(
                409,
                "version",
                "Task " + current.id() + " changed since you saw it: you sent version " + expected
                        + ", it is at version " + current.version() + ". Reload it and try again if still wanted.");
    }

    private static ApiException conflict(String message) {
        return new ApiException(409, null, message);
    }

    private static ApiException unknownTask(long id) {
        return ApiException.notFound("No task " + id);
    }

    private static long taskId(String segment) {
        try {
            long id = Long.parseLong(segment);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw ApiException.badParameter(
                "id", "A task id is a positive whole number; was '" + QueryParameters.cut(segment) + "'");
    }

    private static Reply ok(byte[] json) {
        return new Reply(200, json);
    }

    /** The path's segments, each percent-decoded ({@code +} stays a plus in a path). */
    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String raw : rawPath.split("/")) {
            if (raw.isEmpty()) {
                continue;
            }
            try {
                segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiException.badParameter("path", "The path is not properly encoded (" + e.getMessage() + ")");
            }
        }
        return segments;
    }
}
