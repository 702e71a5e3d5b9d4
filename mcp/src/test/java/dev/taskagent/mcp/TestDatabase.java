package dev.taskagent.mcp;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The test database servers: PostgreSQL ({@code TASKAGENT_TEST_POSTGRES_URL}) and MariaDB ({@code
 * TASKAGENT_TEST_MARIADB_URL}). Each hands out a database of its own (a schema on PostgreSQL, a database on
 * MariaDB), dropped when closed, so that a test's processes share one database without touching anyone
 * else's tables.
 */
enum TestDatabase {
    /** A schema of its own on the test PostgreSQL. */
    POSTGRES("TASKAGENT_TEST_POSTGRES_URL") {
        @Override
        String createSql(String name) {
            return "CREATE SCHEMA " + name;
        }

        @Override
        String dropSql(String name) {
            return "DROP SCHEMA IF EXISTS " + name + " CASCADE";
        }

        @Override
        String url(String baseUrl, String name) {
            return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + name;
        }
    },

    /** A database of its own on the test MariaDB. */
    MARIADB("TASKAGENT_TEST_MARIADB_URL") {
        @Override
        String createSql(String name) {
            return "CREATE DATABASE " + name;
        }

        @Override
        String dropSql(String name) {
            return "DROP DATABASE IF EXISTS " + name;
        }

        @Override
        String url(String baseUrl, String name) {
            int query = baseUrl.indexOf('?');
            String server = baseUrl.substring(0, baseUrl.lastIndexOf('/', query < 0 ? baseUrl.length() : query));
            return server + "/" + name + (query < 0 ? "" : baseUrl.substring(query));
        }
    };

    private final String variable;

    TestDatabase(String variable) {
        this.variable = variable;
    }

    abstract String createSql(String name);

    abstract String dropSql(String name);

    /** A JDBC URL whose connections work in the database of that name. */
    abstract String url(String baseUrl, String name);

    /** @return the environment variable that holds the server's JDBC URL */
    String variable() {
        return variable;
    }

    /** @return whether the server's URL is set */
    boolean configured() {
        String url = System.getenv(variable);
        return url != null && !url.isBlank();
    }

    /**
     * Creates a database of its own on the server.
     *
     * @return the database; closing it drops it
     */
    Own create() throws SQLException {
        String baseUrl = System.getenv(variable);
        String name = "ta_mcp_" + System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        execute(baseUrl, createSql(name));
        return new Own(this, baseUrl, name);
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * A database of a test's own.
     *
     * @param server its server
     * @param baseUrl the server's URL
     * @param name the schema or database
     */
    record Own(TestDatabase server, String baseUrl, String name) implements AutoCloseable {
        /** @return a JDBC URL whose connections work in this database */
        String url() {
            return server.url(baseUrl, name);
        }

        @Override
        public void close() throws SQLException {
            execute(baseUrl, server.dropSql(name));
        }
    }
}
