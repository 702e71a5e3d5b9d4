package dev.taskagent.extraction;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.tool.ToolResult;
import java.util.Objects;

/**
 * One tool call the model made during a run, with what it answered.
 *
 * <p>Immutable and thread-safe.
 *
 * @param iteration the 1-based iteration of the call
 * @param call the call as the model made it
 * @param result what the model was told; an error result for a soft error, and for the call that hit a
 *     hard error a result that describes it
 * @param committed true when the call's iteration committed; false when it was rolled back
 */
public record ToolCallRecord(int iteration, ToolCall call, ToolResult result, boolean committed) {
    /**
     * Checks the invariants.
     *
     * @param iteration the 1-based iteration of the call; at least 1
     * @param call the call as the model made it; not null
     * @param result what the model was told; not null
     * @param committed true when the call's iteration committed; false when it was rolled back
     */
    public ToolCallRecord {
        if (iteration < 1) {
            throw new IllegalArgumentException("iteration must be at least 1, was " + iteration);
        }
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(result, "result");
    }
}
