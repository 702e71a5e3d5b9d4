package dev.taskagent.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP annotations of every tool the server can serve, in one table. They are hints a client shows or
 * acts on (asking the user before a destructive call, retrying an idempotent one), so each is what the
 * tool really does:
 *
 * <ul>
 *   <li><b>read-only</b>: changes nothing;
 *   <li><b>destructive</b>: may overwrite or hide something that the tools cannot bring back (a replaced
 *       description, an archived task, whatever a command does); adding a comment or a claim is not;
 *   <li><b>idempotent</b>: the same call again changes nothing more (a repeated {@code complete_task} or
 *       {@code move_task} is refused because the claim or the assignment is gone);
 *   <li><b>open world</b>: reaches beyond the task store (only {@code run_user_task}, which runs commands).
 * </ul>
 *
 * <p>A tool without an entry is refused when the server is built, so that no tool is served with guessed
 * hints. Thread-safe (immutable).
 */
final class ToolHints {
    private record Hint(String title, boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {}

    private static final Map<String, Hint> HINTS = Map.ofEntries(
            Map.entry("signup_for_task", new Hint("Claim my next task", false, false, false, false)),
            Map.entry("complete_task", new Hint("Complete a claimed task", false, false, true, false)),
            Map.entry("heartbeat_task", new Hint("Renew a claim's lease", false, false, true, false)),
            Map.entry("move_task", new Hint("Hand a task over", false, false, true, false)),
            Map.entry("create_task", new Hint("Create a task", false, false, false, false)),
            Map.entry("get_task", new Hint("Get a task", true, false, true, false)),
            Map.entry("update_task", new Hint("Update a task", false, true, true, false)),
            Map.entry("get_my_queue", new Hint("List an agent's queue", true, false, true, false)),
            Map.entry("add_comment", new Hint("Comment on a task", false, false, false, false)),
            Map.entry("add_link", new Hint("Link a task to a URL", false, false, false, false)),
            Map.entry("archive_task", new Hint("Archive a task", false, true, true, false)),
            Map.entry("list_tasks", new Hint("List a session's tasks", true, false, true, false)),
            Map.entry("get_task_with_steps", new Hint("Get a task with its steps", true, false, true, false)),
            Map.entry("list_user_tasks", new Hint("List the project's user tasks", true, false, true, false)),
            Map.entry("run_user_task", new Hint("Run a project's user task", false, true, false, true)));

    private ToolHints() {}

    /**
     * Returns the annotations of a tool.
     *
     * @param toolName the tool's name
     * @return its annotations, or empty for a tool the table does not know
     */
    static Optional<McpSchema.ToolAnnotations> annotations(String toolName) {
        Hint hint = HINTS.get(toolName);
        if (hint == null) {
            return Optional.empty();
        }
        return Optional.of(McpSchema.ToolAnnotations.builder()
                .title(hint.title())
                .readOnlyHint(hint.readOnly())
                // The protocol reads the destructive and idempotent hints only for tools that write.
                .destructiveHint(hint.readOnly() ? null : hint.destructive())
                .idempotentHint(hint.idempotent())
                .openWorldHint(hint.openWorld())
                .build());
    }
}
