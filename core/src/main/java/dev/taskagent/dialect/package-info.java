/**
 * Toolsets in the shapes models are already trained on, mapped onto the store: {@link
 * dev.taskagent.dialect.TodoTools} speaks the {@code TodoWrite} / {@code TodoRead} dialect of coding
 * agents, {@link dev.taskagent.dialect.ClaudeTaskTools} the {@code TaskCreate} / {@code TaskGet} / {@code
 * TaskUpdate} / {@code TaskList} dialect of Claude Code. Their listings ({@code TodoRead}, {@code TaskList}) take
 * optional {@code limit} and {@code cursor} arguments and answer a long session a page at a time, each page within
 * the toolset's result budget. <p>Tier: API.
 */
package dev.taskagent.dialect;
