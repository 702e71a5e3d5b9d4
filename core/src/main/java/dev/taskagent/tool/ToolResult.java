package dev.taskagent.tool;

import java.util.Objects;

/**
 * The result of a tool call, in the shape of an MCP tool result: text content plus an error flag. An
 * error result is a <em>soft</em> error: its text tells the model what was wrong and what to do
 * instead, and the run goes on.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the content the model reads
 * @param isError true when the call failed
 */
public record ToolResult(String text, boolean isError) {
    /** Checks the invariants. */
    public ToolResult {
        Objects.requireNonNull(text, "text");
    }

    /**
     * A successful result.
     *
     * @param text what the model reads
     * @return the result
     */
    public static ToolResult ok(String text) {
        return new ToolResult(text, false);
    }

    /**
     * A soft error.
     *
     * @param text what was wrong and what to do instead
     * @return the result
     */
    public static ToolResult error(String text) {
        return new ToolResult(text, true);
    }
}
