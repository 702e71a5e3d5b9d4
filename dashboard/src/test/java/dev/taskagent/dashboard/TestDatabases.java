package dev.taskagent.dashboard;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The databases the board's store tests run on: an in-memory H2 database always, and a schema of its own on
 * the test PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} names one (dropped when closed), so that
 * concurrent builds never touch each other's tables.
 */
final class TestDatabases {
    static final String POSTGRES_VARIABLE = "TASKAGENT_TEST_POSTGRES_URL";
    static final String MARIADB_VARIABLE = "TASKAGENT_TEST_MARIADB_URL";

    private TestDatabases() {}

    /** One database: its JDBC URL, and what drops it. */
    record Database(String name, String url, Drop drop) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            drop.run();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** What removes a database. */
    @FunctionalInterface
    interface Drop {
        void run() throws SQLException;
    }

    /** Every database configured: h2, postgresql and mariadb when their variables are set. */
    static List<String> all() {
        List<String> names = names();
        String url = System.getenv(MARIADB_VARIABLE);
        if (url != null && !url.isBlank()) {
            names.add("mariadb");
        }
        return names;
    }

    /** The names of the databases to run on: h2, and postgresql when configured. */
    static List<String> names() {
        List<String> names = new ArrayList<>(List.of("h2"));
        String url = System.getenv(POSTGRES_VARIABLE);
        if (url != null && !url.isBlank()) {
            names.add("postgresql");
        }
        return names;
    }

    static Database create(String name) throws SQLException {
        if (name.equals("h2")) {
            return new Database(name, "jdbc:h2:mem:board-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", () -> {});
        }
        if (name.equals("mariadb")) {
            String base = System.getenv(MARIADB_VARIABLE);
            String database = "ta_board_"
                    + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
            execute(base, "CREATE DATABASE " + database);
            int slash = base.indexOf('/', "jdbc:mariadb://".length());
            int query = base.indexOf('?', slash);
            String url = base.substring(0, slash + 1) + database + (query < 0 ? "" : base.substring(query));
            return new Database(name, url, () -> execute(base, "DROP DATABASE IF EXISTS " + database));
        }
        String base = System.getenv(POSTGRES_VARIABLE);
        String schema = "ta_board_" + System.currentTimeMillis() / 1000 + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        execute(base, "CREATE SCHEMA " + schema);
        String url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        return new Database(name, url, () -> execute(base, "DROP SCHEMA IF EXISTS " + schema + " CASCADE"));
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
