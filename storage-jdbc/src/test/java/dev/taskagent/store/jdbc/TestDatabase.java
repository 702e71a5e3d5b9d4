package dev.taskagent.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The databases the JDBC store's tests run on, each handing out stores on a fresh, isolated schema: H2
 * always (in memory), PostgreSQL when {@code TASKAGENT_TEST_POSTGRES_URL} is set, MariaDB when {@code
 * TASKAGENT_TEST_MARIADB_URL} is set (CI sets both; then they run, never skip).
 *
 * <p>Usable by other modules' suites: {@code TestDatabase.POSTGRES.newStore(clock)}. A PostgreSQL store
 * gets a schema of its own ({@code CREATE SCHEMA}), a MariaDB store a database of its own ({@code CREATE
 * DATABASE}); both are served by one small pool per database and JVM, so a test that forgets to close its
 * store leaks no connection. Schemas are named {@code ta_test_<epoch seconds>_<random>}: those of this JVM
 * are dropped when it exits (within a time budget), and those older than an hour (left by a killed or
 * hurried run) when the next run starts.
 *
 * <p>Thread-safe.
 */
public enum TestDatabase {
    /** H2 in memory: a new database per store, gone when the store closes. */
    H2(null) {
        @Override
        public JdbcTaskStore newStore(Clock clock) {
            return JdbcTaskStore.builder("jdbc:h2:mem:" + newSchemaName())
                    .clock(clock)
                    .build();
        }

        @Override
        DataSource newDataSource() {
            // Kept until the JVM exits: a DataSource store holds no connection between units of work.
            return new UrlDataSource(newUrl());
        }

        @Override
        String newUrl() {
            return "jdbc:h2:mem:" + newSchemaName() + ";DB_CLOSE_DELAY=-1";
        }

        @Override
        void createSchema(Connection connection, String schema) {
            throw new UnsupportedOperationException();
        }

        @Override
        void dropSchema(Connection connection, String schema) {
            throw new UnsupportedOperationException();
        }

        @Override
        List<String> schemas(Connection connection) {
            return List.of();
        }

        @Override
        void useSchema(Connection connection, String schema) {
            throw new UnsupportedOperationException();
        }
    },

    /** PostgreSQL: a schema per store. */
    POSTGRES("TASKAGENT_TEST_POSTGRES_URL") {
        @Override
        void createSchema(Connection connection, String schema) throws SQLException {
            execute(connection, "CREATE SCHEMA " + schema);
        }

        @Override
        void dropSchema(Connection connection, String schema) throws SQLException {
            execute(connection, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }

        @Override
        List<String> schemas(Connection connection) throws SQLException {
            return names(connection, "SELECT nspname FROM pg_namespace WHERE nspname LIKE '" + PREFIX + "%'");
        }

        @Override
        void useSchema(Connection connection, String schema) throws SQLException {
            connection.setSchema(schema);
        }

        @Override
        String newUrl() {
            String schema = newSchema();
            return url() + (url().contains("?") ? "&" : "?") + "currentSchema=" + schema;
        }
    },

    /** MariaDB: a database per store. */
    MARIADB("TASKAGENT_TEST_MARIADB_URL") {
        @Override
        void createSchema(Connection connection, String schema) throws SQLException {
            execute(connection, "CREATE DATABASE " + schema);
        }

        @Override
        void dropSchema(Connection connection, String schema) throws SQLException {
            execute(connection, "DROP DATABASE IF EXISTS " + schema);
        }

        @Override
        List<String> schemas(Connection connection) throws SQLException {
            return names(connection, "SHOW DATABASES LIKE '" + PREFIX + "%'");
        }

        @Override
        void useSchema(Connection connection, String schema) throws SQLException {
            connection.setCatalog(schema);
        }

        @Override
        String newUrl() {
            String schema = newSchema();
            // jdbc:mariadb://host:port/database?options: swap the database for the fresh one.
            String base = url();
            int query = base.indexOf('?');
            String options = query < 0 ? "" : base.substring(query);
            String address = query < 0 ? base : base.substring(0, query);
            int slash = address.indexOf('/', "jdbc:mariadb://".length());
            return (slash < 0 ? address : address.substring(0, slash)) + "/" + schema + options;
        }
    };

    private static final String PREFIX = "ta_test_";
    private static final long STALE_SECONDS = 3600;
    private static final int POOL_SIZE = 20;
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final int DROPPERS = 4;
    private static final Duration DROP_BUDGET = Duration.ofSeconds(15);

    private final String environmentVariable;
    private HikariDataSource pool; // guarded by this
    private final List<String> created = new ArrayList<>(); // guarded by this

    TestDatabase(String environmentVariable) {
        this.environmentVariable = environmentVariable;
    }

    /**
     * Tells whether tests can run on this database here.
     *
     * @return true for H2; for the others, true when their URL variable is set
     */
    public boolean isConfigured() {
        return environmentVariable == null || !url().isBlank();
    }

    /**
     * Opens a store on a fresh, empty schema of this database.
     *
     * @param clock the store's clock
     * @return the store; closing it is welcome but not required
     * @throws IllegalStateException if the database is not configured
     */
    public JdbcTaskStore newStore(Clock clock) {
        return JdbcTaskStore.builder(newDataSource()).clock(clock).build();
    }

    /** @return all databases configured here, H2 first */
    public static Stream<TestDatabase> configured() {
        return Stream.of(values()).filter(TestDatabase::isConfigured);
    }

    /** A data source on a fresh, empty schema (no store yet). */
    DataSource newDataSource() {
        String schema = newSchema();
        return new SchemaDataSource(pool(), schema, this);
    }

    /** A JDBC URL of a fresh, empty schema, for stores opened with a URL (their own connections). */
    abstract String newUrl();

    abstract void createSchema(Connection connection, String schema) throws SQLException;

    abstract void dropSchema(Connection connection, String schema) throws SQLException;

    abstract List<String> schemas(Connection connection) throws SQLException;

    abstract void useSchema(Connection connection, String schema) throws SQLException;

    /** The URL from the environment. */
    String url() {
        String value = environmentVariable == null ? null : System.getenv(environmentVariable);
        return value == null ? "" : value.strip();
    }

    static String newSchemaName() {
        return PREFIX + System.currentTimeMillis() / 1000 + "_"
                + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + COUNTER.incrementAndGet();
    }

    /** Creates a fresh schema and remembers it for the drop at exit. */
    String newSchema() {
        String schema = newSchemaName().toLowerCase(Locale.ROOT);
        try (Connection connection = pool().getConnection()) {
            createSchema(connection, schema);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create test schema " + schema + " on " + this, e);
        }
        synchronized (this) {
            created.add(schema);
        }
        return schema;
    }

    private synchronized HikariDataSource pool() {
        if (!isConfigured()) {
            throw new IllegalStateException(
                    this + " is not configured: set " + environmentVariable + " to a JDBC URL to test on it");
        }
        if (pool == null) {
            dropStaleSchemas();
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url());
            config.setPoolName("taskagent-test-" + name().toLowerCase(Locale.ROOT));
            config.setMaximumPoolSize(POOL_SIZE);
            config.setMinimumIdle(0);
            config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
            pool = new HikariDataSource(config);
            Runtime.getRuntime().addShutdownHook(new Thread(this::dropCreatedSchemas, "drop-test-schemas-" + name()));
        }
        return pool;
    }

    private void dropStaleSchemas() {
        long now = System.currentTimeMillis() / 1000;
        try (Connection connection = DriverManager.getConnection(url())) {
            for (String schema : schemas(connection)) {
                String[] parts = schema.substring(PREFIX.length()).split("_");
                if (parts.length >= 2 && parts[0].matches("\\d+") && now - Long.parseLong(parts[0]) > STALE_SECONDS) {
                    dropSchema(connection, schema);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not connect to " + this + " at " + url(), e);
        }
    }

    /**
     * Drops the schemas this JVM created, four at a time and for at most {@link #DROP_BUDGET}: the JVM is
     * exiting, and what is left is dropped as stale by a later run.
     */
    private void dropCreatedSchemas() {
        List<String> schemas;
        synchronized (this) {
            schemas = List.copyOf(created);
            if (pool != null) {
                pool.close();
            }
        }
        ExecutorService droppers = Executors.newFixedThreadPool(DROPPERS);
        AtomicInteger next = new AtomicInteger();
        long deadline = System.nanoTime() + DROP_BUDGET.toNanos();
        for (int dropper = 0; dropper < DROPPERS; dropper++) {
            droppers.execute(() -> {
                try (Connection connection = DriverManager.getConnection(url())) {
                    for (int index = next.getAndIncrement();
                            index < schemas.size() && System.nanoTime() < deadline;
                            index = next.getAndIncrement()) {
                        dropSchema(connection, schemas.get(index));
                    }
                } catch (SQLException e) {
                    System.err.println("Could not drop the test schemas of " + this + ": " + e);
                }
            });
        }
        droppers.shutdown();
        try {
            droppers.awaitTermination(DROP_BUDGET.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> names(Connection connection, String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    /** Connections of the shared pool, switched to one schema while they are borrowed. */
    private static final class SchemaDataSource extends SimpleDataSource {
        private final DataSource pool;
        private final String schema;
        private final TestDatabase database;

        SchemaDataSource(DataSource pool, String schema, TestDatabase database) {
            this.pool = pool;
            this.schema = schema;
            this.database = database;
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = pool.getConnection();
            try {
                database.useSchema(connection, schema);
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
            return connection;
        }

        @Override
        public String toString() {
            return "test schema " + schema + " on " + database;
        }
    }

    /** A new connection from {@link DriverManager} for every call. */
    private static final class UrlDataSource extends SimpleDataSource {
        private final String url;

        UrlDataSource(String url) {
            this.url = url;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url);
        }

        @Override
        public String toString() {
            return url;
        }
    }

    /** The parts of {@link DataSource} the store does not use. */
    private abstract static class SimpleDataSource implements DataSource {

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("credentials come from the URL");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
