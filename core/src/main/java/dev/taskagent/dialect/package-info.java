/**
 * Toolsets in the shapes models are already trained on, mapped onto the store: {@link
 * dev.taskagent.dialect.TodoTools} speaks the {@code TodoWrite} / {@code TodoRead} dialect of coding
 * agents. <p>Tier: API.
 */
package dev.taskagent.dialect;
