package dev.taskagent.queue;

import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.internal.json.TaskJson.View;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

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

    /** The structured content of a result without a task. */
    static final String NO_TASK = "{}";

    /** Descriptions in a queue listing are cut here; {@code get_task} shows the whole text. */
    static final int LISTING_DESCRIPTION_LENGTH = 120;

    private static final List<String> STATUSES =
            Arrays.stream(TaskStatus.values()).map(TaskStatus::wireName).toList();

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
                archiveTask(queue));
    }

    /** The lean toolset of a model that only works tasks. */
    static Toolbox workerToolbox(TaskQueue queue) {
        return Toolbox.of(
                signupForTask(queue), completeTask(queue), moveTask(queue), addComment(queue), getTask(queue));
    }

    static Tool signupForTask(TaskQueue queue) {
        return Tool.of(
                        SIGNUP_FOR_TASK,
                        "Claim your next idle task (highest priority, then oldest): sets it running and returns it with"
                                + " its comments and links, its attempt and the time its lease ends. Finish it with"
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
                                .optionalString("comment", "What was done, or why it failed"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String agent = arguments.requiredName("agent_name");
                            int attempt = attempt(arguments);
                            TaskStatus outcome = TaskStatus.fromWireName(arguments.requiredChoice("status", OUTCOMES));
                            String comment = arguments.optionalText("comment").orElse(null);
                            return refusalAsError(() -> {
                                queue.complete(taskId, agent, attempt, outcome, comment);
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

    static Tool createTask(TaskQueue queue) {
        return Tool.of(
                        CREATE_TASK,
                        "Create a pending task, optionally in an agent's queue.",
                        JsonSchema.object()
                                .requiredString("description", "What to do")
                                .optionalInteger("priority", "Higher is claimed first; default 0")
                                .optionalString("assignee", "Agent whose queue gets the task")
                                .optionalString("created_by", "Your agent name")
                                .optionalString("steps", "Markdown checklist, one '- [ ] step' per line"),
                        arguments -> {
                            var spec = queue.newTask(arguments.requiredText("description"));
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
                            Task task = queue.create(spec.build());
                            return ToolResult.ok("Task #" + task.id() + " created");
                        })
                .withHints(ToolHints.writing("Create a task"));
    }

    static Tool getTask(TaskQueue queue) {
        return Tool.of(
                        GET_TASK,
                        "Get a task with its comments and links.",
                        JsonSchema.object().requiredInteger("task_id", "Task id"),
                        TaskJson.resultSchema(View.COMPACT),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            return queue.get(taskId)
                                    .map(task -> ToolResult.ok(TaskJson.render(task, View.COMPACT), result(task)))
                                    .orElseGet(() -> ToolResult.error(new TaskNotFoundException(taskId).getMessage()));
                        })
                .withHints(ToolHints.readOnly("Get a task"));
    }

    /** The queue's {@code update_task}, by task id; the extraction toolset has one by order. */
    static Tool updateTaskById(TaskQueue queue) {
        return Tool.of(
                        UPDATE_TASK,
                        "Change a task's status, assignee, priority or description. Send only what changes.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .optionalStringEnum("status", "New status", STATUSES)
                                .optionalString("assignee", "New assignee")
                                .optionalInteger("priority", "New priority")
                                .optionalString("description", "New description"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            TaskUpdate.Builder update = TaskUpdate.of(taskId);
                            boolean changes = false;
                            Optional<String> status = arguments.optionalChoice("status", STATUSES);
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
                            if (!changes) {
                                throw new ToolArgumentException(
                                        "Nothing to update: send at least one of status, assignee, priority, description.");
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
                        "List an agent's tasks that are not archived, next to claim first.",
                        JsonSchema.object().requiredString("agent_name", "Your agent name"),
                        arguments -> {
                            String agent = arguments.requiredName("agent_name");
                            List<Task> tasks = queue.listQueue(agent);
                            if (tasks.isEmpty()) {
                                return ToolResult.ok("No tasks for " + agent);
                            }
                            StringBuilder text = new StringBuilder("Tasks of " + agent + ":");
                            tasks.forEach(task ->
                                    text.append('\n').append(TaskJson.listingLine(task, LISTING_DESCRIPTION_LENGTH)));
                            return ToolResult.ok(text.toString());
                        })
                .withHints(ToolHints.readOnly("List an agent's queue"));
    }

    static Tool addComment(TaskQueue queue) {
        return Tool.of(
                        ADD_COMMENT,
                        "Add a comment to a task.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .requiredString("author", "Your agent name")
                                .requiredString("comment", "The comment"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String author = arguments.requiredName("author");
                            String comment = arguments.requiredText("comment");
                            return refusalAsError(() -> {
                                queue.comment(taskId, author, comment);
                                return ToolResult.ok("Comment added to task #" + taskId);
                            });
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
                                .requiredString("author", "Your agent name"),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            String url = arguments.requiredText("url");
                            String description =
                                    arguments.optionalText("description").orElse("");
                            String author = arguments.requiredName("author");
                            return refusalAsError(() -> {
                                queue.link(taskId, url, description, author);
                                return ToolResult.ok("Link added to task #" + taskId);
                            });
                        })
                .withHints(ToolHints.writing("Link a task to a URL"));
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
        return ToolResult.ok(headline + "\n" + TaskJson.render(task, View.COMPACT), result(task));
    }

    /**
     * Renders a task as the structured content of a tool result, {@code {"task": {...}}}, from the task
     * itself: never from a result's text, which holds names and texts that a caller chose.
     */
    private static String result(Task task) {
        return "{\"task\":" + TaskJson.render(task, View.COMPACT) + "}";
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
