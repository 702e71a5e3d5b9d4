/**
 * Helpers for {@code TaskStore} implementations: the argument checks and text limits every store
 * applies (so that every store accepts and refuses the same input), and the task snapshots a store
 * builds and changes. <p>Tier: SPI, for store authors; applications do not need it.
 */
package dev.taskagent.store.spi;
