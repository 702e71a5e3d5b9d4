package dev.taskagent.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.Task;
import dev.taskagent.tool.Toolbox;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The store's tasks as MCP resources, the same on both protocol revisions: a session's task list and one
 * task, each as Markdown (what a person reads) and as JSON (the task model, {@link TaskJson}).
 *
 * <ul>
 *   <li>{@code taskagent://tasks/{task_id}}: one task, {@code text/markdown}; {@code …/{task_id}.json}: the
 *       same task, {@code application/json}, as {@code get_task} shows it (the compact view);
 *   <li>{@code taskagent://sessions/{session_id}/tasks}: the session's tasks in order, one line each,
 *       {@code text/markdown}; {@code …/tasks.json}: {@code {"session_id", "tasks": [entries], …}}. A session
 *       id is percent-encoded in the URI ({@code /} as {@code %2F}).
 * </ul>
 *
 * <p>Each text is bounded as the tools' results are ({@link Toolbox#DEFAULT_RESULT_BUDGET} estimated
 * tokens): a large task shows its newest progress notes, comments and links, a long list its first tasks
 * and how many more there are. A session without tasks is an empty list, not an error (a client may watch
 * it before its first task); a task id that names no task, a malformed URI or a URI of another scheme is
 * {@link NotFound}.
 *
 * <p>Thread-safe (the store is).
 */
final class TaskResources {
    /** The scheme of every resource of this server. */
    static final String SCHEME = "taskagent";

    static final String MARKDOWN = "text/markdown";
    static final String JSON = "application/json";

    static final String TASK_TEMPLATE = "taskagent://tasks/{task_id}";
    static final String TASK_JSON_TEMPLATE = "taskagent://tasks/{task_id}.json";
    static final String SESSION_TEMPLATE = "taskagent://sessions/{session_id}/tasks";
    static final String SESSION_JSON_TEMPLATE = "taskagent://sessions/{session_id}/tasks.json";

    /** The most estimated tokens a resource's text takes: the tools' result budget. */
    static final int TEXT_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET;

    /** A task's JSON within a resource, leaving room for the Markdown around it. */
    static final int TASK_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    private static final Pattern TASK_URI = Pattern.compile("taskagent://tasks/([^/?#]*?)(\\.json)?");
    private static final Pattern SESSION_URI = Pattern.compile("taskagent://sessions/([^/?#]*)/tasks(\\.json)?");
    private static final Pattern TASK_ID = Pattern.compile("[1-9][0-9]{0,18}");

    /** One resource template: its URI template, name, title, description and MIME type. */
    record Template(String uriTemplate, String name, String title, String description, String mimeType) {}

    /** The templates, in the order clients list them. */
    static final List<Template> TEMPLATES = List.of(
            new Template(
                    TASK_TEMPLATE,
                    "task",
                    "A task",
                    "One task as a person reads it: status, assignee, description, checklist, the newest progress"
                            + " notes, comments and links.",
                    MARKDOWN),
            new Template(
                    TASK_JSON_TEMPLATE,
                    "task-json",
                    "A task (JSON)",
                    "One task in taskagent's task JSON model (the compact view get_task returns).",
                    JSON),
            new Template(
                    SESSION_TEMPLATE,
                    "session-tasks",
                    "A session's tasks",
                    "A session's tasks in order, one line each: id, status, step progress, assignee and the"
                            + " start of the description. The session id is percent-encoded.",
                    MARKDOWN),
            new Template(
                    SESSION_JSON_TEMPLATE,
                    "session-tasks-json",
                    "A session's tasks (JSON)",
                    "A session's tasks in order, each a queue entry of taskagent's task JSON model.",
                    JSON));

    /** What a resource read returns: its URI, MIME type and text. */
    record Contents(String uri, String mimeType, String text) {}

    /** A URI that names no resource of this server; the message says what to send instead. */
    static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String uri;

        NotFound(String uri, String message) {
            super(message);
            this.uri = uri;
        }

        /** The URI asked for, for the error's {@code data.uri}. */
        String uri() {
            return uri;
        }
    }

    private final TaskStore store;

    TaskResources(TaskStore store) {
        this.store = store;
    }

    /**
     * The URI of a session's task list.
     *
     * @param sessionId the session
     * @param json the JSON list rather than the Markdown one
     * @return e.g. {@code taskagent://sessions/queue/tasks}
     */
    static String sessionUri(String sessionId, boolean json) {
        return "taskagent://sessions/"
                + URLEncoder.encode(sessionId, StandardCharsets.UTF_8).replace("+", "%20") + "/tasks"
                + (json ? ".json" : "");
    }

    /**
     * The URI of a task.
     *
     * @param taskId the task
     * @param json the JSON rendering rather than the Markdown one
     * @return e.g. {@code taskagent://tasks/7}
     */
    static String taskUri(long taskId, boolean json) {
        return "taskagent://tasks/" + taskId + (json ? ".json" : "");
    }

    /**
     * The URIs whose contents a committed change may have changed: the task's and its session's list, in both
     * renderings.
     *
     * @param event the change
     * @return four URIs
     */
    static List<String> changedBy(FeedEvent event) {
        return List.of(
                taskUri(event.taskId(), false),
                taskUri(event.taskId(), true),
                sessionUri(event.sessionId(), false),
                sessionUri(event.sessionId(), true));
    }

    /**
     * Reads a resource.
     *
     * @param uri the URI asked for
     * @return its contents
     * @throws NotFound if the URI names no resource of this server, or a task that does not exist
     * @throws dev.taskagent.store.TaskStoreException if the store fails
     */
    Contents read(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new NotFound(uri, "No resource URI given; send a URI such as " + taskUri(7, false) + ".");
        }
        Matcher task = TASK_URI.matcher(uri);
        if (task.matches()) {
            return readTask(uri, task.group(1), task.group(2) != null);
        }
        Matcher session = SESSION_URI.matcher(uri);
        if (session.matches()) {
            return readSession(uri, session.group(1), session.group(2) != null);
        }
        throw new NotFound(
                uri,
                "Unknown resource '" + uri + "': this server's resources are " + TASK_TEMPLATE + " and "
                        + SESSION_TEMPLATE + " (add .json for JSON); resources/templates/list lists them.");
    }

    private Contents readTask(String uri, String id, boolean json) {
        if (!TASK_ID.matcher(id).matches()) {
            throw new NotFound(
                    uri,
                    "Unknown resource '" + uri + "': '" + id + "' is not a task id (a positive number), e.g. "
                            + taskUri(7, json) + ".");
        }
        long taskId;
        try {
            taskId = Long.parseLong(id);
        } catch (NumberFormatException e) { // nineteen digits above the largest id
            throw new NotFound(
                    uri,
                    "Task " + id + " not found (resource '" + uri + "'): task ids are at most " + Long.MAX_VALUE + ".");
        }
        Task task = store.findTask(taskId)
                .orElseThrow(() -> new NotFound(
                        uri,
                        "Task " + taskId + " not found (resource '" + uri + "'); the list of a session's tasks, "
                                + SESSION_TEMPLATE + ", shows their ids."));
        ObjectNode node = TaskJson.within(task, TaskJson.View.COMPACT, Integer.MAX_VALUE, TASK_TOKENS);
        return json ? new Contents(uri, JSON, node.toString()) : new Contents(uri, MARKDOWN, markdown(task, node));
    }

    private Contents readSession(String uri, String encoded, boolean json) {
        String sessionId;
        try {
            sessionId = URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new NotFound(
                    uri,
                    "Unknown resource '" + uri + "': the session id '" + encoded + "' is not percent-encoded"
                            + " correctly (" + e.getMessage() + ").");
        }
        try {
            StoreArguments.sessionId(sessionId);
        } catch (IllegalArgumentException e) { // blank, too long, or a character no store keeps (a NUL)
            throw new NotFound(
                    uri,
                    "Unknown resource '" + uri + "': a session id is 1 to " + Task.MAX_ID_LENGTH
                            + " characters of printable text, percent-encoded, e.g. " + sessionUri("queue", json)
                            + ".");
        }
        List<Task> tasks = store.listTasks(sessionId);
        return json
                ? new Contents(uri, JSON, sessionJson(sessionId, tasks))
                : new Contents(uri, MARKDOWN, sessionMarkdown(sessionId, tasks));
    }

    /** The Markdown of a task, from its bounded compact JSON, so both renderings show the same cut. */
    static String markdown(Task task, ObjectNode node) {
        StringBuilder text = new StringBuilder();
        text.append("# Task ")
                .append(task.id())
                .append(": ")
                .append(inline(
                        Texts.abbreviate(Texts.oneLine(task.description()), TaskReadTools.LISTING_DESCRIPTION_LENGTH)))
                .append("\n\n");
        text.append("- **Status:** ").append(task.status().wireName());
        if (task.archived()) {
            text.append(" (archived)");
        }
        text.append('\n');
        text.append("- **Assignee:** ").append(task.assignee() == null ? "nobody" : inline(task.assignee()));
        if (task.previousAssignee() != null) {
            text.append(" (handed over by ")
                    .append(inline(task.previousAssignee()))
                    .append(')');
        }
        text.append('\n');
        text.append("- **Priority:** ").append(task.priority()).append('\n');
        text.append("- **Session:** ")
                .append(inline(task.sessionId()))
                .append(" (position ")
                .append(task.order())
                .append(")\n");
        if (task.createdBy() != null) {
            text.append("- **Created by:** ").append(inline(task.createdBy())).append('\n');
        }
        if (node.has(TaskJson.ATTEMPT)) {
            text.append("- **Attempt:** ")
                    .append(node.get(TaskJson.ATTEMPT).asInt())
                    .append(", lease until ")
                    .append(node.get(TaskJson.LEASE_UNTIL).asText())
                    .append('\n');
        }
        if (node.has(TaskJson.NOT_BEFORE)) {
            text.append("- **Not before:** ")
                    .append(node.get(TaskJson.NOT_BEFORE).asText())
                    .append('\n');
        }
        if (!task.tags().isEmpty()) {
            text.append("- **Tags:** ")
                    .append(inline(String.join(", ", task.tags())))
                    .append('\n');
        }
        if (task.hasParent()) {
            text.append("- **Parent:** task ").append(task.parentId()).append('\n');
        }
        if (!task.blockedBy().isEmpty()) {
            text.append("- **Blocked by:** ")
                    .append(task.blockedBy().stream().map(id -> "task " + id).collect(Collectors.joining(", ")))
                    .append(" (")
                    .append(task.openBlockers())
                    .append(" open)\n");
        }
        text.append("- **Updated:** ")
                .append(task.updatedAt().truncatedTo(ChronoUnit.SECONDS))
                .append('\n');
        section(text, "Description", node.path(TaskJson.DESCRIPTION).asText());
        if (node.has(TaskJson.STEPS)) {
            String label = MarkdownSteps.parse(task.steps()).progressLabel();
            section(text, label, node.get(TaskJson.STEPS).asText());
        }
        if (node.has(TaskJson.PREFERENCE)) {
            section(text, "Preferences", node.get(TaskJson.PREFERENCE).asText());
        }
        list(text, node, TaskJson.PROGRESS, "Progress");
        list(text, node, TaskJson.COMMENTS, "Comments");
        list(text, node, TaskJson.LINKS, "Links");
        if (node.has(TaskJson.TRUNCATED)) {
            text.append("\n_Cut to fit: ")
                    .append(String.join(", ", names(node.get(TaskJson.TRUNCATED))))
                    .append(". The get_task tool with view \"full\" and comments_before shows the rest._\n");
        }
        return text.toString();
    }

    private static void section(StringBuilder text, String title, String body) {
        if (body.isBlank()) {
            return;
        }
        text.append("\n## ").append(title).append("\n\n").append(body.strip()).append('\n');
    }

    /** A list of the JSON model as a Markdown section, with how many older entries it leaves out. */
    private static void list(StringBuilder text, ObjectNode node, String field, String title) {
        JsonNode entries = node.get(field);
        if (entries == null || entries.isEmpty()) {
            return;
        }
        int total = node.path(field + "_total").asInt(entries.size());
        int from = node.path(field + "_from").asInt(1);
        text.append("\n## ").append(title);
        if (total > entries.size()) {
            text.append(" (")
                    .append(from)
                    .append('–')
                    .append(from + entries.size() - 1)
                    .append(" of ")
                    .append(total)
                    .append(", oldest first)");
        }
        text.append("\n\n");
        for (JsonNode entry : entries) {
            text.append("- ")
                    .append(entry.asText().strip().replace("\n", "\n  "))
                    .append('\n');
        }
    }

    private static List<String> names(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false)
                .map(JsonNode::asText)
                .toList();
    }

    /** A text on one line, with the characters that would start Markdown markup escaped. */
    private static String inline(String value) {
        return Texts.oneLine(value).replaceAll("([\\\\`*_\\[\\]#<>|])", "\\\\$1");
    }

    static String sessionMarkdown(String sessionId, List<Task> tasks) {
        StringBuilder text = new StringBuilder("# Tasks of session ")
                .append(inline(sessionId))
                .append("\n\n");
        if (tasks.isEmpty()) {
            return text.append("No tasks yet.\n").toString();
        }
        int budget = TEXT_TOKENS - Texts.estimateTokens(text.toString()) - 20;
        int shown = 0;
        for (Task task : tasks) {
            String line = listingLine(task) + "\n";
            int cost = Texts.estimateTokens(line);
            if (cost > budget) {
                break;
            }
            text.append(line);
            budget -= cost;
            shown++;
        }
        if (shown < tasks.size()) {
            text.append("\n… and ")
                    .append(tasks.size() - shown)
                    .append(" more (")
                    .append(tasks.size())
                    .append(" tasks); the list_tasks tool or ")
                    .append(TASK_TEMPLATE)
                    .append(" reads the others.\n");
        }
        return text.toString();
    }

    /** One task of a listing: {@code 2. **#14** running (Steps 1/3), bob: Book the flights}. */
    static String listingLine(Task task) {
        String steps =
                task.hasSteps() ? " (" + MarkdownSteps.parse(task.steps()).progressLabel() + ")" : "";
        String assignee = task.assignee() == null ? "" : ", " + inline(task.assignee());
        String description =
                Texts.abbreviate(Texts.oneLine(task.description()), TaskReadTools.LISTING_DESCRIPTION_LENGTH);
        return task.order() + ". **#" + task.id() + "** " + task.status().wireName() + steps + assignee
                + (task.archived() ? " (archived)" : "") + ": " + inline(description);
    }

    static String sessionJson(String sessionId, List<Task> tasks) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.put(TaskJson.SESSION_ID, sessionId);
        ArrayNode entries = root.putArray("tasks");
        int budget = TEXT_TOKENS - Texts.estimateTokens(root.toString()) - 20;
        int shown = 0;
        for (Task task : tasks) {
            ObjectNode entry = TaskJson.node(task, TaskJson.View.QUEUE_ENTRY);
            int cost = Texts.estimateTokens(entry.toString()) + 1;
            if (cost > budget) {
                break;
            }
            entries.add(entry);
            budget -= cost;
            shown++;
        }
        root.put("tasks_total", tasks.size());
        if (shown < tasks.size()) {
            root.putArray(TaskJson.TRUNCATED).add("tasks");
        }
        return root.toString();
    }
}
