package dev.taskagent.tool;

import java.util.Objects;

/**
 * The result of a tool call, in the shape of an MCP tool result: text content plus an error flag, and
 * optionally the same result as structured content. An error result is a <em>soft</em> error: its text
 * tells the model what was wrong and what to do instead, and the run goes on.
 *
 * <p>Structured content is for clients that read results as data (an MCP client validates it against
 * the tool's {@linkplain Tool#outputSchema() output schema}); a model reads the text, which says the same.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the content the model reads
 * @param isError true when the call failed
 * @param structuredContent the result as the text of a JSON object, or null when the tool gives none
 */
public record ToolResult(String text, boolean isError, String structuredContent) {
    /**
     * Checks the invariants.
     *
     * @param text the content the model reads; not null
     * @param isError true when the call failed
     * @param structuredContent the result as the text of a JSON object, or null when the tool gives none
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if {@code structuredContent} is not the text of a JSON object
     */
    public ToolResult {
        Objects.requireNonNull(text, "text");
        if (structuredContent != null) {
            String trimmed = structuredContent.strip();
            if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
                throw new IllegalArgumentException("structuredContent must be a JSON object, was: "
                        + trimmed.substring(0, Math.min(trimmed.length(), 40)));
            }
        }
    }

    /**
     * A result without structured content.
     *
     * @param text the content the model reads
     * @param isError true when the call failed
     */
    public ToolResult(String text, boolean isError) {
        this(text, isError, null);
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
     * A successful result that also carries structured content.
     *
     * @param text what the model reads
     * @param structuredContent the same result as the text of a JSON object
     * @return the result
     * @throws IllegalArgumentException if {@code structuredContent} is not the text of a JSON object
     */
    public static ToolResult ok(String text, String structuredContent) {
        return new ToolResult(text, false, Objects.requireNonNull(structuredContent, "structuredContent"));
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

    /** @return true when the result carries structured content */
    public boolean hasStructuredContent() {
        return structuredContent != null;
    }
}
