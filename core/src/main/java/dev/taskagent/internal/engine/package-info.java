/**
 * The machinery the features share: the loop that asks a model and runs the tools it calls, and the runner
 * of a unit of work in a store transaction that publishes its events once it committed. It sits above
 * {@code llm}, {@code tool}, {@code observe}, {@code store} and {@code event}, and below the features
 * ({@code extraction}, {@code steps}, {@code queue}), so that {@code dev.taskagent.internal} stays a leaf
 * every package may use.
 *
 * <p>Tier: internal; not exported, may change without notice.
 */
package dev.taskagent.internal.engine;
