package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;

/** {@code set_task_user_preference}: replaces a task's whole preference with one string. */
final class SetTaskUserPreferenceTool {
    static final String NAME = "set_task_user_preference";
    static final String USER_PREFERENCE = "user_preference";

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Set a task's user preference").destructive().idempotent(),
            "Replace the user preference of a task with a new, complete text. The old preference (shown in"
                    + " the task list as User Prefs) is discarded, so write the full merged preference:"
                    + " keep what still holds, add what is new, and resolve conflicts in favour of the"
                    + " user's latest intent. Works on a task in any status.",
            JsonSchema.object()
                    .requiredInteger(
                            ExtractionTool.TASK_ORDER, "The 1-based order of the task in the current task list.")
                    .requiredString(
                            USER_PREFERENCE,
                            "The complete, conflict-free preference, including relevant user information"
                                    + " (e-mail, stack choices, constraints)."),
            SetTaskUserPreferenceTool::execute);

    private SetTaskUserPreferenceTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int order = arguments.requiredInt(ExtractionTool.TASK_ORDER);
        String preference = arguments.requiredText(USER_PREFERENCE);
        Task task = scope.taskAt(order);
        Task updated = scope.transaction()
                .updateTask(TaskUpdate.of(task.id()).userPreference(preference).build());
        scope.recordEvent(new TaskEvent.PreferenceSet(updated, preference));
        return ToolResult.ok(
                "Set the preference of " + ExtractionTool.label(updated) + "; it replaces the previous one.");
    }
}
