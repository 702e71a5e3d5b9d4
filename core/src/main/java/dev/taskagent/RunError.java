package dev.taskagent;

import java.util.Objects;

/**
 * Why a run stopped early: the model call failed, a tool failed in a way the model cannot fix, or the
 * store failed outside any tool call. {@code TaskAgent.run} reports it in {@code AgentRun.error()} and
 * {@code StepExecutor.execute} in {@code StepRun.error()}; neither throws it, because both runs commit
 * as they go (an extraction iteration by iteration, a step execution tick by tick), and the run's result
 * is the only place that says what was committed before the failure.
 *
 * <p>Immutable and thread-safe.
 *
 * @param stage where the failure happened
 * @param toolName the tool that failed when {@code stage} is {@link Stage#TOOL}, otherwise null
 * @param iteration the 1-based iteration that failed: the model call of that number, or the tool calls of
 *     its answer
 * @param cause what was thrown
 */
public record RunError(Stage stage, String toolName, int iteration, RuntimeException cause) {

    /** Where a run failed. */
    public enum Stage {
        /** The chat model threw (unreachable service, refused request, invalid response). */
        MODEL,
        /** A tool threw: the store failed during the call, or the tool met an unexpected exception. */
        TOOL,
        /**
         * The store failed outside any tool call: at the commit of an extraction iteration, or while a step
         * execution ticked a step or set the final status.
         */
        STORE
    }

    /**
     * Checks the invariants.
     *
     * @param stage where the failure happened; not null
     * @param toolName the tool that failed; given exactly when {@code stage} is {@link Stage#TOOL}, otherwise null
     * @param iteration the 1-based iteration that failed; at least 1
     * @param cause what was thrown; not null
     */
    public RunError {
        Objects.requireNonNull(stage, "stage");
        if ((stage == Stage.TOOL) != (toolName != null)) {
            throw new IllegalArgumentException("toolName must be given exactly when the stage is TOOL");
        }
        if (iteration < 1) {
            throw new IllegalArgumentException("iteration must be at least 1, was " + iteration);
        }
        Objects.requireNonNull(cause, "cause");
    }

    /**
     * Describes the failure in one line, for logs and error pages.
     *
     * @return for example {@code "Tool 'append_task_progress' failed in iteration 2: TaskStoreException:
     *     disk full"}
     */
    public String message() {
        String where =
                switch (stage) {
                    case MODEL -> "The chat model failed";
                    case TOOL -> "Tool '" + toolName + "' failed";
                    case STORE -> "The store failed";
                };
        String what = cause.getClass().getSimpleName();
        return where + " in iteration " + iteration + ": "
                + (cause.getMessage() == null ? what : what + ": " + cause.getMessage());
    }
}
