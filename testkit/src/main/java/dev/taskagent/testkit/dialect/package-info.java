/**
 * {@link dev.taskagent.testkit.dialect.TodoToolsSuite}: the todo-list dialect's behaviour, run on any store.
 * <p>Tier: API.
 */
package dev.taskagent.testkit.dialect;
