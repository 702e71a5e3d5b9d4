/**
 * The JDBC {@code TaskStore}: H2 (embedded default), PostgreSQL, MariaDB and MySQL. JDBC drivers are not
 * required here: they arrive through the application's {@code DataSource} or {@code DriverManager}.
 */
module dev.taskagent.store.jdbc {
    requires transitive dev.taskagent.core;
    requires transitive java.sql;

    exports dev.taskagent.store.jdbc;
}
