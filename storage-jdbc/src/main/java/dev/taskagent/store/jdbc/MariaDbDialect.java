package dev.taskagent.store.jdbc;

/** MariaDB 10.6 or later (the first with {@code SKIP LOCKED}). */
final class MariaDbDialect extends MySqlFamilyDialect {
    static final MariaDbDialect INSTANCE = new MariaDbDialect();

    private MariaDbDialect() {}

    @Override
    JdbcDialect id() {
        return JdbcDialect.MARIADB;
    }

    @Override
    String folder() {
        return "mariadb";
    }
}
