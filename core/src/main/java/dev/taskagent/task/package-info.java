/**
 * The task model: {@link dev.taskagent.task.Task}, its status, comments, links and the value types used to create and change tasks. <p>Tier: API.
 */
package dev.taskagent.task;
