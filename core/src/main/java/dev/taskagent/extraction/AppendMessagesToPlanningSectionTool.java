package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.util.List;

/** {@code append_messages_to_planning_section}: links messages about planning to the session's section. */
final class AppendMessagesToPlanningSectionTool {
    static final String NAME = "append_messages_to_planning_section";

    static final ExtractionTool TOOL = ExtractionTool.leavingTasksAlone(
            NAME,
            ToolHints.writing("Link messages to the planning section"),
            "Link messages about planning that belong to no single task (overall plans, roadmaps, how to"
                    + " organise the work) to the session's planning section.",
            JsonSchema.object()
                    .requiredIntegerArray(
                            ExtractionTool.MESSAGE_IDS, "Ids of messages in this batch, as in <message id=N>."),
            AppendMessagesToPlanningSectionTool::execute);

    private AppendMessagesToPlanningSectionTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        List<Integer> numbers = arguments.requiredIntList(ExtractionTool.MESSAGE_IDS);
        MessageBatch.Resolution resolution = scope.batch().resolve(numbers);
        if (resolution.isEmpty()) {
            // Not an error: the planning section is optional, and nothing was lost.
            return ToolResult.ok("Note: " + AppendMessagesToTaskTool.noValidIds(numbers, scope.batch()));
        }
        List<Long> losingTaskIds = scope.tasks().stream()
                .filter(task -> task.messageIds().stream().anyMatch(resolution.hostIds()::contains))
                .map(Task::id)
                .toList();
        scope.transaction().linkMessagesToPlanningSection(scope.sessionId(), resolution.hostIds());
        if (!losingTaskIds.isEmpty()) {
            // Linking moved messages away from tasks that held them: those tasks changed, so say so.
            scope.reloadTasks();
            scope.tasks().stream()
                    .filter(task -> losingTaskIds.contains(task.id()))
                    .forEach(task -> scope.recordEvent(new TaskEvent.Updated(task)));
        }
        return ToolResult.ok("Linked message" + (resolution.numbers().size() == 1 ? " " : "s ")
                + resolution.numbersText() + " to the planning section."
                + AppendMessagesToTaskTool.skippedNote(resolution, scope.batch()));
    }
}
