package dev.taskagent.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * A fresh, empty database for one benchmark trial, behind a HikariCP pool, dropped on close: a new H2
 * file under {@code target/}, or a new {@code bench_…} schema (PostgreSQL) or database (MariaDB) on the
 * servers named by {@code TASKAGENT_TEST_POSTGRES_URL} / {@code TASKAGENT_TEST_MARIADB_URL}.
 *
 * <p>The H2 file is opened with {@code WRITE_DELAY=0}, the durable configuration the JDBC store gives
 * H2: every commit is written to the file before it returns. The store and the floor share the pool, so
 * both pay for it and their ratio compares like with like.
 */
final class BenchDatabase implements AutoCloseable {
    static final String POSTGRES_URL_VARIABLE = "TASKAGENT_TEST_POSTGRES_URL";
    static final String MARIADB_URL_VARIABLE = "TASKAGENT_TEST_MARIADB_URL";
    static final String DEFAULT_POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    static final String DEFAULT_MARIADB_URL = "jdbc:mariadb://127.0.0.1:3306/test?user=root&password=";

    /** H2's default would keep commits in memory for up to 500 ms: neither durable nor what the store runs. */
    static final String H2_SETTINGS = ";WRITE_DELAY=0";

    /** Where H2 files go: {@code benchmarks/target} when run from the project root, else {@code target}. */
    static final String WORK_DIRECTORY_PROPERTY = "taskagent.bench.workdir";

    /** The databases the claim benchmarks run on. */
    enum Kind {
        H2,
        POSTGRES,
        MARIADB;

        static Kind of(String name) {
            try {
                return valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Unknown database '" + name + "'; use h2, postgres or mariadb", e);
            }
        }
    }

    private final Kind kind;
    private final String name;
    private final String adminUrl;
    private final Path h2Directory;
    private final String url;
    private final HikariDataSource dataSource;

    private BenchDatabase(Kind kind, String name, String adminUrl, Path h2Directory, String url, int poolSize) {
        this.kind = kind;
        this.name = name;
        this.adminUrl = adminUrl;
        this.h2Directory = h2Directory;
        this.url = url;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setPoolName(name);
        if (kind == Kind.MARIADB) {
            // As the JDBC store's documentation advises: its units of work run at READ COMMITTED, and a
            // pool that starts there spares a round trip per transaction. The floor runs at it too.
            config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        }
        this.dataSource = new HikariDataSource(config);
    }

    /**
     * Creates a fresh database.
     *
     * @param kind which server
     * @param purpose a short word for the name, e.g. {@code claim}
     * @param poolSize the pool's size: the benchmark's thread count
     * @return the database, empty
     */
    static BenchDatabase create(Kind kind, String purpose, int poolSize) {
        String name = "bench_" + purpose + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        switch (kind) {
            case H2 -> {
                Path directory = workDirectory().resolve("h2").resolve(name).toAbsolutePath();
                return new BenchDatabase(
                        kind, name, null, directory, "jdbc:h2:file:" + directory.resolve("db") + H2_SETTINGS, poolSize);
            }
            case POSTGRES -> {
                String url = url(POSTGRES_URL_VARIABLE, DEFAULT_POSTGRES_URL);
                execute(url, "CREATE SCHEMA " + name);
                return new BenchDatabase(kind, name, url, null, withParameter(url, "currentSchema", name), poolSize);
            }
            case MARIADB -> {
                String url = url(MARIADB_URL_VARIABLE, DEFAULT_MARIADB_URL);
                execute(url, "CREATE DATABASE " + name);
                return new BenchDatabase(kind, name, url, null, withDatabase(url, name), poolSize);
            }
            default -> throw new AssertionError(kind);
        }
    }

    /** @return the pool on the fresh database */
    DataSource dataSource() {
        return dataSource;
    }

    /** @return the JDBC URL of the fresh database, for connections outside the pool */
    String jdbcUrl() {
        return url;
    }

    /** @return which server */
    Kind kind() {
        return kind;
    }

    /** @return the product name and version the driver reports, for the report */
    String productVersion() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName() + " "
                    + connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the version of " + this + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
        switch (kind) {
            case H2 -> deleteDirectory(h2Directory);
            case POSTGRES -> execute(adminUrl, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
            case MARIADB -> execute(adminUrl, "DROP DATABASE IF EXISTS " + name);
        }
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " " + name;
    }

    static Path workDirectory() {
        String configured = System.getProperty(WORK_DIRECTORY_PROPERTY);
        if (configured != null) {
            return Paths.get(configured);
        }
        Path projectTarget = Paths.get("benchmarks", "target");
        return Files.isDirectory(projectTarget) ? projectTarget : Paths.get("target");
    }

    private static String url(String variable, String defaultUrl) {
        String url = System.getenv(variable);
        return url == null || url.isBlank() ? defaultUrl : url;
    }

    private static void execute(String url, String sql) {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "'" + sql + "' failed on " + url.replaceAll("password=[^&]*", "password=…")
                            + ": " + e.getMessage() + ". Is the server running? Set " + POSTGRES_URL_VARIABLE + " or "
                            + MARIADB_URL_VARIABLE + " to reach another one.",
                    e);
        }
    }

    /** Adds a query parameter to a JDBC URL. */
    static String withParameter(String url, String parameter, String value) {
        return url + (url.contains("?") ? "&" : "?") + parameter + "=" + value;
    }

    /** Replaces the database of a {@code jdbc:mariadb://host:port/database?…} URL. */
    static String withDatabase(String url, String database) {
        int hostStart = url.indexOf("//");
        if (hostStart < 0) {
            throw new IllegalArgumentException("Expected a URL like jdbc:mariadb://host:port/database, got " + url);
        }
        int query = url.indexOf('?', hostStart);
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        String rest = query < 0 ? "" : url.substring(query);
        int pathStart = beforeQuery.indexOf('/', hostStart + 2);
        String server = pathStart < 0 ? beforeQuery : beforeQuery.substring(0, pathStart);
        return server + "/" + database + rest;
    }

    private static void deleteDirectory(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the benchmark database " + directory, e);
        }
    }
}
