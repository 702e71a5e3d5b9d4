/**
 * The {@link dev.taskagent.store.TaskStore} SPI: transactions, reads, ordered inserts, version-guarded updates, appends, message links and the atomic claim, specified as numbered rules. <p>Tier: API and SPI (implement it for your own storage; prove it with {@code taskagent-testkit}).
 */
package dev.taskagent.store;
