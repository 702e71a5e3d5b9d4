/**
 * The JDBC {@code TaskStore}: H2 (embedded default), PostgreSQL, MariaDB and MySQL. JDBC drivers are not
 * required here: they arrive through the application's {@code DataSource} or {@code DriverManager}.
 *
 * <p>The PostgreSQL driver is optional: with it, the event feed wakes on {@code NOTIFY} rather than on its
 * next poll. It is an automatic module, hence the suppressed warning.
 */
@SuppressWarnings("requires-automatic")
module dev.taskagent.store.jdbc {
    requires transitive dev.taskagent.core;
    requires transitive java.sql;
    requires com.fasterxml.jackson.core;
    requires static org.postgresql.jdbc;

    exports dev.taskagent.store.jdbc;
}
