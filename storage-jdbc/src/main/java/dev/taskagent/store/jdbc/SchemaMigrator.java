package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and migrates the store's schema from the versioned {@code .sql} resources of a dialect,
 * recording each applied version in {@code taskagent_schema_version}. Safe when several stores start at
 * once: migrations of one JVM are serialised by a lock, those of several processes by the database's own
 * lock (PostgreSQL advisory lock, MariaDB/MySQL {@code GET_LOCK}); H2 has none that spans DDL, so there
 * every statement is idempotent and a migration that fails on another process's half-done work runs again.
 *
 * <p>Thread-safe (stateless).
 */
final class SchemaMigrator {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrator.class);

    /** The migrations, oldest first; each dialect folder holds a file of each name. */
    static final List<String> MIGRATIONS = List.of(
            "V1__tasks.sql",
            "V2__leases.sql",
            "V3__events.sql",
            "V4__claim_token.sql",
            "V5__children_text.sql",
            "V6__task_documents.sql",
            "V7__work_graph.sql",
            "V8__search.sql",
            "V9__search_side.sql",
            "V10__queue_semantics.sql",
            "V11__append_requests.sql",
            "V12__dead_letters.sql");

    /** The migration whose script is followed by a data step in Java and a second script. */
    static final String DOCUMENTS = "V6__task_documents.sql";

    /** The second script of {@link #DOCUMENTS}, run once every task row holds its documents. */
    static final String DOCUMENTS_FINISH = "V6__task_documents_finish.sql";

    /** The migration whose script is followed by filling the search table in Java and a second script. */
    static final String SEARCH_SIDE = "V9__search_side.sql";

    /** The second script of {@link #SEARCH_SIDE}, run once every task has its search row. */
    static final String SEARCH_SIDE_FINISH = "V9__search_side_finish.sql";

    /**
     * How long a migration that failed is tried again: H2 has no lock that spans its DDL (every DDL
     * statement commits), so processes that start on one empty H2 database at once run the same idempotent
     * scripts side by side, and one of them may fail on the other's half-done work; it runs them again.
     */
    static final Duration RETRY_WITHIN = Duration.ofSeconds(60);

    /** How many times a migration runs at most; a failure that is no race fails them all, so it is thrown soon. */
    static final int MAX_ATTEMPTS = 6;

    /** Created before any migration runs; not versioned itself. */
    static final String VERSION_TABLE_SCRIPT = "schema_version.sql";

    static final String RESOURCE_ROOT = "/dev/taskagent/store/jdbc/db/";

    private static final ReentrantLock JVM_LOCK = new ReentrantLock();

    private SchemaMigrator() {}

    /** @return the newest schema version this library knows */
    static int latestVersion() {
        return version(MIGRATIONS.get(MIGRATIONS.size() - 1));
    }

    /**
     * Brings the schema to the latest version.
     *
     * @param connection a connection of its own; left in auto-commit mode
     * @param dialect the database's dialect
     * @param now the time recorded for applied versions
     * @return the schema version the database was at before
     */
    static int migrate(Connection connection, Dialect dialect, Instant now) throws SQLException {
        long deadline = System.nanoTime() + RETRY_WITHIN.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                return migrateOnce(connection, dialect, now);
            } catch (SQLException e) {
                if (attempt == MAX_ATTEMPTS || System.nanoTime() - deadline >= 0 || JdbcSupport.connectionLost(e)) {
                    throw e;
                }
                LOG.info(
                        "Migrating the taskagent schema failed ({}); another process may be migrating it at the"
                                + " same time: trying again (attempt {})",
                        e.getMessage(),
                        attempt + 1);
                LockSupport.parkNanos(
                        ThreadLocalRandom.current().nextLong(20, 200) * 1_000_000L * Math.min(attempt, 5));
            }
        }
    }

    private static int migrateOnce(Connection connection, Dialect dialect, Instant now) throws SQLException {
        JVM_LOCK.lock();
        try {
            connection.setAutoCommit(true);
            dialect.lockSchema(connection);
            int previous;
            try {
                connection.setAutoCommit(false);
                previous = migrateLocked(connection, dialect, now);
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection);
                try {
                    connection.setAutoCommit(true);
                    dialect.unlockSchema(connection);
                } catch (SQLException unlockFailure) {
                    e.addSuppressed(unlockFailure);
                }
                throw e;
            }
            connection.setAutoCommit(true);
            dialect.unlockSchema(connection);
            return previous;
        } finally {
            JVM_LOCK.unlock();
        }
    }

    private static int migrateLocked(Connection connection, Dialect dialect, Instant now) throws SQLException {
        run(connection, dialect, VERSION_TABLE_SCRIPT);
        connection.commit();
        int current = currentVersion(connection);
        int latest = latestVersion();
        if (current > latest) {
            throw new TaskStoreException("The taskagent schema in this database is at version " + current
                    + ", newer than this taskagent-storage-jdbc knows (up to " + latest + "). Upgrade"
                    + " taskagent-storage-jdbc to the version that wrote it, or give the store a schema of its own.");
        }
        for (String migration : MIGRATIONS) {
            int version = version(migration);
            if (version > current) {
                run(connection, dialect, migration);
                connection.commit();
                if (migration.equals(DOCUMENTS)) {
                    long moved = DocumentMigration.run(connection);
                    if (moved > 0) {
                        LOG.info(
                                "Moved the progresses, preferences, comments and links of {} tasks into their rows",
                                moved);
                    }
                    run(connection, dialect, DOCUMENTS_FINISH);
                }
                if (migration.equals(SEARCH_SIDE)) {
                    long written = SearchMigration.run(connection, dialect);
                    if (written > 0) {
                        LOG.info("Wrote the search text of {} tasks into {}", written, Search.TABLE);
                    }
                    run(connection, dialect, SEARCH_SIDE_FINISH);
                }
                try (PreparedStatement insert = connection.prepareStatement(dialect.insertSchemaVersionIfAbsent())) {
                    insert.setInt(1, version);
                    insert.setString(2, description(migration));
                    insert.setObject(3, JdbcSupport.toDatabase(now));
                    insert.executeUpdate();
                }
                connection.commit();
                LOG.info("Migrated the taskagent schema to version {} ({}) on {}", version, migration, dialect);
            }
        }
        return current;
    }

    private static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM taskagent_schema_version")) {
            rows.next();
            return rows.getInt(1); // 0 when the table is empty
        }
    }

    private static void run(Connection connection, Dialect dialect, String name) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements(script(dialect, name))) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    String start = sql.lines().findFirst().orElse("");
                    throw new SQLException(
                            "Schema script " + dialect.folder() + "/" + name + " failed at '" + start + "': "
                                    + e.getMessage(),
                            e.getSQLState(),
                            e.getErrorCode(),
                            e);
                }
            }
        }
    }

    /** Reads a schema script of a dialect. */
    static String script(Dialect dialect, String name) {
        String path = RESOURCE_ROOT + dialect.folder() + "/" + name;
        try (InputStream in = SchemaMigrator.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Schema script " + path + " is missing from taskagent-storage-jdbc");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read schema script " + path, e);
        }
    }

    /**
     * Splits a script into statements: whole-line {@code --} comments are dropped, and a statement ends
     * with a semicolon at the end of a line.
     */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(trimmed, 0, trimmed.length() - 1);
                statements.add(current.toString());
                current.setLength(0);
            } else {
                current.append(trimmed).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }

    static int version(String migration) {
        return Integer.parseInt(migration.substring(1, migration.indexOf("__")));
    }

    private static String description(String migration) {
        return migration.substring(migration.indexOf("__") + 2, migration.lastIndexOf('.'));
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // The original failure is what the caller needs to see.
        }
    }
}
