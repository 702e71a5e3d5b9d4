package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;

/** {@code insert_task}: a new pending task after a given order, renumbering the ones after it. */
final class InsertTaskTool {
    static final String NAME = "insert_task";
    static final String AFTER_TASK_ORDER = "after_task_order";
    static final String TASK_DESCRIPTION = "task_description";

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Insert a task"),
            "Create a new task for something the user asked for. The task starts pending. It is inserted"
                    + " after the task at after_task_order (0 inserts it at the start; an order past the end"
                    + " appends it); the tasks after it move down by one.",
            JsonSchema.object()
                    .requiredInteger(
                            AFTER_TASK_ORDER,
                            "Insert after this task order; 0 for the start of the list, the number of tasks for"
                                    + " the end.")
                    .requiredString(
                            TASK_DESCRIPTION,
                            "The user's request, verbatim or closely paraphrased in the user's own words;"
                                    + " never your own summary."),
            InsertTaskTool::execute);

    private InsertTaskTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int afterOrder = arguments.requiredInt(AFTER_TASK_ORDER);
        String description = arguments.requiredText(TASK_DESCRIPTION);
        if (afterOrder < 0) {
            return ToolResult.error("after_task_order must be 0 or more (0 inserts at the start), was " + afterOrder
                    + ". Use 0 or an order from the task list.");
        }
        int sizeBefore = scope.tasks().size();
        Task task = scope.transaction().insertTask(NewTask.of(scope.sessionId(), description), afterOrder);
        scope.recordEvent(new TaskEvent.Created(task));
        return ToolResult.ok(resultText(task, sizeBefore));
    }

    private static String resultText(Task task, int sizeBefore) {
        String created = "Created " + ExtractionTool.label(task) + " (pending).";
        if (task.order() <= sizeBefore) {
            int firstMoved = task.order();
            return created + " The tasks that were at orders " + firstMoved + ".." + sizeBefore + " are now at "
                    + (firstMoved + 1) + ".." + (sizeBefore + 1) + ".";
        }
        return created + " It is the last of " + task.order() + " tasks.";
    }
}
