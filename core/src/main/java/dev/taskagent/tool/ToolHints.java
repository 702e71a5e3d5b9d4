package dev.taskagent.tool;

import java.util.Objects;

/**
 * What a tool does to the world, as hints a client shows or acts on: asking the user before a destructive
 * call, retrying an idempotent one. MCP serves them as a tool's {@code annotations}, under the same names.
 * Each hint says what the tool really does:
 *
 * <ul>
 *   <li><b>read-only</b>: changes nothing;
 *   <li><b>destructive</b>: may overwrite or hide something that the tools cannot bring back (a replaced
 *       description, an archived task, whatever a command does); adding a comment or a claim is not;
 *   <li><b>idempotent</b>: the same call again changes nothing more (a repeated {@code complete_task} is
 *       refused because the claim is gone);
 *   <li><b>open world</b>: reaches beyond the task store (running commands, calling a web service).
 * </ul>
 *
 * <pre>{@code
 * ToolHints.readOnly("Get a task");
 * ToolHints.writing("Archive a task").destructive().idempotent();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param title a short human title of the tool, e.g. {@code Get a task}
 * @param readOnlyHint true when the tool changes nothing
 * @param destructiveHint true when the tool may overwrite or hide what cannot be brought back
 * @param idempotentHint true when the same call again changes nothing more
 * @param openWorldHint true when the tool reaches beyond the task store
 */
public record ToolHints(
        String title, boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint, boolean openWorldHint) {

    /**
     * Checks the invariants.
     *
     * @param title a short human title; not blank
     * @param readOnlyHint true when the tool changes nothing
     * @param destructiveHint true when the tool may overwrite or hide what cannot be brought back
     * @param idempotentHint true when the same call again changes nothing more
     * @param openWorldHint true when the tool reaches beyond the task store
     * @throws NullPointerException if title is null
     * @throws IllegalArgumentException if the title is blank, or a read-only tool is said to be destructive
     */
    public ToolHints {
        Objects.requireNonNull(title, "title");
        if (title.isBlank()) {
            throw new IllegalArgumentException("A tool's title must not be blank");
        }
        if (readOnlyHint && destructiveHint) {
            throw new IllegalArgumentException(
                    "Tool '" + title + "' cannot be both read-only and destructive; a read-only tool changes nothing");
        }
    }

    /**
     * Hints of a tool that changes nothing, and so is idempotent.
     *
     * @param title a short human title
     * @return read-only, idempotent, closed-world hints
     * @throws IllegalArgumentException if the title is blank
     */
    public static ToolHints readOnly(String title) {
        return new ToolHints(title, true, false, true, false);
    }

    /**
     * Hints of a tool that writes, but neither destroys, nor is idempotent, nor leaves the task store; add
     * what else is true with {@link #destructive()}, {@link #idempotent()} and {@link #openWorld()}.
     *
     * @param title a short human title
     * @return writing hints
     * @throws IllegalArgumentException if the title is blank
     */
    public static ToolHints writing(String title) {
        return new ToolHints(title, false, false, false, false);
    }

    /**
     * Marks the tool destructive.
     *
     * @return these hints, destructive
     * @throws IllegalArgumentException if these hints are read-only
     */
    public ToolHints destructive() {
        return new ToolHints(title, readOnlyHint, true, idempotentHint, openWorldHint);
    }

    /**
     * Marks the tool idempotent.
     *
     * @return these hints, idempotent
     */
    public ToolHints idempotent() {
        return new ToolHints(title, readOnlyHint, destructiveHint, true, openWorldHint);
    }

    /**
     * Marks the tool as reaching beyond the task store.
     *
     * @return these hints, open world
     */
    public ToolHints openWorld() {
        return new ToolHints(title, readOnlyHint, destructiveHint, idempotentHint, true);
    }
}
