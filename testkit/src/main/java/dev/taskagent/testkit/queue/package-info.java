/**
 * The behaviour suite of the shared work queue ({@code TaskQueue} and its tools) on a real store, run once
 * per store by a subclass. <p>Tier: API (for tests).
 */
package dev.taskagent.testkit.queue;
