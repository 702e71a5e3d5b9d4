package dev.taskagent.queue;

import dev.taskagent.internal.Pages;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.internal.json.TaskJson.View;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.task.TextLimits;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * The queue toolset: thin adapters from tool calls to {@link TaskQueue} methods.
 *
 * <p>Result texts are short because a model pays for every token it reads: writes answer with one line,
 * and only the tools whose purpose is to hand a task to the model ({@code signup_for_task}, {@code
 * move_task}, {@code get_task}) add the task as compact JSON (the {@linkplain View#COMPACT compact view}
 * of {@link TaskJson}); they also return it as structured content, {@code {"task": …}}, built from the
 * {@link Task} (never from the text), and declare its {@linkplain TaskJson#resultSchema output schema}.
 * Input the model can fix (blank names, a bad id, a comment over the limit) is a soft error that names the
 * argument; refused moves are soft errors whose texts are listed in {@code docs/tools.md}.
 */
final class QueueTools {
    static final String SIGNUP_FOR_TASK = "signup_for_task";
    static final String COMPLETE_TASK = "complete_task";
    static final String HEARTBEAT_TASK = "heartbeat_task";
    static final String MOVE_TASK = "move_task";
    static final String CREATE_TASK = "create_task";
    static final String GET_TASK = "get_task";
    static final String UPDATE_TASK = "update_task";
    static final String GET_MY_QUEUE = "get_my_queue";
    static final String ADD_COMMENT = "add_comment";
    static final String ADD_LINK = "add_link";
    static final String ARCHIVE_TASK = "archive_task";
    static final String CANCEL_TASK = "cancel_task";
    static final String ADD_DEPENDENCY = "add_dependency";
    static final String REMOVE_DEPENDENCY = "remove_dependency";
    static final String CREATE_TASK_TREE = "create_task_tree";
    static final String SEARCH_TASKS = "search_tasks";
    static final String LIST_DEAD_LETTERS = "list_dead_letters";

    /** The optional argument of the appends that makes a retried call write once. */
    static final String REQUEST_ID = "request_id";

    private static final String REQUEST_ID_DESCRIPTION = "Your unique id of this call: a retry with it writes nothing";

    /** The structured content of a result without a task. */
    static final String NO_TASK = "{}";

    /** Descriptions in a queue listing are cut here; {@code get_task} shows the whole text. */
    static final int LISTING_DESCRIPTION_LENGTH = 120;

    /** How many tasks each graph section of {@code get_task} lists, and blockers a queue line names. */
    static final int GRAPH_LISTING_LIMIT = 20;

    /**
     * The most tokens the lines of a {@code get_my_queue} page take: a page of longer lines is listed with fewer
     * tasks, so that the cursor at its end stays within the toolset's result budget.
     */
    static final int LISTING_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    /** Room in a result for the headline of a task's work-graph section and its last line. */
    private static final int GRAPH_MARGIN_TOKENS = 60;

    /** What a "… and 12 more" line takes. */
    private static final int MORE_LINE_TOKENS = 6;

    /** How many blockers a line of {@code get_my_queue} names. */
    static final int QUEUE_LINE_BLOCKERS = 5;

    /** The first line of a page of dead letters. */
    private static final String DEAD_LETTERS_TITLE = "Dead letters (failed after their last attempt), oldest first:";

    /** The filters of {@code get_my_queue}. */
    static final List<String> QUEUE_FILTERS = List.of("all", "ready", "blocked");

    /**
     * The most tokens a task's JSON takes in a result, leaving room in the toolset's result budget for a
     * headline and the work-graph sections: a larger task shows fewer of its newest entries, then shorter
     * texts.
     */
    static final int TASK_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    /** The views {@code get_task} offers. */
    static final List<String> VIEWS = List.of("compact", "full");

    /** Every status, for filters. */
    private static final List<String> STATUSES =
            Arrays.stream(TaskStatus.values()).map(TaskStatus::wireName).toList();

    /** The statuses update_task sets; cancel_task cancels, saying who and why. */
    private static final List<String> UPDATE_STATUSES = STATUSES.stream()
            .filter(status -> !status.equals(TaskStatus.CANCELLED.wireName()))
            .toList();

    private QueueTools() {}

    private static final List<String> OUTCOMES = List.of(TaskStatus.SUCCESS.wireName(), TaskStatus.FAILED.wireName());

    static Toolbox toolbox(TaskQueue queue) {
        return Toolbox.of(
                        signupForTask(queue),
                        completeTask(queue),
                        heartbeatTask(queue),
                        moveTask(queue),
                        createTask(queue),
                        getTask(queue),
                        updateTaskById(queue),
                        getMyQueue(queue),
                        addComment(queue),
                        addLink(queue),
                        archiveTask(queue),
                        cancelTask(queue),
                        searchTasks(queue),
                        listDeadLetters(queue))
                .withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    /** The work-graph tools: dependencies and plans; served beside the queue toolset. */
    static Toolbox graphToolbox(TaskQueue queue) {
        return Toolbox.of(addDependency(queue), removeDependency(queue), createTaskTree(queue))
                .withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    /** The lean toolset of a model that only works tasks. */
    static Toolbox workerToolbox(TaskQueue queue) {
        return Toolbox.of(signupForTask(queue), completeTask(queue), moveTask(queue), addComment(queue), getTask(queue))
                .withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    static Tool signupForTask(TaskQueue queue) {
        return Tool.of(
                        SIGNUP_FOR_TASK,
                        "Claim your next idle task (highest priority, then oldest): sets it running and returns it with"
                                + " its newest comments and links, its attempt and the time its lease ends. Finish it with"
                                + " complete_task, naming the attempt.",
                        JsonSchema.object().requiredString("agent_name", "Your agent name"),
                        TaskJson.resultSchema(View.COMPACT),
                        arguments -> {
                            String agent = arguments.requiredName("agent_name");
                            return queue.claimNext(agent)
                                    .map(task ->
                                            withTask("Task #" + task.id() + " claimed and set to working status", task))
                                    .orElseGet(() -> ToolResult.ok("No idle task is available for " + agent, NO_TASK));
                        })
                .withHints(ToolHints.writing("Claim my next task"));
    }

    static Tool completeTask(TaskQueue queue) {
        return Tool.of(
                        COMPLETE_TASK,
                        "Finish the task you claimed: success or failed, with an optional closing comment.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("agent_name", "Your agent name")
                                .requiredInteger("attempt", "The attempt signup_for_task gave you")
                                .requiredStringEnum("status", "How it ended", OUTCOMES)
                                .optionalString("comment", "What was done, or why it failed")
                                .optionalBoolean(
                                        "even_with_open_children",
                                        "true to complete with success although subtasks are unfinished"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String agent = arguments.requiredName("agent_name");
                            int attempt = attempt(arguments);
                            TaskStatus outcome = TaskStatus.fromWireName(arguments.requiredChoice("status", OUTCOMES));
                            String comment = arguments.optionalText("comment").orElse(null);
                            boolean overChildren = arguments
                                    .optionalBoolean("even_with_open_children")
                                    .orElse(false);
                            return refusalAsError(() -> {
                                queue.complete(taskId, agent, attempt, outcome, comment, overChildren);
                                return ToolResult.ok("Task #" + taskId + " completed: " + outcome.wireName());
                            });
                        })
                .withHints(ToolHints.writing("Complete a claimed task").idempotent());
    }

    static Tool heartbeatTask(TaskQueue queue) {
        return Tool.of(
                        HEARTBEAT_TASK,
                        "Keep your claim on a long task: renews its lease. Comments and links you add renew it too.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("agent_name", "Your agent name")
                                .requiredInteger("attempt", "The attempt signup_for_task gave you"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String agent = arguments.requiredName("agent_name");
                            int attempt = attempt(arguments);
                            return refusalAsError(() -> {
                                Task task = queue.heartbeat(taskId, agent, attempt);
                                return ToolResult.ok("Task #" + taskId + " lease until " + task.leaseExpiresAt());
                            });
                        })
                .withHints(ToolHints.writing("Renew a claim's lease").idempotent());
    }

    static Tool moveTask(TaskQueue queue) {
        return Tool.of(
                        MOVE_TASK,
                        "Hand your task to another agent with a comment; it becomes pending in their queue. Returns"
                                + " the task with its comments and links.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("current_agent", "Your agent name")
                                .requiredString("new_agent", "Who takes over")
                                .requiredString("comment", "What is done and what is left")
                                .optionalInteger("attempt", "Your claim's attempt, if you claimed the task"),
                        TaskJson.resultSchema(View.COMPACT),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String currentAgent = arguments.requiredName("current_agent");
                            String newAgent = arguments.requiredName("new_agent");
                            String comment = arguments.requiredText("comment");
                            OptionalInt attempt =
                                    arguments.has("attempt") ? OptionalInt.of(attempt(arguments)) : OptionalInt.empty();
                            if (newAgent.equals(currentAgent)) {
                                throw new ToolArgumentException("new_agent is the same as current_agent ("
                                        + currentAgent + "); name the agent who should take the task over.");
                            }
                            return refusalAsError(() -> withTask(
                                    "Task #" + taskId + " transferred from " + currentAgent + " to " + newAgent,
                                    attempt.isPresent()
                                            ? queue.move(taskId, currentAgent, attempt.getAsInt(), newAgent, comment)
                                            : queue.move(taskId, currentAgent, newAgent, comment)));
                        })
                .withHints(ToolHints.writing("Hand a task over").idempotent());
    }

    /** Reads a {@code not_before} argument: an ISO-8601 time with its offset, within the schedulable range. */
    private static Instant notBefore(String text) {
        Instant time;
        try {
            time = OffsetDateTime.parse(text.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw new ToolArgumentException("Argument 'not_before' must be a time with its offset, like"
                    + " 2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00; was '" + Texts.abbreviate(text, 40) + "'.");
        }
        if (time.isAfter(Instant.now().plus(NewTask.MAX_SCHEDULE_AHEAD))) {
            throw new ToolArgumentException("Argument 'not_before' is more than " + NewTask.MAX_SCHEDULE_AHEAD.toDays()
                    + " days ahead; give a nearer time.");
        }
        return time;
    }

    static Tool createTask(TaskQueue queue) {
        return Tool.of(
                        CREATE_TASK,
                        "Create a pending task, optionally in an agent's queue, under a parent task, and waiting for"
                                + " other tasks: it is not claimed until each of them succeeded.",
                        graphSchema(JsonSchema.object()
                                .requiredString("description", "What to do")
                                .optionalInteger("priority", "Higher is claimed first; default 0")
                                .optionalString("assignee", "Agent whose queue gets the task")
                                .optionalString("created_by", "Your agent name")
                                .optionalString("steps", "Markdown checklist, one '- [ ] step' per line")
                                .optionalInteger("parent_id", "The task this one is a subtask of")
                                .optionalIntegerArray("blocked_by", "Ids of the tasks it waits for")
                                .optionalString("not_before", "Not claimed before this time, e.g. 2026-12-01T09:00:00Z")
                                .optionalString(
                                        "idempotency_key",
                                        "Any unique key of yours: a retry with the same key creates nothing")),
                        arguments -> {
                            var spec = queue.newTask(arguments.requiredText("description"));
                            graphArguments(arguments, spec);
                            arguments.optionalString("not_before").ifPresent(text -> spec.notBefore(notBefore(text)));
                            arguments.optionalName("idempotency_key").ifPresent(spec::idempotencyKey);
                            arguments.optionalInt("priority").ifPresent(spec::priority);
                            arguments.optionalName("assignee").ifPresent(spec::assignee);
                            arguments.optionalName("created_by").ifPresent(spec::createdBy);
                            arguments.optionalText("steps").ifPresent(steps -> {
                                if (MarkdownSteps.parse(steps).isEmpty()) {
                                    throw new ToolArgumentException(
                                            "Argument 'steps' holds no checklist item; write each step"
                                                    + " on its own line as '- [ ] what to do', or leave steps out.");
                                }
                                spec.steps(steps);
                            });
                            return refusalAsError(() -> {
                                TaskQueue.Creation creation = queue.createOnce(spec.build());
                                Task task = creation.task();
                                if (!creation.created()) {
                                    return ToolResult.ok("Task #" + task.id() + " already exists with this"
                                            + " idempotency_key (status "
                                            + task.status().wireName()
                                            + "); nothing was created");
                                }
                                return ToolResult.ok("Task #" + task.id() + " created" + waitsFor(task));
                            });
                        })
                .withHints(ToolHints.writing("Create a task"));
    }

    static Tool getTask(TaskQueue queue) {
        return Tool.of(
                        GET_TASK,
                        "Get a task with its newest comments and links, the tasks it waits for, the tasks waiting for"
                                + " it and its subtasks, each with its status. Long texts are cut and only the newest"
                                + " ten entries of each list shown, with their count (comments_total) and the number"
                                + " of the first one shown (comments_from): ask again with view \"full\" for whole"
                                + " texts, and with comments_before set to comments_from for older comments.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .optionalStringEnum(
                                        "view",
                                        "compact (the default): texts cut, ten entries per list; full: whole texts as far as the"
                                                + " answer's budget allows, fifty entries per list",
                                        VIEWS)
                                .optionalInteger(
                                        "comments_before",
                                        "Show the comments before this one (its number, from 1, oldest first): the"
                                                + " comments_from of the previous answer"),
                        TaskJson.resultSchema(View.COMPACT),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            View view = arguments
                                    .optionalChoice("view", VIEWS)
                                    .map(name -> name.equals("full") ? View.FULL : View.COMPACT)
                                    .orElse(View.COMPACT);
                            OptionalInt before = arguments.optionalInt("comments_before");
                            if (before.isPresent() && before.getAsInt() < 2) {
                                throw new ToolArgumentException("comments_before must be 2 or more (the number of a"
                                        + " comment, from 1, oldest first), was " + before.getAsInt());
                            }
                            return queue.get(taskId)
                                    .map(task -> {
                                        String rendered = TaskJson.within(
                                                        task, view, before.orElse(Integer.MAX_VALUE), TASK_TOKENS)
                                                .toString();
                                        int room = Toolbox.DEFAULT_RESULT_BUDGET
                                                - Texts.estimateTokens(rendered)
                                                - GRAPH_MARGIN_TOKENS;
                                        return ToolResult.ok(
                                                rendered + graphSections(queue, task, room), result(rendered));
                                    })
                                    .orElseGet(() -> ToolResult.error(new TaskNotFoundException(taskId).getMessage()));
                        })
                .withHints(ToolHints.readOnly("Get a task"));
    }

    /** The queue's {@code update_task}, by task id; the extraction toolset has one by order. */
    static Tool updateTaskById(TaskQueue queue) {
        return Tool.of(
                        UPDATE_TASK,
                        "Change a task's status, assignee, priority, description, tags, metadata or parent. Send"
                                + " only what changes.",
                        graphSchema(JsonSchema.object()
                                        .requiredInteger("task_id", "Task id")
                                        .optionalStringEnum("status", "New status", UPDATE_STATUSES)
                                        .optionalString("assignee", "New assignee")
                                        .optionalInteger("priority", "New priority")
                                        .optionalString("description", "New description")
                                        .optionalInteger("parent_id", "New parent task's id; 0 for none"))
                                .optionalBoolean(
                                        "even_with_open_children",
                                        "true to set success although subtasks are unfinished"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            TaskUpdate.Builder update = TaskUpdate.of(taskId);
                            boolean changes = false;
                            Optional<String> status = arguments.optionalChoice("status", UPDATE_STATUSES);
                            if (status.isPresent()) {
                                update.status(TaskStatus.fromWireName(status.get()));
                                changes = true;
                            }
                            Optional<String> assignee = arguments.optionalName("assignee");
                            if (assignee.isPresent()) {
                                update.assignee(assignee.get());
                                changes = true;
                            }
                            OptionalInt priority = arguments.optionalInt("priority");
                            if (priority.isPresent()) {
                                update.priority(priority.getAsInt());
                                changes = true;
                            }
                            Optional<String> description = arguments.optionalText("description");
                            if (description.isPresent()) {
                                update.description(description.get());
                                changes = true;
                            }
                            Optional<List<String>> tags = tags(arguments);
                            if (tags.isPresent()) {
                                update.tags(tags.get());
                                changes = true;
                            }
                            Optional<String> metadata = metadata(arguments);
                            if (metadata.isPresent()) {
                                update.metadata(metadata.get());
                                changes = true;
                            }
                            OptionalLong parent = arguments.optionalLong("parent_id");
                            if (parent.isPresent()) {
                                if (parent.getAsLong() < 0 || parent.getAsLong() == taskId) {
                                    throw new ToolArgumentException("Argument 'parent_id' must be another task's id,"
                                            + " or 0 for no parent, not " + parent.getAsLong() + ".");
                                }
                                update.parent(parent.getAsLong());
                                changes = true;
                            }
                            if (arguments
                                    .optionalBoolean("even_with_open_children")
                                    .orElse(false)) {
                                update.evenWithOpenChildren();
                            }
                            if (!changes) {
                                throw new ToolArgumentException(
                                        "Nothing to update: send at least one of status, assignee, priority, description, tags, metadata, parent_id.");
                            }
                            return refusalAsError(() -> {
                                queue.update(update.build());
                                return ToolResult.ok("Task #" + taskId + " updated");
                            });
                        })
                .withHints(ToolHints.writing("Update a task").destructive().idempotent());
    }

    static Tool getMyQueue(TaskQueue queue) {
        return Tool.of(
                        GET_MY_QUEUE,
                        "List an agent's tasks that are not archived, next to claim first; a task waiting for"
                                + " unfinished tasks names them. Filter: ready (no unfinished blockers) or blocked. Long queues"
                                + " come in pages: pass the cursor a page ends with to get the next.",
                        JsonSchema.object()
                                .requiredString("agent_name", "Your agent name")
                                .optionalStringEnum("filter", "Which tasks; default all", QUEUE_FILTERS)
                                .optionalString("tag", "Only tasks with this tag")
                                .optionalInteger(
                                        "limit",
                                        "Tasks per page, 1 to " + QueueQuery.MAX_LIMIT + "; default "
                                                + QueueQuery.DEFAULT_LIMIT)
                                .optionalString("cursor", "The cursor the previous page gave, for the next page"),
                        arguments -> {
                            QueueQuery query = queueQuery(arguments);
                            try {
                                return ToolResult.ok(queuePageWithinBudget(queue, query));
                            } catch (PageCursorException e) {
                                return ToolResult.error(e.getMessage());
                            }
                        })
                .withHints(ToolHints.readOnly("List an agent's queue"));
    }

    private static QueueQuery queueQuery(ToolArguments arguments) {
        QueueQuery query = QueueQuery.of(arguments.requiredName("agent_name"));
        String filter = arguments.optionalChoice("filter", QUEUE_FILTERS).orElse("all");
        if (filter.equals("ready")) {
            query = query.ready();
        } else if (filter.equals("blocked")) {
            query = query.blocked();
        }
        return paged(
                arguments,
                query,
                QueueQuery.MAX_LIMIT,
                QueueQuery::withTag,
                QueueQuery::withLimit,
                QueueQuery::withCursor);
    }

    /**
     * Reads the paging arguments every listing tool takes alike, each optional, into its query: {@code tag} (when
     * the query has a setter for it), {@code limit} (1 to {@code maxLimit}) and {@code cursor}. Input out of range
     * is a {@link ToolArgumentException} that names the argument; a cursor of another listing is found only when
     * the listing reads it.
     */
    private static <Q> Q paged(
            ToolArguments arguments,
            Q query,
            int maxLimit,
            BiFunction<Q, String, Q> withTag,
            BiFunction<Q, Integer, Q> withLimit,
            BiFunction<Q, String, Q> withCursor) {
        Optional<String> tag = withTag == null ? Optional.empty() : arguments.optionalName("tag");
        if (tag.isPresent()) {
            try {
                query = withTag.apply(query, tag.get());
            } catch (IllegalArgumentException e) {
                throw new ToolArgumentException("Argument 'tag': " + e.getMessage() + ".");
            }
        }
        OptionalInt limit = arguments.optionalInt("limit", 1, maxLimit);
        if (limit.isPresent()) {
            query = withLimit.apply(query, limit.getAsInt());
        }
        Optional<String> cursor = arguments.optionalString("cursor");
        if (cursor.isPresent()) {
            try {
                query = withCursor.apply(query, cursor.get());
            } catch (PageCursorException e) {
                throw new ToolArgumentException("Argument 'cursor': " + e.getMessage());
            }
        }
        return query;
    }

    /**
     * Reads a page of the queue whose text fits {@link #LISTING_TOKENS} and returns that text. A task's line is
     * rendered once however often its page is read (its open blockers are a read of their own).
     */
    private static String queuePageWithinBudget(TaskQueue queue, QueueQuery query) {
        Map<Task, String> lines = new HashMap<>();
        return withinBudget(
                query.limit(),
                limit -> queue.listQueue(query.withLimit(limit)),
                page -> renderQueuePage(queue, query, page, lines),
                page -> page.tasks().size());
    }

    /** Reads a page of a listing whose text fits {@link #LISTING_TOKENS} and returns that text ({@link Pages#fit}). */
    private static <P> String withinBudget(
            int limit, IntFunction<P> read, Function<P, String> render, ToIntFunction<P> size) {
        return Pages.fit(limit, LISTING_TOKENS, read, render, size).text();
    }

    private static String renderQueuePage(TaskQueue queue, QueueQuery query, TaskPage page, Map<Task, String> lines) {
        String agent = query.assignee();
        String which = which(query);
        String tagged = query.tag().map(value -> " tagged '" + value + "'").orElse("");
        if (page.tasks().isEmpty()) {
            String noun = which.isEmpty() ? "tasks" : which + "tasks";
            return query.cursor().isPresent()
                    ? "No more " + noun + tagged + " for " + agent
                    : "No " + noun + tagged + " for " + agent;
        }
        StringBuilder text = new StringBuilder(queueTitle(query));
        page.tasks().forEach(task -> text.append('\n')
                .append(lines.computeIfAbsent(
                        task,
                        shown -> TaskJson.listingLine(shown, LISTING_DESCRIPTION_LENGTH)
                                + openBlockersNote(queue, shown))));
        if (page.hasMore()) {
            text.append('\n')
                    .append(page.remaining())
                    .append(" more: call get_my_queue again with the same agent_name, filter and tag and cursor \"")
                    .append(page.cursor())
                    .append('"');
        }
        return text.toString();
    }

    /** "ready " or "blocked " for a filtered listing, "" for all tasks. */
    private static String which(QueueQuery query) {
        return query.readiness() == QueueQuery.Readiness.ALL
                ? ""
                : query.readiness().name().toLowerCase(Locale.ROOT) + " ";
    }

    /** The first line of a queue page that lists tasks: "Ready tasks of alice tagged 'x':". */
    private static String queueTitle(QueueQuery query) {
        String which = which(query);
        String title =
                which.isEmpty() ? "Tasks" : Character.toUpperCase(which.charAt(0)) + which.substring(1) + "tasks";
        return title + " of " + query.assignee()
                + query.tag().map(value -> " tagged '" + value + "'").orElse("") + ":";
    }

    static Tool listDeadLetters(TaskQueue queue) {
        return Tool.of(
                        LIST_DEAD_LETTERS,
                        "List the dead letters: tasks of every agent that failed after their last attempt, oldest"
                                + " first, each with its agent, attempts and newest comment (why it failed). Read one"
                                + " with get_task; retry it by setting it pending with update_task. Long lists come"
                                + " in pages: pass the cursor a page ends with to get the next.",
                        JsonSchema.object()
                                .optionalInteger(
                                        "limit",
                                        "Tasks per page, 1 to " + TaskQueue.MAX_DEAD_LETTER_LIMIT + "; default "
                                                + QueueQuery.DEFAULT_LIMIT)
                                .optionalString("cursor", "The cursor the previous page gave, for the next page"),
                        arguments -> {
                            DeadLetterQuery query = paged(
                                    arguments,
                                    new DeadLetterQuery(QueueQuery.DEFAULT_LIMIT, null),
                                    TaskQueue.MAX_DEAD_LETTER_LIMIT,
                                    null,
                                    DeadLetterQuery::withLimit,
                                    DeadLetterQuery::withCursor);
                            try {
                                return ToolResult.ok(withinBudget(
                                        query.limit(),
                                        limit -> queue.deadLetters(limit, query.cursor()),
                                        page -> deadLettersText(queue, query, page),
                                        page -> page.tasks().size()));
                            } catch (PageCursorException e) {
                                return ToolResult.error(e.getMessage());
                            }
                        })
                .withHints(ToolHints.readOnly("List the dead letters"));
    }

    /** The paging arguments of {@code list_dead_letters}. */
    private record DeadLetterQuery(int limit, String cursor) {
        DeadLetterQuery withLimit(int value) {
            return new DeadLetterQuery(value, cursor);
        }

        DeadLetterQuery withCursor(String value) {
            if (value.isBlank() || value.length() > QueueQuery.MAX_CURSOR_LENGTH) {
                throw new PageCursorException("cursor is not one list_dead_letters returned (" + value.length()
                        + " characters); list the dead letters again without a cursor");
            }
            return new DeadLetterQuery(limit, value);
        }
    }

    private static String deadLettersText(TaskQueue queue, DeadLetterQuery query, TaskPage page) {
        if (page.tasks().isEmpty()) {
            return query.cursor() == null ? "No dead letters" : "No more dead letters";
        }
        StringBuilder text = new StringBuilder(DEAD_LETTERS_TITLE);
        for (Task task : page.tasks()) {
            text.append('\n').append(deadLetterLine(queue, task));
        }
        if (page.hasMore()) {
            text.append('\n')
                    .append(page.remaining())
                    .append(" more: call list_dead_letters again with cursor \"")
                    .append(page.cursor())
                    .append('"');
        }
        return text.toString();
    }

    /** "#12 failed p0: Send the report @mailer, attempt 3 of 3; last comment by taskagent: The lease of …". */
    private static String deadLetterLine(TaskQueue queue, Task task) {
        StringBuilder line = new StringBuilder(TaskJson.listingLine(task, LISTING_DESCRIPTION_LENGTH));
        line.append(" @").append(task.assignee()).append(", attempt ").append(task.attempt());
        if (task.maxAttempts() > 0) {
            line.append(" of ").append(task.maxAttempts());
        } else {
            line.append(" of ").append(queue.maxAttempts());
        }
        if (!task.comments().isEmpty()) {
            var newest = task.comments().get(task.comments().size() - 1);
            line.append("; last comment by ")
                    .append(newest.author())
                    .append(": ")
                    .append(Texts.abbreviate(Texts.oneLine(newest.text()), LISTING_DESCRIPTION_LENGTH));
        }
        return line.toString();
    }

    static Tool searchTasks(TaskQueue queue) {
        return Tool.of(
                        SEARCH_TASKS,
                        "Find tasks by words in their description, steps, progress and comments, best match first;"
                                + " every word must appear (case and punctuation do not matter). Optional filters:"
                                + " status, assignee, session_id, tag. Long results come in pages: pass the cursor"
                                + " a page ends with to get the next.",
                        JsonSchema.object()
                                .requiredString("query", "The words to find, e.g. 'invoice overdue'")
                                .optionalStringEnum("status", "Only tasks in this status", STATUSES)
                                .optionalString("assignee", "Only this agent's tasks")
                                .optionalString("session_id", "Only this session's tasks")
                                .optionalString("tag", "Only tasks with this tag")
                                .optionalBoolean("include_archived", "true to find archived tasks too")
                                .optionalInteger(
                                        "limit",
                                        "Tasks per page, 1 to " + SearchQuery.MAX_LIMIT + "; default "
                                                + SearchQuery.DEFAULT_LIMIT)
                                .optionalString("cursor", "The cursor the previous page gave, for the next page"),
                        arguments -> {
                            SearchQuery query = searchQuery(arguments);
                            try {
                                return ToolResult.ok(withinBudget(
                                        query.limit(),
                                        limit -> queue.search(query.withLimit(limit)),
                                        page -> renderSearchPage(query, page),
                                        page -> page.tasks().size()));
                            } catch (SearchCursorException e) {
                                return ToolResult.error(e.getMessage());
                            } catch (UnsupportedOperationException e) {
                                return ToolResult.error("This task store cannot search tasks; use get_my_queue or"
                                        + " get_task instead.");
                            }
                        })
                .withHints(ToolHints.readOnly("Search tasks"));
    }

    private static String renderSearchPage(SearchQuery query, TaskPage page) {
        String words = String.join(" ", query.words());
        if (page.tasks().isEmpty()) {
            return query.cursor().isPresent()
                    ? "No more tasks match '" + words + "'."
                    : "No tasks match '" + words + "'" + filtersNote(query) + ".";
        }
        StringBuilder text = new StringBuilder("Tasks matching '" + words + "'" + filtersNote(query) + ", best first:");
        for (Task task : page.tasks()) {
            text.append('\n').append(TaskJson.listingLine(task, LISTING_DESCRIPTION_LENGTH));
            if (task.assignee() != null) {
                text.append(" @").append(task.assignee());
            }
        }
        if (page.hasMore()) {
            text.append("\n")
                    .append(page.remaining())
                    .append(" more: call search_tasks again with the same query and filters and cursor \"")
                    .append(page.cursor())
                    .append('"');
        }
        return text.toString();
    }

    private static SearchQuery searchQuery(ToolArguments arguments) {
        String text = arguments.requiredString("query");
        SearchQuery query;
        try {
            query = SearchQuery.of(text);
        } catch (IllegalArgumentException e) {
            throw new ToolArgumentException("Argument 'query': " + e.getMessage() + ".");
        }
        Optional<String> status = arguments.optionalChoice("status", STATUSES);
        if (status.isPresent()) {
            query = query.withStatuses(java.util.Set.of(TaskStatus.fromWireName(status.get())));
        }
        Optional<String> assignee = arguments.optionalName("assignee");
        if (assignee.isPresent()) {
            query = query.withAssignee(assignee.get());
        }
        Optional<String> session = arguments.optionalName("session_id");
        if (session.isPresent()) {
            query = query.withSession(session.get());
        }
        if (arguments.optionalBoolean("include_archived").orElse(false)) {
            query = query.includingArchived();
        }
        return paged(
                arguments,
                query,
                SearchQuery.MAX_LIMIT,
                SearchQuery::withTag,
                SearchQuery::withLimit,
                SearchQuery::withCursor);
    }

    private static String filtersNote(SearchQuery query) {
        List<String> filters = new java.util.ArrayList<>();
        query.statuses().forEach(status -> filters.add("status " + status.wireName()));
        query.assignee().ifPresent(assignee -> filters.add("assignee " + assignee));
        query.sessionId().ifPresent(session -> filters.add("session " + session));
        query.tag().ifPresent(tag -> filters.add("tag '" + tag + "'"));
        if (query.includeArchived()) {
            filters.add("archived included");
        }
        return filters.isEmpty() ? "" : " (" + String.join(", ", filters) + ")";
    }

    static Tool addComment(TaskQueue queue) {
        return Tool.of(
                        ADD_COMMENT,
                        "Add a comment to a task.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("author", "Your agent name")
                                .requiredString("comment", "The comment")
                                .optionalString(REQUEST_ID, REQUEST_ID_DESCRIPTION),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String author = arguments.requiredName("author");
                            String comment = arguments.requiredText("comment");
                            String requestId = requestId(arguments);
                            return refusalAsError(() -> appendedOnce(
                                    () -> queue.comment(taskId, author, comment, requestId),
                                    "Comment added to task #" + taskId,
                                    taskId,
                                    requestId));
                        })
                .withHints(ToolHints.writing("Comment on a task"));
    }

    static Tool addLink(TaskQueue queue) {
        return Tool.of(
                        ADD_LINK,
                        "Attach a link (a URL with an optional description) to a task.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("url", "The URL")
                                .optionalString("description", "What the link is")
                                .requiredString("author", "Your agent name")
                                .optionalString(REQUEST_ID, REQUEST_ID_DESCRIPTION),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String url = arguments.requiredText("url");
                            String description =
                                    arguments.optionalText("description").orElse("");
                            String author = arguments.requiredName("author");
                            String requestId = requestId(arguments);
                            return refusalAsError(() -> appendedOnce(
                                    () -> queue.link(taskId, url, description, author, requestId),
                                    "Link added to task #" + taskId,
                                    taskId,
                                    requestId));
                        })
                .withHints(ToolHints.writing("Link a task to a URL"));
    }

    /**
     * Reads the optional request id of an append: absent is none, but a blank one is refused (unlike optional
     * names), since a caller who sends one means its retry to be recognised.
     *
     * @return the request id, or null when absent
     */
    private static String requestId(ToolArguments arguments) {
        if (arguments.optionalString(REQUEST_ID).filter(String::isBlank).isPresent()) {
            throw new ToolArgumentException("Argument '" + REQUEST_ID
                    + "' must not be blank; send the same id of yours on each retry of this call, or leave it out.");
        }
        return arguments.optionalName(REQUEST_ID).orElse(null);
    }

    /** Runs an append that may carry a request id and says whether it wrote. */
    private static ToolResult appendedOnce(
            Supplier<AppendResult> append, String written, long taskId, String requestId) {
        AppendResult result;
        try {
            result = append.get();
        } catch (UnsupportedOperationException e) {
            return ToolResult.error(
                    "This queue's store does not keep request ids; call again without " + REQUEST_ID + ".");
        }
        if (result.replayed()) {
            return ToolResult.ok("Nothing written: " + REQUEST_ID + " '" + requestId + "' was already used on task #"
                    + taskId + " (a retry of a call that wrote); send a new " + REQUEST_ID + " for a new entry.");
        }
        return ToolResult.ok(written);
    }

    static Tool archiveTask(TaskQueue queue) {
        return Tool.of(
                        ARCHIVE_TASK,
                        "Archive a task: it leaves every queue and cannot be moved, but get_task still shows it.",
                        JsonSchema.object().requiredInteger("task_id", "Task id"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            return refusalAsError(() -> {
                                queue.archive(taskId);
                                return ToolResult.ok("Task #" + taskId + " archived");
                            });
                        })
                .withHints(ToolHints.writing("Archive a task").destructive().idempotent());
    }

    static Tool cancelTask(TaskQueue queue) {
        return Tool.of(
                        CANCEL_TASK,
                        "Cancel a task that has not ended: no one works on it any more, and whoever holds it is told"
                                + " to stop. Its dependants stay blocked.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("author", "Your agent name")
                                .requiredString("reason", "Why it is cancelled"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String author = arguments.requiredName("author");
                            String reason = arguments.requiredText("reason");
                            return refusalAsError(() -> {
                                queue.cancel(taskId, author, reason);
                                return ToolResult.ok("Task #" + taskId + " cancelled");
                            });
                        })
                .withHints(ToolHints.writing("Cancel a task").destructive().idempotent());
    }

    static Tool addDependency(TaskQueue queue) {
        return Tool.of(
                        ADD_DEPENDENCY,
                        "Make a task wait for another: it is not claimed until that task succeeded. Refused if it"
                                + " would close a cycle.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "The task that waits")
                                .requiredInteger("blocker_id", "The task it waits for"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            long blockerId = arguments.requiredId("blocker_id");
                            return refusalAsError(() -> {
                                Task task = queue.addDependency(taskId, blockerId);
                                return ToolResult.ok("Task #" + taskId + " now waits for task #" + blockerId + "; "
                                        + unfinished(task));
                            });
                        })
                .withHints(ToolHints.writing("Make a task wait for another"));
    }

    static Tool removeDependency(TaskQueue queue) {
        return Tool.of(
                        REMOVE_DEPENDENCY,
                        "Stop a task waiting for another, e.g. for a failed task you will not retry.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "The task that waits")
                                .requiredInteger("blocker_id", "The task it waits for"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            long blockerId = arguments.requiredId("blocker_id");
                            return refusalAsError(() -> {
                                Task task = queue.removeDependency(taskId, blockerId);
                                return ToolResult.ok("Task #" + taskId + " no longer waits for task #" + blockerId
                                        + "; " + unfinished(task));
                            });
                        })
                .withHints(ToolHints.writing("Stop a task waiting for another").destructive());
    }

    static Tool createTaskTree(TaskQueue queue) {
        JsonSchema child = graphSchema(JsonSchema.object()
                .requiredString("key", "Your name for this subtask, unique in the call")
                .requiredString("description", "What to do")
                .optionalInteger("priority", "Higher is claimed first; default 0")
                .optionalString("assignee", "Agent whose queue gets it")
                .optionalString("steps", "Markdown checklist, one '- [ ] step' per line")
                .optionalStringArray("blocked_by", "Keys of the subtasks it waits for"));
        return Tool.of(
                        CREATE_TASK_TREE,
                        "Lay out a plan in one call: a parent task and its subtasks, each waiting for the subtasks"
                                + " its blocked_by keys name. All tasks are created, or none. Returns the ids by key.",
                        graphSchema(JsonSchema.object()
                                        .requiredString("description", "The parent task: the goal")
                                        .optionalInteger("priority", "The parent's priority; default 0")
                                        .optionalString("assignee", "Agent whose queue gets the parent")
                                        .optionalString("created_by", "Your agent name, recorded on every task")
                                        .optionalInteger("parent_id", "An existing task to put the parent under"))
                                .requiredObjectArray(
                                        "children", "The subtasks, at most " + TaskTree.MAX_CHILDREN, child),
                        arguments -> {
                            Optional<String> createdBy = arguments.optionalName("created_by");
                            NewTask.Builder parent = queue.newTask(arguments.requiredText("description"));
                            arguments.optionalInt("priority").ifPresent(parent::priority);
                            arguments.optionalName("assignee").ifPresent(parent::assignee);
                            createdBy.ifPresent(parent::createdBy);
                            graphArguments(arguments, parent);
                            List<ToolArguments> children = arguments.requiredObjectList("children");
                            if (children.isEmpty()) {
                                throw new ToolArgumentException(
                                        "Argument 'children' is empty; give at least one subtask, or use create_task.");
                            }
                            TaskTree tree;
                            try {
                                TaskTree.Builder builder = TaskTree.builder(parent.build());
                                for (ToolArguments each : children) {
                                    String key = each.requiredName("key");
                                    NewTask.Builder spec = queue.newTask(each.requiredText("description"));
                                    each.optionalInt("priority").ifPresent(spec::priority);
                                    each.optionalName("assignee").ifPresent(spec::assignee);
                                    createdBy.ifPresent(spec::createdBy);
                                    each.optionalText("steps").ifPresent(spec::steps);
                                    tags(each).ifPresent(spec::tags);
                                    metadata(each).ifPresent(spec::metadata);
                                    builder.child(
                                            key,
                                            spec.build(),
                                            each.optionalStringList("blocked_by")
                                                    .orElse(List.of()));
                                }
                                tree = builder.build();
                            } catch (IllegalArgumentException e) {
                                throw new ToolArgumentException("Nothing was created: " + e.getMessage() + ".");
                            }
                            return refusalAsError(() -> {
                                TaskTree.Created created = queue.createTree(tree);
                                StringBuilder text = new StringBuilder(
                                        "Task #" + created.parent().id() + " created with "
                                                + created.children().size() + " subtasks:");
                                for (TaskTree.Child each : tree.children()) {
                                    Task task = created.child(each.key());
                                    text.append('\n')
                                            .append(each.key())
                                            .append(": #")
                                            .append(task.id());
                                    if (!each.blockedBy().isEmpty()) {
                                        text.append(", waits for ").append(String.join(", ", each.blockedBy()));
                                    }
                                }
                                return ToolResult.ok(text.toString());
                            });
                        })
                .withHints(ToolHints.writing("Lay out a plan of tasks"));
    }

    /** Adds the tags and metadata parameters every task-creating tool takes. */
    private static JsonSchema graphSchema(JsonSchema schema) {
        return schema.optionalStringArray("tags", "Short labels, at most " + Task.MAX_TAGS)
                .optionalFreeObject("metadata", "Your own JSON object, kept as sent, e.g. {\"issue\": \"PROJ-12\"}");
    }

    /** Reads parent_id, blocked_by, tags and metadata into a spec. */
    private static void graphArguments(ToolArguments arguments, NewTask.Builder spec) {
        OptionalLong parent = arguments.optionalLong("parent_id");
        if (parent.isPresent()) {
            if (parent.getAsLong() < 0) {
                throw new ToolArgumentException(
                        "Argument 'parent_id' must be a task's id, or 0 for none, not " + parent.getAsLong() + ".");
            }
            spec.parent(parent.getAsLong());
        }
        if (arguments.has("blocked_by")) {
            spec.blockedBy(arguments.optionalIdList("blocked_by").orElseThrow());
        }
        tags(arguments).ifPresent(spec::tags);
        metadata(arguments).ifPresent(spec::metadata);
    }

    private static Optional<List<String>> tags(ToolArguments arguments) {
        return arguments.optionalStringList("tags").map(tags -> {
            try {
                return TextLimits.checkTags(tags);
            } catch (IllegalArgumentException e) {
                throw new ToolArgumentException("Argument 'tags': " + e.getMessage() + ".");
            }
        });
    }

    /** The metadata as JSON text: sent as an object, or as a string holding one. */
    private static Optional<String> metadata(ToolArguments arguments) {
        Optional<String> text;
        try {
            text = arguments.optionalObject("metadata").map(ToolArguments::toJson);
        } catch (ToolArgumentException notAnObject) {
            try {
                text = arguments.optionalString("metadata");
            } catch (ToolArgumentException notAString) {
                throw new ToolArgumentException(
                        notAnObject.getMessage() + " Send a JSON object such as {\"issue\": \"PROJ-12\"}.");
            }
        }
        return text.map(json -> {
            try {
                return TextLimits.checkMetadata(json);
            } catch (IllegalArgumentException e) {
                throw new ToolArgumentException("Argument 'metadata': " + e.getMessage() + ".");
            }
        });
    }

    /** ", waiting for #3, #4" for a task created with blockers. */
    private static String waitsFor(Task task) {
        if (task.blockedBy().isEmpty()) {
            return "";
        }
        return ", waiting for " + task.blockedBy().stream().map(id -> "#" + id).collect(Collectors.joining(", "));
    }

    private static String unfinished(Task task) {
        return task.openBlockers() == 0
                ? "it waits for no unfinished task"
                : "it waits for " + task.openBlockers() + " unfinished task" + (task.openBlockers() == 1 ? "" : "s");
    }

    /** " — waits for #3 (failed), #4 (pending)" for an unfinished task with open blockers. */
    private static String openBlockersNote(TaskQueue queue, Task task) {
        if (!task.isBlocked() || task.status().isTerminal()) {
            return "";
        }
        List<Task> open = queue.blockers(task.id()).stream()
                .filter(blocker -> blocker.status() != TaskStatus.SUCCESS)
                .toList();
        String named = open.stream()
                .limit(QUEUE_LINE_BLOCKERS)
                .map(blocker -> "#" + blocker.id() + " (" + blocker.status().wireName() + ")")
                .collect(Collectors.joining(", "));
        String more = open.size() > QUEUE_LINE_BLOCKERS ? " and " + (open.size() - QUEUE_LINE_BLOCKERS) + " more" : "";
        return " — waits for " + named + more;
    }

    /**
     * The blockers, dependants and subtasks of a task, each with its status; empty when it has none. The sections
     * take at most {@code tokens} (estimated): a section lists fewer tasks when their lines would take more, and
     * counts the rest.
     */
    private static String graphSections(TaskQueue queue, Task task, int tokens) {
        int[] room = {tokens};
        StringBuilder text = new StringBuilder();
        if (!task.blockedBy().isEmpty()) {
            List<Task> blockers = queue.blockers(task.id());
            text.append("\nWaits for (")
                    .append(task.openBlockers())
                    .append(" of ")
                    .append(blockers.size())
                    .append(" unfinished):");
            listed(text, blockers, room);
            if (blockers.stream().anyMatch(blocker -> blocker.status() == TaskStatus.FAILED)) {
                text.append("\nA failed task it waits for keeps it blocked: retry that task, or remove the"
                        + " dependency with remove_dependency.");
            }
        }
        List<List<Task>> around = queue.dependantsAndChildrenIfKept(task.id());
        List<Task> dependants = around.get(0);
        if (!dependants.isEmpty()) {
            text.append("\nWaited for by:");
            listed(text, dependants, room);
        }
        List<Task> children =
                around.get(1).stream().filter(child -> !child.archived()).toList();
        if (!children.isEmpty()) {
            long done = children.stream()
                    .filter(child -> child.status() == TaskStatus.SUCCESS)
                    .count();
            text.append("\nSubtasks (")
                    .append(done)
                    .append('/')
                    .append(children.size())
                    .append(" done):");
            listed(text, children, room);
        }
        return text.toString();
    }

    /** Lists up to {@link #GRAPH_LISTING_LIMIT} tasks while their lines fit {@code room[0]} tokens; counts the rest. */
    private static void listed(StringBuilder text, List<Task> tasks, int[] room) {
        int shown = 0;
        for (Task each : tasks) {
            String line = TaskJson.listingLine(each, LISTING_DESCRIPTION_LENGTH);
            int cost = Texts.estimateTokens(line) + 1;
            if (shown == GRAPH_LISTING_LIMIT || cost > room[0] - MORE_LINE_TOKENS) {
                break;
            }
            text.append('\n').append(line);
            room[0] -= cost;
            shown++;
        }
        if (tasks.size() > shown) {
            text.append("\n… and ").append(tasks.size() - shown).append(" more");
            room[0] -= MORE_LINE_TOKENS;
        }
    }

    private static int attempt(ToolArguments arguments) {
        int attempt = arguments.requiredInt("attempt");
        if (attempt < 1) {
            throw new ToolArgumentException(
                    "Argument 'attempt' must be the attempt signup_for_task gave you (1 or more), not " + attempt
                            + ".");
        }
        return attempt;
    }

    private static ToolResult withTask(String headline, Task task) {
        String rendered = compact(task);
        return ToolResult.ok(headline + "\n" + rendered, result(rendered));
    }

    /** The task in the compact view, within {@link #TASK_TOKENS}. */
    private static String compact(Task task) {
        return TaskJson.within(task, View.COMPACT, Integer.MAX_VALUE, TASK_TOKENS)
                .toString();
    }

    /**
     * The structured content of a tool result, {@code {"task": {...}}}, from the task rendered by {@link
     * TaskJson}: never from a result's text, which holds names and texts that a caller chose.
     */
    private static String result(String renderedTask) {
        return "{\"task\":" + renderedTask + "}";
    }

    /** Runs an operation; a refusal because of the task's state becomes an error result with its message. */
    private static ToolResult refusalAsError(Supplier<ToolResult> operation) {
        try {
            return operation.get();
        } catch (TaskRefusedException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}
