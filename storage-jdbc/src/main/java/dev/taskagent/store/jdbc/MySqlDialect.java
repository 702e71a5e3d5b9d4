package dev.taskagent.store.jdbc;

/**
 * MySQL 8.0.17 or later. Same SQL as MariaDB; its own schema folder because the collation that compares
 * ids exactly is named differently ({@code utf8mb4_0900_bin}).
 */
final class MySqlDialect extends MySqlFamilyDialect {
    static final MySqlDialect INSTANCE = new MySqlDialect();

    private MySqlDialect() {}

    @Override
    JdbcDialect id() {
        return JdbcDialect.MYSQL;
    }

    @Override
    String folder() {
        return "mysql";
    }
}
