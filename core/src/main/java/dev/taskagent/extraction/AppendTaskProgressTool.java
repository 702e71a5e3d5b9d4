package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;

/** {@code append_task_progress}: appends one progress entry, verbatim; status and preference unchanged. */
final class AppendTaskProgressTool {
    static final String NAME = "append_task_progress";
    static final String PROGRESS = "progress";

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Record a task's progress"),
            "Record one step the agent actually did for a task: one concise, specific sentence with file"
                    + " paths, values or URLs where there are some, no first person, no \"Step:\" prefix."
                    + " Adds progress only; the status and the preference stay as they are. A task in"
                    + " success or failed must be set running with update_task first.",
            JsonSchema.object()
                    .requiredInteger(
                            ExtractionTool.TASK_ORDER, "The 1-based order of the task in the current task list.")
                    .requiredString(
                            PROGRESS,
                            "What was done, e.g. \"Created login component in src/Login.tsx\"; stored verbatim."),
            AppendTaskProgressTool::execute);

    private AppendTaskProgressTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int order = arguments.requiredInt(ExtractionTool.TASK_ORDER);
        String progress = arguments.requiredText(PROGRESS);
        Task task = scope.taskAt(order);
        if (task.status().isTerminal()) {
            return ToolResult.error("Cannot add progress to " + ExtractionTool.label(task) + ": it is "
                    + task.status().wireName()
                    + ". If work on it restarted, first set it running with update_task, then add the progress.");
        }
        Task updated = scope.transaction().appendProgress(task.id(), progress);
        scope.recordEvent(new TaskEvent.ProgressAppended(updated, progress));
        return ToolResult.ok("Recorded progress on " + ExtractionTool.label(updated) + ".");
    }
}
