package dev.taskagent.mcp;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A database of its own on the test MariaDB ({@code TASKAGENT_TEST_MARIADB_URL}), dropped when closed, so
 * that the test's processes share one database without touching anyone else's tables.
 */
final class MariaDbDatabase implements AutoCloseable {
    static final String VARIABLE = "TASKAGENT_TEST_MARIADB_URL";

    private final String baseUrl;
    private final String name;

    private MariaDbDatabase(String baseUrl, String name) {
        this.baseUrl = baseUrl;
        this.name = name;
    }

    static boolean configured() {
        String url = System.getenv(VARIABLE);
        return url != null && !url.isBlank();
    }

    static MariaDbDatabase create() throws SQLException {
        String baseUrl = System.getenv(VARIABLE);
        String name = "ta_mcp_" + System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        execute(baseUrl, "CREATE DATABASE " + name);
        return new MariaDbDatabase(baseUrl, name);
    }

    /** A JDBC URL whose connections work in this database. */
    String url() {
        int query = baseUrl.indexOf('?');
        String server = baseUrl.substring(0, baseUrl.lastIndexOf('/', query < 0 ? baseUrl.length() : query));
        return server + "/" + name + (query < 0 ? "" : baseUrl.substring(query));
    }

    @Override
    public void close() throws SQLException {
        execute(baseUrl, "DROP DATABASE IF EXISTS " + name);
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
