package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The extraction toolset's {@code update_task}, by task order (the queue toolset has one by task id):
 * changes a task's status and/or description; other fields are kept.
 */
final class UpdateTaskByOrderTool {
    static final String NAME = "update_task";
    static final String TASK_STATUS = "task_status";
    static final String TASK_DESCRIPTION = "task_description";

    /** The statuses extraction tracks; cancelling is the queue's. */
    private static final List<String> STATUSES = Arrays.stream(TaskStatus.values())
            .filter(status -> status != TaskStatus.CANCELLED)
            .map(TaskStatus::wireName)
            .toList();

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Update a task by order").destructive().idempotent(),
            "Change the status and/or the description of an existing task. Any status may follow any"
                    + " status: set a failed or successful task running again when work on it restarts.",
            JsonSchema.object()
                    .requiredInteger(
                            ExtractionTool.TASK_ORDER, "The 1-based order of the task in the current task list.")
                    .optionalStringEnum(
                            TASK_STATUS,
                            "The new status: pending (not started), running (work began or restarted),"
                                    + " success (confirmed done), failed (errors, abandoned or reported"
                                    + " failure).",
                            STATUSES)
                    .optionalString(
                            TASK_DESCRIPTION,
                            "The new description, reflecting the user's updated intent in the user's own"
                                    + " words. Leave it out to keep the description."),
            UpdateTaskByOrderTool::execute);

    private UpdateTaskByOrderTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int order = arguments.requiredInt(ExtractionTool.TASK_ORDER);
        Optional<TaskStatus> status =
                arguments.optionalChoice(TASK_STATUS, STATUSES).map(TaskStatus::fromWireName);
        Optional<String> description = arguments.optionalText(TASK_DESCRIPTION);
        if (status.isEmpty() && description.isEmpty()) {
            return ToolResult.error("Nothing to update: send task_status (" + String.join(", ", STATUSES)
                    + ") and/or a non-blank task_description.");
        }
        Task task = scope.taskAt(order);
        boolean statusChanges = status.isPresent() && status.get() != task.status();
        boolean descriptionChanges =
                description.isPresent() && !description.get().equals(task.description());
        if (!statusChanges && !descriptionChanges) {
            return ToolResult.ok("Nothing changed: " + ExtractionTool.label(task) + " already has status "
                    + task.status().wireName() + (description.isPresent() ? " and that description." : "."));
        }
        TaskUpdate.Builder update = TaskUpdate.of(task.id());
        if (statusChanges) {
            update.status(status.get());
        }
        if (descriptionChanges) {
            update.description(description.get());
        }
        Task updated = scope.transaction().updateTask(update.build());
        if (descriptionChanges) {
            scope.recordEvent(new TaskEvent.Updated(updated));
        }
        if (statusChanges) {
            scope.recordEvent(new TaskEvent.StatusChanged(updated, task.status(), updated.status()));
        }
        return ToolResult.ok(resultText(task, updated, statusChanges, descriptionChanges));
    }

    private static String resultText(Task before, Task after, boolean statusChanges, boolean descriptionChanges) {
        List<String> changes = new ArrayList<>();
        if (statusChanges) {
            changes.add("status " + before.status().wireName() + " -> "
                    + after.status().wireName());
        }
        if (descriptionChanges) {
            changes.add("new description");
        }
        return "Updated " + ExtractionTool.label(after) + ": " + String.join(", ", changes) + ".";
    }
}
