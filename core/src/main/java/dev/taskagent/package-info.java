/**
 * The root of the library's exceptions ({@link dev.taskagent.TaskAgentException}) and the error a run
 * reports instead of throwing ({@link dev.taskagent.RunError}). <p>Tier: API.
 */
package dev.taskagent;
