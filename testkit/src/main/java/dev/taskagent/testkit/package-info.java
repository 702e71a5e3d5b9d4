/**
 * Test support for taskagent users and implementors: the {@code TaskStore} conformance kit, a scripted
 * {@code ChatModel} and a test clock. <p>Tier: API (for tests).
 */
package dev.taskagent.testkit;
