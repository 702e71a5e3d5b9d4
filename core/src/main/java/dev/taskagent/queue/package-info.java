/**
 * The shared work queue: {@code signup_for_task}, {@code move_task} and the single-step tools they replace, over a Java API. <p>Tier: API.
 */
package dev.taskagent.queue;
