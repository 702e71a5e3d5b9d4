package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.steps.Step;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code set_task_steps}: gives a task its checklist, one step per action the user asked for. Enabled by
 * {@link TaskAgent.Builder#withStepsTool()}.
 *
 * <p>Forgiving where the intent is plain: a step written as a list item ({@code "- [ ] Send it"}, {@code
 * "2. Send it"}) loses its marker, and a Markdown checklist sent as one string counts as its steps. A step
 * the task already had checked, with the same text, stays checked, so that re-stating the steps never
 * undoes work.
 */
final class SetTaskStepsTool {
    static final String NAME = "set_task_steps";
    static final String STEPS = "steps";

    /** The most steps one task takes; more means the model is listing sub-steps of the work. */
    static final int MAX_STEPS = 20;

    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:[-*+]|\\d{1,9}[.)])\\s+(?:\\[[ xX]\\]\\s+)?");

    static final ExtractionTool TOOL = ExtractionTool.changingTasks(
            NAME,
            ToolHints.writing("Set a task's steps").destructive().idempotent(),
            "Give a task its checklist of steps, replacing any steps it had: one step per action the user"
                    + " asked for, in the order to do them, 2 to 5 steps. Never combine two actions in one"
                    + " step and never leave one out; a delivery (sending, messaging, e-mailing the result)"
                    + " is always a step of its own. A task with a single action needs no steps.",
            JsonSchema.object()
                    .requiredInteger(
                            ExtractionTool.TASK_ORDER, "The 1-based order of the task in the current task list.")
                    .requiredStringArray(
                            STEPS,
                            "The steps, in order, each one action in the user's words, e.g. [\"Research"
                                    + " family-friendly attractions in Bangkok for kids 5 & 3\", \"Send the"
                                    + " list to Hanan on WhatsApp\"]."),
            SetTaskStepsTool::execute);

    private SetTaskStepsTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        int order = arguments.requiredInt(ExtractionTool.TASK_ORDER);
        List<String> texts = stepTexts(arguments
                .optionalStringList(STEPS)
                .orElseThrow(() -> new ToolArgumentException(
                        "Argument 'steps' is missing; send the steps as an array of strings, one action each.")));
        Task task = scope.taskAt(order);
        MarkdownSteps steps = keepChecked(MarkdownSteps.checklist(texts), task);
        if (steps.document().length() > Task.MAX_TEXT_LENGTH) {
            throw new ToolArgumentException("The steps are " + steps.document().length()
                    + " characters long together; the limit is " + Task.MAX_TEXT_LENGTH + ". Shorten them.");
        }
        Task updated = scope.transaction().updateTask(TaskSteps.update(task.id(), steps));
        scope.recordEvent(new TaskEvent.Updated(updated));
        return ToolResult.ok("Set " + steps.total() + " step" + (steps.total() == 1 ? "" : "s") + " on "
                + ExtractionTool.label(updated) + " (" + steps.progressLabel() + ").");
    }

    /** Reads the step texts: list markers dropped, a checklist sent as one string split into its steps. */
    private static List<String> stepTexts(List<String> raw) {
        List<String> texts = new ArrayList<>();
        for (String text : raw) {
            MarkdownSteps checklist = MarkdownSteps.parse(text);
            if (checklist.total() > 1
                    || (checklist.total() == 1 && text.strip().lines().count() > 1)) {
                checklist.steps().forEach(step -> texts.add(step.text()));
            } else {
                texts.add(LIST_MARKER.matcher(text).replaceFirst(""));
            }
        }
        if (texts.isEmpty()) {
            throw new ToolArgumentException(
                    "Argument 'steps' is empty; send the task's steps, one action each, or do not call " + NAME + ".");
        }
        if (texts.size() > MAX_STEPS) {
            throw new ToolArgumentException("A task takes at most " + MAX_STEPS + " steps, not " + texts.size()
                    + "; list the actions the user asked for, not the sub-steps of the work.");
        }
        for (int i = 0; i < texts.size(); i++) {
            if (texts.get(i).isBlank()) {
                throw new ToolArgumentException(
                        "Step " + (i + 1) + " of " + texts.size() + " is blank; give every step a description.");
            }
        }
        return texts;
    }

    /** Ticks the new steps whose text matches a step the task already had checked. */
    private static MarkdownSteps keepChecked(MarkdownSteps steps, Task task) {
        if (!task.hasSteps()) {
            return steps;
        }
        Set<String> done = new HashSet<>();
        for (Step step : MarkdownSteps.parse(task.steps()).steps()) {
            if (step.checked()) {
                done.add(step.text());
            }
        }
        MarkdownSteps result = steps;
        for (Step step : steps.steps()) {
            if (done.contains(step.text())) {
                result = result.markDone(step.number());
            }
        }
        return result;
    }
}
