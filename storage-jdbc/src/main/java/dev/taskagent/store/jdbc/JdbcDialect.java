package dev.taskagent.store.jdbc;

/**
 * The databases {@link JdbcTaskStore} speaks. The store detects the dialect from the database's
 * metadata; name one with {@link JdbcTaskStore.Builder#dialect(JdbcDialect)} to skip detection, for
 * example on a database that reports itself differently but speaks one of these.
 *
 * <p>Immutable and thread-safe.
 */
public enum JdbcDialect {
    /**
     * H2 2.x, the embedded default ({@code jdbc:h2:file:…}). A claim reads the next candidates from the
     * claim index and takes the first whose conditional UPDATE (still pending, same assignee, not
     * archived) changes one row; H2's {@code SKIP LOCKED} is not used because with {@code ORDER BY … LIMIT}
     * it locks every matching row.
     */
    H2("H2 2.x"),
    /**
     * PostgreSQL 12 or later: the scale-out target, shared by many JVMs on many hosts. A claim is one
     * {@code UPDATE … WHERE id = (SELECT … ORDER BY … LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING …}, which
     * outside a unit of work ({@code JdbcTaskStore.claimNext}) commits on its own.
     */
    POSTGRESQL("PostgreSQL 12 or later"),
    /**
     * MariaDB 10.6 or later (the first with {@code SKIP LOCKED}). A claim is {@code SELECT … FOR UPDATE SKIP
     * LOCKED} on an index that serves its ORDER BY exactly, then an UPDATE of the row it locked.
     */
    MARIADB("MariaDB 10.6 or later"),
    /**
     * MySQL 8.0.17 or later (the first with the {@code utf8mb4_0900_bin} collation), claimed like {@link
     * #MARIADB}. Not tested by this project's CI, which has no MySQL server.
     */
    MYSQL("MySQL 8.0.17 or later");

    private final String supportedVersions;

    JdbcDialect(String supportedVersions) {
        this.supportedVersions = supportedVersions;
    }

    /**
     * Names the versions of this database that the store supports, for messages.
     *
     * @return for example {@code "PostgreSQL 12 or later"}
     */
    public String supportedVersions() {
        return supportedVersions;
    }

    /** The SQL this dialect speaks. */
    Dialect implementation() {
        return switch (this) {
            case H2 -> H2Dialect.INSTANCE;
            case POSTGRESQL -> PostgresDialect.INSTANCE;
            case MARIADB -> MariaDbDialect.INSTANCE;
            case MYSQL -> MySqlDialect.INSTANCE;
        };
    }
}
