/**
 * {@link dev.taskagent.store.jdbc.JdbcTaskStore}: a {@code TaskStore} on a relational database (H2,
 * PostgreSQL, MariaDB, MySQL) that creates and migrates its own schema and claims tasks exactly once
 * across processes. <p>Tier: API ({@code JdbcTaskStore}, {@code JdbcDialect}); everything else in the
 * package is package-private.
 */
package dev.taskagent.store.jdbc;
