package dev.taskagent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.internal.paging.SessionPages;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The read-only {@code tasks} toolset: what a session's tasks are and how far each has come, for an agent
 * or a person who watches the work rather than doing it.
 *
 * <ul>
 *   <li>{@code list_tasks {session_id, tag?, limit?, cursor?}}: the session's tasks in order (those with the
 *       tag, if one is given; archived ones left out), one line each: {@code 2. #14 running (Steps 1/3): Book the
 *       flights}, a page at a time: at most {@code limit} tasks (100 when absent, up to 500), fewer when their
 *       lines would take more than three quarters of the result budget; a page followed by more ends with how
 *       many and the {@code cursor} of the next;
 *   <li>{@code get_task_with_steps {task_id, steps_from?}}: one task with its checklist, each step ticked or
 *       not, and its newest progress notes, as compact JSON within the result budget (fifty steps from {@code
 *       steps_from} at most, fewer when they are long) (the {@linkplain TaskJson.View#STEPS steps view} of the task
 *       model); also as structured content.
 * </ul>
 *
 * <p>Thread-safe (the store is).
 */
final class TaskReadTools {
    static final String LIST_TASKS = "list_tasks";
    static final String GET_TASK_WITH_STEPS = "get_task_with_steps";

    /**
     * The most tokens (estimated) a task of {@code get_task_with_steps} takes: fewer steps and notes, then shorter
     * texts, keep it within, with room for the estimate's error against the toolset's budget.
     */
    static final int RESULT_TOKENS = Toolbox.DEFAULT_RESULT_BUDGET * 3 / 4;

    /** Descriptions in a listing are cut here; {@code get_task_with_steps} shows the whole text. */
    static final int LISTING_DESCRIPTION_LENGTH = 120;

    private TaskReadTools() {}

    /**
     * Builds the toolset.
     *
     * @param store the store read
     * @param json not used any more: the task model renders the JSON (the server still passes a mapper)
     * @return {@code list_tasks} and {@code get_task_with_steps}
     */
    static Toolbox toolbox(TaskStore store, ObjectMapper json) {
        return Toolbox.of(listTasks(store), getTaskWithSteps(store)).withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    private static Tool listTasks(TaskStore store) {
        return Tool.of(
                        LIST_TASKS,
                        "List a session's tasks in order, with their status and step progress; optionally only"
                                + " those with a tag. Long lists come in pages: pass the cursor a page ends with to"
                                + " get the next. Read-only.",
                        SessionPages.schema(
                                JsonSchema.object()
                                        .requiredString("session_id", "The session (conversation or project) id")
                                        .optionalString("tag", "Only tasks with this tag"),
                                "tasks"),
                        arguments -> {
                            String sessionId = arguments.requiredName("session_id");
                            Optional<String> tag = arguments.optionalName("tag");
                            SessionPages.Request request = SessionPages.request(
                                    arguments, LIST_TASKS + "\u0000" + sessionId + "\u0000" + tag.orElse(""));
                            return SessionPages.render(
                                    request,
                                    store.listTasks(sessionId),
                                    task -> tag.isEmpty() || task.tags().contains(tag.get()),
                                    page -> listingPage(page, sessionId, tag));
                        })
                .withHints(ToolHints.readOnly("List a session's tasks"));
    }

    /** A page of list_tasks: a heading, one line per task, then how many follow and the cursor. */
    private static String listingPage(SessionPages.Page page, String sessionId, Optional<String> tag) {
        String tagged = tag.map(value -> " tagged '" + value + "'").orElse("");
        StringBuilder text = new StringBuilder();
        if (page.tasks().isEmpty()) {
            text.append(page.continued() ? "No more tasks" : "No tasks")
                    .append(tagged)
                    .append(" in session ")
                    .append(sessionId);
        } else {
            text.append("Tasks")
                    .append(tagged)
                    .append(" of session ")
                    .append(sessionId)
                    .append(':');
            page.tasks().forEach(task -> text.append('\n').append(listingLine(task)));
        }
        return text.append(page.footer(LIST_TASKS)).toString();
    }

    private static Tool getTaskWithSteps(TaskStore store) {
        return Tool.of(
                        GET_TASK_WITH_STEPS,
                        "Get a task with its checklist (each step done or not) and its newest progress notes. A long"
                                + " checklist comes in parts: steps_total says how many steps there are; pass"
                                + " steps_from to read on. Read-only.",
                        JsonSchema.object()
                                .requiredInteger("task_id", "Task id")
                                .optionalInteger(
                                        "steps_from", "The number of the first step to show, from 1; default 1"),
                        TaskJson.resultSchema(TaskJson.View.STEPS),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            OptionalInt stepsFrom = arguments.optionalInt("steps_from", 1, Integer.MAX_VALUE);
                            Optional<Task> found = store.findTask(taskId);
                            if (found.isEmpty()) {
                                return ToolResult.error("Task " + taskId
                                        + " not found; list_tasks shows the ids of a session's tasks.");
                            }
                            Task task = found.get();
                            int total = task.hasSteps()
                                    ? MarkdownSteps.parse(task.steps()).total()
                                    : 0;
                            if (stepsFrom.isPresent() && stepsFrom.getAsInt() > Math.max(1, total)) {
                                return ToolResult.error("Task " + taskId + " has " + total
                                        + (total == 1 ? " step" : " steps") + "; steps_from "
                                        + stepsFrom.getAsInt() + " is past the last one.");
                            }
                            String rendered = TaskJson.stepsWithin(task, stepsFrom.orElse(1), RESULT_TOKENS)
                                    .toString();
                            return ToolResult.ok(rendered, "{\"task\":" + rendered + "}");
                        })
                .withHints(ToolHints.readOnly("Get a task with its steps"));
    }

    static String listingLine(Task task) {
        String description = Texts.abbreviate(Texts.oneLine(task.description()), LISTING_DESCRIPTION_LENGTH);
        String steps =
                task.hasSteps() ? " (" + MarkdownSteps.parse(task.steps()).progressLabel() + ")" : "";
        return task.order() + ". #" + task.id() + " " + task.status().wireName() + steps + ": " + description;
    }
}
