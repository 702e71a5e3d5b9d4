/**
 * {@link dev.taskagent.store.inmemory.InMemoryTaskStore}: a thread-safe {@code TaskStore} held in memory,
 * for tests, demos and single-process use. <p>Tier: API.
 */
package dev.taskagent.store.inmemory;
