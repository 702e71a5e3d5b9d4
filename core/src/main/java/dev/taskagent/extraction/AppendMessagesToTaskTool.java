package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.util.List;

/**
 * {@code append_messages_to_task}: links messages of the batch to a task and sets it running; touches
 * neither progress nor preferences.
 */
final class AppendMessagesToTaskTool {
    static final String NAME = "append_messages_to_task";

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Link messages to a task"),
            "Link messages of this batch to the task they belong to. This only links them and sets the task"
                    + " running if it is not already; it records no progress and no preference. A task in"
                    + " success or failed must be set running with update_task first.",
            JsonSchema.object()
                    .requiredInteger(
                            ExtractionTool.TASK_ORDER, "The 1-based order of the task in the current task list.")
                    .requiredIntegerArray(
                            ExtractionTool.MESSAGE_IDS, "Ids of messages in this batch, as in <message id=N>."),
            AppendMessagesToTaskTool::execute);

    private AppendMessagesToTaskTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int order = arguments.requiredInt(ExtractionTool.TASK_ORDER);
        List<Integer> numbers = arguments.requiredIntList(ExtractionTool.MESSAGE_IDS);
        Task task = scope.taskAt(order);
        if (task.status().isTerminal()) {
            return ToolResult.error("Cannot link messages to " + ExtractionTool.label(task) + ": it is "
                    + task.status().wireName()
                    + ". If work on it restarted, first set it running with update_task, then link the messages.");
        }
        MessageBatch.Resolution resolution = scope.batch().resolve(numbers);
        if (resolution.isEmpty()) {
            return ToolResult.error(noValidIds(numbers, scope.batch()));
        }
        List<String> newlyLinked = resolution.hostIds().stream()
                .filter(id -> !task.messageIds().contains(id))
                .toList();
        List<Long> losingTaskIds = scope.tasks().stream()
                .filter(other -> other.id() != task.id())
                .filter(other -> other.messageIds().stream().anyMatch(newlyLinked::contains))
                .map(Task::id)
                .toList();
        Task linked = scope.transaction().linkMessages(task.id(), resolution.hostIds());
        if (!newlyLinked.isEmpty()) {
            scope.recordEvent(new TaskEvent.MessagesLinked(linked, newlyLinked));
        }
        // Linking moved the messages away from the tasks that held them: those tasks changed too.
        for (long losingTaskId : losingTaskIds) {
            scope.transaction()
                    .findTask(losingTaskId)
                    .ifPresent(loser -> scope.recordEvent(new TaskEvent.Updated(loser)));
        }
        String statusNote;
        if (linked.status() == TaskStatus.RUNNING) {
            statusNote = "it was already running.";
        } else {
            Task running = scope.transaction()
                    .updateTask(
                            TaskUpdate.of(task.id()).status(TaskStatus.RUNNING).build());
            scope.recordEvent(new TaskEvent.StatusChanged(running, linked.status(), TaskStatus.RUNNING));
            statusNote = "its status is now running.";
        }
        return ToolResult.ok("Linked message" + (resolution.numbers().size() == 1 ? " " : "s ")
                + resolution.numbersText() + " to " + ExtractionTool.label(task) + "; " + statusNote
                + skippedNote(resolution, scope.batch()));
    }

    static String noValidIds(List<Integer> numbers, MessageBatch batch) {
        String sent = numbers.isEmpty()
                ? "The message_ids list is empty"
                : "None of the message ids " + new MessageBatch.Resolution(List.of(), List.of(), numbers).outsideText()
                        + " is in this batch";
        return sent + "; nothing was linked. Use ids " + batch.validRange() + " as shown in <message id=N>.";
    }

    static String skippedNote(MessageBatch.Resolution resolution, MessageBatch batch) {
        if (resolution.outside().isEmpty()) {
            return "";
        }
        return " Skipped ids not in this batch (valid: " + batch.validRange() + "): " + resolution.outsideText() + ".";
    }
}
