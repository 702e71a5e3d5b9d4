package dev.taskagent.extraction;

import java.util.Objects;

/**
 * Why an agent run stopped early: the model call failed, a tool failed in a way the model cannot fix (a
 * store failure or an unexpected exception), or the store failed outside a tool call (at commit). The iteration in which it
 * happened was rolled back; earlier iterations stay committed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param stage where the failure happened
 * @param toolName the tool that failed when {@code stage} is {@link Stage#TOOL}, otherwise null
 * @param iteration the 1-based iteration that failed
 * @param cause what was thrown
 */
public record AgentError(Stage stage, String toolName, int iteration, RuntimeException cause) {

    /** Where a run failed. */
    public enum Stage {
        /** The chat model threw (unreachable service, refusal, invalid response). */
        MODEL,
        /** A tool threw: the store failed or the tool met an unexpected exception. */
        TOOL,
        /** The store failed outside any tool call: reading the task list at the start of the iteration, or committing. */
        STORE
    }

    /** Checks the invariants. */
    public AgentError {
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
     * Describes the failure in one sentence, for logs and error pages.
     *
     * @return for example {@code "Tool 'append_task_progress' failed in iteration 2:
     *     TaskStoreException: disk full; the iteration was rolled back"}
     */
    public String message() {
        String where =
                switch (stage) {
                    case MODEL -> "The chat model failed";
                    case TOOL -> "Tool '" + toolName + "' failed";
                    case STORE -> "The store failed outside any tool call";
                };
        return where + " in iteration " + iteration + ": " + cause.getClass().getSimpleName() + ": "
                + cause.getMessage() + "; the iteration was rolled back";
    }
}
