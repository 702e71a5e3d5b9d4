package dev.taskagent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.List;
import java.util.Optional;

/**
 * The read-only {@code tasks} toolset: what a session's tasks are and how far each has come, for an agent
 * or a person who watches the work rather than doing it.
 *
 * <ul>
 *   <li>{@code list_tasks {session_id, tag?}}: the session's tasks in order (those with the tag, if one is
 *       given), one line each: {@code 2. #14 running
 *       (Steps 1/3): Book the flights};
 *   <li>{@code get_task_with_steps {task_id}}: one task with its checklist, each step ticked or not, and
 *       its progress notes, as compact JSON (the {@linkplain TaskJson.View#STEPS steps view} of the task
 *       model); also as structured content.
 * </ul>
 *
 * <p>Thread-safe (the store is).
 */
final class TaskReadTools {
    static final String LIST_TASKS = "list_tasks";
    static final String GET_TASK_WITH_STEPS = "get_task_with_steps";

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
                                + " those with a tag. Read-only.",
                        JsonSchema.object()
                                .requiredString("session_id", "The session (conversation or project) id")
                                .optionalString("tag", "Only tasks with this tag"),
                        arguments -> {
                            String sessionId = arguments.requiredName("session_id");
                            Optional<String> tag = arguments.optionalName("tag");
                            List<Task> tasks = store.listTasks(sessionId);
                            if (tag.isPresent()) {
                                tasks = tasks.stream()
                                        .filter(task -> task.tags().contains(tag.get()))
                                        .toList();
                            }
                            String tagged =
                                    tag.map(value -> " tagged '" + value + "'").orElse("");
                            if (tasks.isEmpty()) {
                                return ToolResult.ok("No tasks" + tagged + " in session " + sessionId);
                            }
                            StringBuilder text = new StringBuilder("Tasks" + tagged + " of session " + sessionId + ":");
                            tasks.forEach(task -> text.append('\n').append(listingLine(task)));
                            return ToolResult.ok(text.toString());
                        })
                .withHints(ToolHints.readOnly("List a session's tasks"));
    }

    private static Tool getTaskWithSteps(TaskStore store) {
        return Tool.of(
                        GET_TASK_WITH_STEPS,
                        "Get a task with its checklist (each step done or not) and its progress notes. Read-only.",
                        JsonSchema.object().requiredInteger("task_id", "Task id"),
                        TaskJson.resultSchema(TaskJson.View.STEPS),
                        arguments -> {
                            long taskId = arguments.requiredId("task_id");
                            return store.findTask(taskId)
                                    .map(task -> {
                                        String rendered = TaskJson.render(task, TaskJson.View.STEPS);
                                        return ToolResult.ok(rendered, "{\"task\":" + rendered + "}");
                                    })
                                    .orElseGet(() -> ToolResult.error("Task " + taskId
                                            + " not found; list_tasks shows the ids of a session's tasks."));
                        })
                .withHints(ToolHints.readOnly("Get a task with its steps"));
    }

    static String listingLine(Task task) {
        String description = task.description().replaceAll("\\s+", " ").strip();
        if (description.length() > LISTING_DESCRIPTION_LENGTH) {
            description = description.substring(0, LISTING_DESCRIPTION_LENGTH - 1) + "…";
        }
        String steps =
                task.hasSteps() ? " (" + MarkdownSteps.parse(task.steps()).progressLabel() + ")" : "";
        return task.order() + ". #" + task.id() + " " + task.status().wireName() + steps + ": " + description;
    }
}
