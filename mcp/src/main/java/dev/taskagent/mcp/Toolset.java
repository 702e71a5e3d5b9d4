package dev.taskagent.mcp;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The groups of tools a {@link TaskMcpServer} can serve. A server serves the union of the toolsets it is
 * given; a tool that is in two of them is served once.
 */
public enum Toolset {
    /**
     * The full queue toolset: {@code signup_for_task}, {@code complete_task}, {@code heartbeat_task},
     * {@code move_task}, {@code create_task}, {@code get_task}, {@code update_task}, {@code get_my_queue},
     * {@code add_comment}, {@code add_link}, {@code archive_task}, {@code cancel_task}, {@code search_tasks},
     * {@code list_dead_letters}.
     */
    QUEUE("queue"),
    /**
     * The lean toolset of an agent that only works tasks: {@code signup_for_task}, {@code complete_task},
     * {@code move_task}, {@code add_comment}, {@code get_task}.
     */
    WORKER("worker"),
    /**
     * {@code list_user_tasks} and {@code run_user_task} over a project's {@code .agent/Taskfile.yml}. They
     * run commands on the server's machine: served only when asked for, with a project directory.
     */
    TASKFILE("taskfile"),
    /** Read-only views: {@code list_tasks} (a session's tasks in order) and {@code get_task_with_steps}. */
    TASKS("tasks"),
    /**
     * The work graph, to serve beside {@link #QUEUE}: {@code add_dependency}, {@code remove_dependency} and
     * {@code create_task_tree} (a parent and its subtasks with the waits between them in one call).
     */
    GRAPH("graph"),
    /**
     * The todo-list dialect of coding agents, {@code TodoWrite} and {@code TodoRead}, on the queue's session
     * ({@link dev.taskagent.dialect.TodoTools}).
     */
    TODO("todo"),
    /**
     * The task-list dialect of Claude Code, {@code TaskCreate}, {@code TaskGet}, {@code TaskUpdate} and {@code
     * TaskList}, with dependencies and owners, on the queue's session ({@link
     * dev.taskagent.dialect.ClaudeTaskTools}).
     */
    CLAUDE_TASKS("claude-tasks");

    private final String wireName;

    Toolset(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name used on the command line, e.g. {@code queue} */
    public String wireName() {
        return wireName;
    }

    /**
     * Looks a toolset up by its command-line name.
     *
     * @param name e.g. {@code worker}; case is ignored
     * @return the toolset
     * @throws IllegalArgumentException if there is none of that name; the message lists the names
     */
    public static Toolset fromWireName(String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(toolset -> toolset.wireName.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown toolset '" + name + "'; choose from "
                        + Arrays.stream(values()).map(Toolset::wireName).collect(Collectors.joining(", "))));
    }
}
