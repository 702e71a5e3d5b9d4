package dev.taskagent.queue;

import dev.taskagent.store.StaleTaskException;
import dev.taskagent.store.TaskNotFoundException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The queue toolset: thin adapters from tool calls to {@link TaskQueue} methods.
 *
 * <p>Result texts are short because a model pays for every token it reads: writes answer with one line,
 * and only the tools whose purpose is to hand a task to the model ({@code signup_for_task}, {@code
 * move_task}, {@code get_task}) add the task as compact JSON (see {@link TaskJson}). Input the model can
 * fix (blank names, a bad id, a comment over the limit) is a soft error that names the argument; refused
 * moves are soft errors with the texts of the queue spec.
 */
final class QueueTools {
    static final String SIGNUP_FOR_TASK = "signup_for_task";
    static final String MOVE_TASK = "move_task";
    static final String CREATE_TASK = "create_task";
    static final String GET_TASK = "get_task";
    static final String UPDATE_TASK = "update_task";
    static final String GET_MY_QUEUE = "get_my_queue";
    static final String ADD_COMMENT = "add_comment";
    static final String ADD_LINK = "add_link";
    static final String ARCHIVE_TASK = "archive_task";

    private static final List<String> STATUSES =
            Arrays.stream(TaskStatus.values()).map(TaskStatus::wireName).toList();

    private QueueTools() {}

    static Toolbox toolbox(TaskQueue queue) {
        return Toolbox.of(
                signupForTask(queue),
                moveTask(queue),
                createTask(queue),
                getTask(queue),
                updateTask(queue),
                getMyQueue(queue),
                addComment(queue),
                addLink(queue),
                archiveTask(queue));
    }

    static QueueTool signupForTask(TaskQueue queue) {
        return new QueueTool(
                SIGNUP_FOR_TASK,
                "Claim your next idle task (highest priority, then oldest): sets it running and returns it with"
                        + " its comments and links.",
                JsonSchema.object()
                        .requiredString("agent_name", "Your agent name")
                        .toJson(),
                arguments -> {
                    String agent = name(arguments, "agent_name");
                    return queue.signup(agent)
                            .map(task -> withTask("Task #" + task.id() + " claimed and set to working status", task))
                            .orElseGet(() -> ToolResult.ok("No idle task is available for " + agent));
                });
    }

    static QueueTool moveTask(TaskQueue queue) {
        return new QueueTool(
                MOVE_TASK,
                "Hand your task to another agent with a comment; it becomes pending in their queue. Returns"
                        + " the task with its comments and links.",
                JsonSchema.object()
                        .requiredInteger("task_id", "Task id")
                        .requiredString("current_agent", "Your agent name")
                        .requiredString("new_agent", "Who takes over")
                        .requiredString("comment", "What is done and what is left")
                        .toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    String currentAgent = name(arguments, "current_agent");
                    String newAgent = name(arguments, "new_agent");
                    String comment = text(arguments, "comment");
                    if (newAgent.equals(currentAgent)) {
                        throw new ToolArgumentException("new_agent is the same as current_agent (" + currentAgent
                                + "); name the agent who should take the task over.");
                    }
                    try {
                        Task task = queue.move(taskId, currentAgent, newAgent, comment);
                        return withTask(
                                "Task #" + taskId + " transferred from " + currentAgent + " to " + newAgent, task);
                    } catch (TaskNotFoundException
                            | TaskNotAssignedException
                            | TaskCompleteException
                            | TaskArchivedException
                            | StaleTaskException e) {
                        return ToolResult.error(e.getMessage());
                    }
                });
    }

    static QueueTool createTask(TaskQueue queue) {
        return new QueueTool(
                CREATE_TASK,
                "Create a pending task, optionally in an agent's queue.",
                JsonSchema.object()
                        .requiredString("description", "What to do")
                        .optionalInteger("priority", "Higher is claimed first; default 0")
                        .optionalString("assignee", "Agent whose queue gets the task")
                        .optionalString("created_by", "Your agent name")
                        .optionalString("steps", "Markdown checklist, one '- [ ] step' per line")
                        .toJson(),
                arguments -> {
                    var spec = queue.newTask(text(arguments, "description"));
                    arguments.optionalInt("priority").ifPresent(spec::priority);
                    optionalName(arguments, "assignee").ifPresent(spec::assignee);
                    optionalName(arguments, "created_by").ifPresent(spec::createdBy);
                    optionalText(arguments, "steps").ifPresent(spec::steps);
                    Task task = queue.create(spec.build());
                    return ToolResult.ok("Task #" + task.id() + " created");
                });
    }

    static QueueTool getTask(TaskQueue queue) {
        return new QueueTool(
                GET_TASK,
                "Get a task with its comments and links.",
                JsonSchema.object().requiredInteger("task_id", "Task id").toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    return queue.get(taskId)
                            .map(task -> ToolResult.ok(TaskJson.render(task)))
                            .orElseGet(() -> notFound(taskId));
                });
    }

    static QueueTool updateTask(TaskQueue queue) {
        return new QueueTool(
                UPDATE_TASK,
                "Change a task's status, assignee, priority or description. Send only what changes.",
                JsonSchema.object()
                        .requiredInteger("task_id", "Task id")
                        .stringEnum("status", "New status", STATUSES, false)
                        .optionalString("assignee", "New assignee")
                        .optionalInteger("priority", "New priority")
                        .optionalString("description", "New description")
                        .toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    TaskUpdate.Builder update = TaskUpdate.of(taskId);
                    boolean changes = false;
                    Optional<String> status = arguments.optionalString("status");
                    if (status.isPresent()) {
                        update.status(status(status.get()));
                        changes = true;
                    }
                    Optional<String> assignee = optionalName(arguments, "assignee");
                    if (assignee.isPresent()) {
                        update.assignee(assignee.get());
                        changes = true;
                    }
                    OptionalInt priority = arguments.optionalInt("priority");
                    if (priority.isPresent()) {
                        update.priority(priority.getAsInt());
                        changes = true;
                    }
                    Optional<String> description = optionalText(arguments, "description");
                    if (description.isPresent()) {
                        update.description(description.get());
                        changes = true;
                    }
                    if (!changes) {
                        throw new ToolArgumentException(
                                "Nothing to update: send at least one of status, assignee, priority, description.");
                    }
                    try {
                        queue.update(update.build());
                        return ToolResult.ok("Task #" + taskId + " updated");
                    } catch (TaskNotFoundException | StaleTaskException e) {
                        return ToolResult.error(e.getMessage());
                    }
                });
    }

    static QueueTool getMyQueue(TaskQueue queue) {
        return new QueueTool(
                GET_MY_QUEUE,
                "List an agent's tasks that are not archived, next to claim first.",
                JsonSchema.object()
                        .requiredString("agent_name", "Your agent name")
                        .toJson(),
                arguments -> {
                    String agent = name(arguments, "agent_name");
                    List<Task> tasks = queue.queue(agent);
                    if (tasks.isEmpty()) {
                        return ToolResult.ok("No tasks for " + agent);
                    }
                    StringBuilder text = new StringBuilder("Tasks of " + agent + ":");
                    tasks.forEach(task -> text.append('\n').append(TaskJson.listingLine(task)));
                    return ToolResult.ok(text.toString());
                });
    }

    static QueueTool addComment(TaskQueue queue) {
        return new QueueTool(
                ADD_COMMENT,
                "Add a comment to a task.",
                JsonSchema.object()
                        .requiredInteger("task_id", "Task id")
                        .requiredString("author", "Your agent name")
                        .requiredString("comment", "The comment")
                        .toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    String author = name(arguments, "author");
                    String comment = text(arguments, "comment");
                    try {
                        queue.comment(taskId, author, comment);
                        return ToolResult.ok("Comment added to task #" + taskId);
                    } catch (TaskNotFoundException e) {
                        return notFound(taskId);
                    }
                });
    }

    static QueueTool addLink(TaskQueue queue) {
        return new QueueTool(
                ADD_LINK,
                "Attach a link (a URL with an optional description) to a task.",
                JsonSchema.object()
                        .requiredInteger("task_id", "Task id")
                        .requiredString("url", "The URL")
                        .optionalString("description", "What the link is")
                        .requiredString("author", "Your agent name")
                        .toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    String url = text(arguments, "url");
                    String description = arguments.optionalString("description").orElse("");
                    if (description.length() > Task.MAX_TEXT_LENGTH) {
                        throw tooLong("description", description.length(), Task.MAX_TEXT_LENGTH);
                    }
                    String author = name(arguments, "author");
                    try {
                        queue.link(taskId, url, description, author);
                        return ToolResult.ok("Link added to task #" + taskId);
                    } catch (TaskNotFoundException e) {
                        return notFound(taskId);
                    }
                });
    }

    static QueueTool archiveTask(TaskQueue queue) {
        return new QueueTool(
                ARCHIVE_TASK,
                "Archive a task: it leaves every queue and cannot be moved, but get_task still shows it.",
                JsonSchema.object().requiredInteger("task_id", "Task id").toJson(),
                arguments -> {
                    long taskId = taskId(arguments);
                    try {
                        queue.archive(taskId);
                        return ToolResult.ok("Task #" + taskId + " archived");
                    } catch (TaskNotFoundException e) {
                        return notFound(taskId);
                    }
                });
    }

    private static ToolResult withTask(String headline, Task task) {
        return ToolResult.ok(headline + "\n" + TaskJson.render(task));
    }

    private static ToolResult notFound(long taskId) {
        return ToolResult.error("Task " + taskId + " not found");
    }

    private static long taskId(ToolArguments arguments) {
        long taskId = arguments.requiredLong("task_id");
        if (taskId <= 0) {
            throw new ToolArgumentException(
                    "task_id must be a positive task id, not " + taskId + "; use an id from get_my_queue.");
        }
        return taskId;
    }

    private static String name(ToolArguments arguments, String argument) {
        return checkName(argument, arguments.requiredString(argument));
    }

    private static Optional<String> optionalName(ToolArguments arguments, String argument) {
        return arguments.optionalString(argument).map(value -> checkName(argument, value));
    }

    private static String checkName(String argument, String value) {
        if (value.isBlank()) {
            throw new ToolArgumentException(argument + " must not be blank; send an agent name.");
        }
        if (value.length() > Task.MAX_ID_LENGTH) {
            throw tooLong(argument, value.length(), Task.MAX_ID_LENGTH);
        }
        return value;
    }

    private static String text(ToolArguments arguments, String argument) {
        String value = arguments.requiredString(argument);
        if (value.isBlank()) {
            throw new ToolArgumentException(argument + " must not be blank.");
        }
        return checkLength(argument, value);
    }

    private static Optional<String> optionalText(ToolArguments arguments, String argument) {
        return arguments.optionalString(argument).map(value -> {
            if (value.isBlank()) {
                throw new ToolArgumentException(argument + " must not be blank; leave it out instead.");
            }
            return checkLength(argument, value);
        });
    }

    private static String checkLength(String argument, String value) {
        if (value.length() > Task.MAX_TEXT_LENGTH) {
            throw tooLong(argument, value.length(), Task.MAX_TEXT_LENGTH);
        }
        return value;
    }

    private static TaskStatus status(String value) {
        try {
            return TaskStatus.fromWireName(value);
        } catch (IllegalArgumentException e) {
            throw new ToolArgumentException(
                    "status '" + value + "' is unknown; use one of " + TaskStatus.wireNames() + ".");
        }
    }

    private static ToolArgumentException tooLong(String argument, int length, int limit) {
        return new ToolArgumentException(
                argument + " is " + length + " characters long; the limit is " + limit + ". Shorten it.");
    }
}
