package dev.taskagent.steps;

import dev.taskagent.RunError;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.task.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The honest outcome of one {@link StepExecutor} run: which steps the model reported done, which are
 * still open, whether the task was marked success, and the failure that stopped the run, if one did.
 *
 * <p>A run either ends normally ({@link #isSuccess()}: the model answered without tool calls, or used up
 * its model calls) or with an {@link #error()}. Either way every step ticked before stays ticked (each tick
 * committed on its own), and {@link #completedSteps()} lists them. A run that failed never marks the task
 * success.
 *
 * <p>Immutable and thread-safe.
 *
 * @param task the task as it was when the run ended
 * @param steps the task's steps as they were when the run ended
 * @param completedSteps the numbers of the steps ticked by this run, in the order their markers arrived
 * @param uncheckedSteps the steps still unchecked at the end, in document order; empty when all are done
 * @param markedSuccess true when the run set the task's status to success (every step done, the run did
 *     not fail, and the executor manages the status)
 * @param error the failure that stopped the run: of the model, a tool or the store; empty when it ended
 *     normally
 * @param finalText the text of the model's last answer: its summary, or why it stopped
 * @param modelCalls how many model calls the run made, a failed one included
 * @param toolCalls how many tool calls it ran
 * @param callLimitReached true when the run stopped at the model-call limit while the model still asked
 *     for tools (those calls were not run)
 * @param usage tokens summed over the model calls
 * @param warnings markers ignored and other irregularities, oldest first
 * @param startedAt when the run started (from the executor's clock)
 * @param finishedAt when it ended
 */
public record StepRun(
        Task task,
        MarkdownSteps steps,
        List<Integer> completedSteps,
        List<Step> uncheckedSteps,
        boolean markedSuccess,
        Optional<RunError> error,
        String finalText,
        int modelCalls,
        int toolCalls,
        boolean callLimitReached,
        TokenUsage usage,
        List<String> warnings,
        Instant startedAt,
        Instant finishedAt) {

    /**
     * Checks the invariants and copies the lists.
     *
     * @param task the task as it was when the run ended; not null
     * @param steps the task's steps as they were when the run ended; not null
     * @param completedSteps the numbers of the steps ticked by this run, in the order their markers arrived; not null,
     *     copied
     * @param uncheckedSteps the steps still unchecked at the end, in document order; not null, copied
     * @param markedSuccess true when the run set the task's status to success; never together with an error
     * @param error the failure that stopped the run, or empty when it ended normally; not null
     * @param finalText the text of the model's last answer; not null
     * @param modelCalls how many model calls the run made, a failed one included; not negative
     * @param toolCalls how many tool calls it ran; not negative
     * @param callLimitReached true when the run stopped at the model-call limit while the model still asked for tools
     * @param usage tokens summed over the model calls; not null
     * @param warnings markers ignored and other irregularities, oldest first; not null, copied
     * @param startedAt when the run started, from the executor's clock; not null
     * @param finishedAt when it ended; not null
     */
    public StepRun {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(steps, "steps");
        completedSteps = List.copyOf(completedSteps);
        uncheckedSteps = List.copyOf(uncheckedSteps);
        Objects.requireNonNull(error, "error");
        if (error.isPresent() && markedSuccess) {
            throw new IllegalArgumentException("a run that failed never marks the task success");
        }
        Objects.requireNonNull(finalText, "finalText");
        if (modelCalls < 0 || toolCalls < 0) {
            throw new IllegalArgumentException(
                    "call counts must not be negative: modelCalls=" + modelCalls + ", toolCalls=" + toolCalls);
        }
        Objects.requireNonNull(usage, "usage");
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
    }

    /**
     * Tells whether the run ended without a hard error. Not the same as {@link #allStepsDone()}: a run
     * that ended normally may leave steps open, and one that failed may have ticked them all.
     *
     * @return true when {@link #error()} is empty
     */
    public boolean isSuccess() {
        return error.isEmpty();
    }

    /** @return true when every step of the task is checked */
    public boolean allStepsDone() {
        return uncheckedSteps.isEmpty();
    }

    /** @return how long the run took, by the executor's clock */
    public Duration duration() {
        return Duration.between(startedAt, finishedAt);
    }

    /**
     * Describes the outcome in one line, for logs and for people.
     *
     * @return for example {@code 1 of 2 steps done; not done: 2. Send the list to Hanan on WhatsApp}, or
     *     for a run that failed {@code 1 of 2 steps done; not done: 2. Send the list to Hanan on WhatsApp;
     *     stopped: Tool 'send_whatsapp' failed in iteration 1: IllegalStateException: gateway down}
     */
    public String describe() {
        String head = steps.done() + " of " + steps.total() + " steps done";
        String stopped = error.map(failure -> "; stopped: " + failure.message()).orElse("");
        if (allStepsDone()) {
            return head + (markedSuccess ? "; task marked success" : "") + stopped;
        }
        return head + "; not done: "
                + uncheckedSteps.stream()
                        .map(step -> step.number() + ". " + step.text())
                        .collect(Collectors.joining("; "))
                + stopped;
    }
}
