package dev.taskagent.observe;

import dev.taskagent.llm.ToolCall;
import java.util.Objects;

/**
 * One tool call a model asked for, as an observer sees it before the tool runs.
 *
 * <p>Immutable and thread-safe.
 *
 * @param call the call: the tool's name, the call id and the arguments (content; record the arguments
 *     only when asked to)
 */
public record ToolExecution(ToolCall call) {

    /**
     * Checks that the call is there.
     *
     * @param call not null
     */
    public ToolExecution {
        Objects.requireNonNull(call, "call");
    }

    /** @return the name of the tool */
    public String toolName() {
        return call.name();
    }
}
