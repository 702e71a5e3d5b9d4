package dev.taskagent.mcp;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A schema of its own on the test PostgreSQL ({@code TASKAGENT_TEST_POSTGRES_URL}), dropped when closed,
 * so that the test's processes share one database without touching anyone else's tables.
 */
final class PostgresSchema implements AutoCloseable {
    static final String VARIABLE = "TASKAGENT_TEST_POSTGRES_URL";

    private final String baseUrl;
    private final String name;

    private PostgresSchema(String baseUrl, String name) {
        this.baseUrl = baseUrl;
        this.name = name;
    }

    static boolean configured() {
        String url = System.getenv(VARIABLE);
        return url != null && !url.isBlank();
    }

    static PostgresSchema create() throws SQLException {
        String baseUrl = System.getenv(VARIABLE);
        String name = "ta_mcp_" + System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        execute(baseUrl, "CREATE SCHEMA " + name);
        return new PostgresSchema(baseUrl, name);
    }

    /** A JDBC URL whose connections work in this schema. */
    String url() {
        return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + name;
    }

    @Override
    public void close() throws SQLException {
        execute(baseUrl, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
