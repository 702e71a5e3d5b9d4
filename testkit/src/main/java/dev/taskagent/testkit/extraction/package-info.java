/**
 * The behaviour suite of the extraction agent ({@code TaskAgent}) on a real store, run once per store by a
 * subclass. <p>Tier: API (for tests).
 */
package dev.taskagent.testkit.extraction;
