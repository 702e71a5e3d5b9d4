package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.SearchQuery;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.h2.tools.Server;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schema version 6 moves every task's progresses, preferences, comments and links into its row: tested
 * from databases at version 1 and version 5 holding 100,000 tasks, across a kill -9 of the migrating
 * process, and with processes that start on one empty database at the same moment, on H2 served over TCP,
 * PostgreSQL and MariaDB.
 */
class MigrationProcessTest {
    private static final int TASKS = 100_000;

    /** Tasks of the database whose migration is killed: enough for the kill to land half-way. */
    private static final int TASKS_KILLED = 20_000;

    private static final int TASKS_PER_SESSION = 1_000;
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final String OLD = "TIMESTAMP '2026-01-01 00:00:00'";

    @TempDir
    Path folder;

    static Stream<String> databases() {
        List<String> databases = new ArrayList<>(List.of("h2"));
        if (TestDatabase.POSTGRES.isConfigured()) {
            databases.add("postgresql");
        }
        if (TestDatabase.MARIADB.isConfigured()) {
            databases.add("mariadb");
        }
        return databases.stream();
    }

    static Stream<String> versions() {
        return databases().flatMap(database -> Stream.of(database + " from V1", database + " from V5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    void aDatabaseOf100000TasksIsMigratedWithEveryChildInItsRow(String database) throws Exception {
        String url = url(database.split(" ")[0], null);
        int version = database.endsWith("V1") ? 1 : 5;
        fillOldSchema(url, version, TASKS);

        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            assertEveryTaskMigrated(url, store, TASKS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aMigrationKilledHalfWayIsFinishedByTheNextStart(String database) throws Exception {
        Server server = null;
        try {
            if (database.equals("h2")) {
                server = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                        .start();
            }
            String url = url(database, server);
            fillOldSchema(url, 5, TASKS_KILLED);
            try (ChildJvm migrating = ChildJvm.start("migrating", folder, MigrationMain.class, url, "killed")) {
                long moved = awaitMoving(url, migrating);
                migrating.kill9();
                assertThat(moved).as("tasks moved before the kill").isPositive().isLessThan(TASKS_KILLED);
            }
            assertThat(count(url, "SELECT COUNT(*) FROM taskagent_tasks WHERE comments IS NULL"))
                    .as("tasks the killed migration left unmoved")
                    .isPositive();

            try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
                assertEveryTaskMigrated(url, store, TASKS_KILLED);
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aSearchFillKilledHalfWayIsFinishedByTheNextStart(String database) throws Exception {
        Server server = null;
        try {
            if (database.equals("h2")) {
                server = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                        .start();
            }
            String url = url(database, server);
            fillOldSchema(url, 5, TASKS_KILLED);
            migrateToEight(url);
            try (ChildJvm migrating = ChildJvm.start("filling", folder, MigrationMain.class, url, "killed")) {
                long written = awaitSearchRows(url, migrating);
                migrating.kill9();
                assertThat(written).as("search rows written before the kill").isLessThan(TASKS_KILLED);
            }
            assertThat(count(url, "SELECT COUNT(*) FROM " + Search.TABLE))
                    .as("search rows after the kill")
                    .isPositive()
                    .isLessThan(TASKS_KILLED);

            try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
                assertEveryTaskMigrated(url, store, TASKS_KILLED);
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    /** Brings a database filled at version 5 to version 8, as a store of version 8 did. */
    private static void migrateToEight(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            Dialect dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, SchemaMigrator.DOCUMENTS))) {
                    statement.execute(sql);
                }
                connection.setAutoCommit(false);
                DocumentMigration.run(connection);
                connection.commit();
                connection.setAutoCommit(true);
                List<String> scripts = new ArrayList<>(List.of(SchemaMigrator.DOCUMENTS_FINISH));
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(6, 8));
                for (String script : scripts) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                for (int applied = 6; applied <= 8; applied++) {
                    statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                            + " VALUES (" + applied + ", 'old', " + OLD + ")");
                }
            }
        }
    }

    /** Waits until the process has written some search rows, and returns how many. */
    private static long awaitSearchRows(String url, ChildJvm process) throws SQLException {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (true) {
            long written;
            try {
                written = count(url, "SELECT COUNT(*) FROM " + Search.TABLE);
            } catch (SQLException e) {
                written = 0; // the table is not there yet
            }
            if (written > 0) {
                return written;
            }
            assertThat(process.isAlive())
                    .as("the migrating process is alive; stderr: %s", process.stderrTail())
                    .isTrue();
            assertThat(Instant.now())
                    .as("the migration began writing search rows")
                    .isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void processesStartingTogetherOnAnEmptyDatabaseAllStart(String database) throws Exception {
        Server server = null;
        try {
            if (database.equals("h2")) {
                server = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                        .start();
            }
            int rounds = database.equals("h2") ? 6 : 2;
            for (int round = 1; round <= rounds; round++) {
                String url = url(database, server);
                List<ChildJvm> processes = new ArrayList<>();
                try {
                    for (int process = 1; process <= 3; process++) {
                        processes.add(ChildJvm.start(
                                "start-" + round + "-" + process, folder, MigrationMain.class, url, "together"));
                    }
                    for (ChildJvm process : processes) {
                        process.awaitLine(line -> line.startsWith("OPENED "), DEADLINE);
                        process.awaitExit(DEADLINE);
                    }
                } finally {
                    processes.forEach(ChildJvm::close);
                }
                try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
                    assertThat(store.listTasks("together"))
                            .as("round %d", round)
                            .extracting(Task::order)
                            .containsExactly(1, 2, 3);
                }
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    /** A URL of a new, empty database or schema. */
    private String url(String database, Server h2Server) {
        return switch (database) {
            case "postgresql" -> TestDatabase.POSTGRES.newUrl();
            case "mariadb" -> TestDatabase.MARIADB.newUrl();
            default ->
                h2Server != null
                        ? "jdbc:h2:tcp://localhost:" + h2Server.getPort() + "/" + TestDatabase.newSchemaName()
                        : TestDatabase.H2.newUrl();
        };
    }

    /** Waits until the process has moved some tasks, and returns how many. */
    private static long awaitMoving(String url, ChildJvm process) throws SQLException {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (true) {
            long moved;
            try {
                moved = count(url, "SELECT COUNT(*) FROM taskagent_tasks WHERE comments IS NOT NULL");
            } catch (SQLException e) {
                moved = 0; // the column is not there yet
            }
            if (moved > 0) {
                return moved;
            }
            assertThat(process.isAlive())
                    .as("the migrating process is alive; stderr: %s", process.stderrTail())
                    .isTrue();
            assertThat(Instant.now()).as("the migration began moving tasks").isBefore(deadline);
            LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
        }
    }

    /**
     * Creates the schema at an old version with {@code tasks} tasks in sessions of {@value
     * #TASKS_PER_SESSION}, each with a progress, a preference, two comments and a link in the child tables, and
     * the first task of each session with a message.
     */
    private static void fillOldSchema(String url, int version, int tasks) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            Dialect dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                List<String> scripts = new ArrayList<>(List.of(SchemaMigrator.VERSION_TABLE_SCRIPT));
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(0, version));
                for (String script : scripts) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                for (int applied = 1; applied <= version; applied++) {
                    statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                            + " VALUES (" + applied + ", 'old', " + OLD + ")");
                }
                String numbers = numbers(dialect.id(), tasks);
                statement.execute("INSERT INTO taskagent_sessions (session_id) SELECT "
                        + dialect.concat("'old-'", text(dialect.id(), "n")) + " FROM "
                        + numbers(dialect.id(), tasks / TASKS_PER_SESSION) + " WHERE n <= "
                        + tasks / TASKS_PER_SESSION);
                statement.execute("INSERT INTO taskagent_tasks (session_id, task_order, description, status,"
                        + " priority, assignee, archived, current_step, created_at, updated_at, version) SELECT "
                        + dialect.concat("'old-'", text(dialect.id(), "FLOOR((n - 1) / " + TASKS_PER_SESSION + ") + 1"))
                        + ", MOD(n - 1, " + TASKS_PER_SESSION + ") + 1, "
                        + dialect.concat("'task '", text(dialect.id(), "n")) + ", 'pending', 0, 'veteran', FALSE, 0, "
                        + OLD + ", " + OLD + ", 1 FROM " + numbers + " WHERE n <= " + tasks);
                String byTask = " FROM taskagent_tasks";
                statement.execute("INSERT INTO taskagent_progresses (task_id, content) SELECT id, "
                        + dialect.concat("'progress of '", "description") + byTask);
                statement.execute("INSERT INTO taskagent_preferences (task_id, content) SELECT id, 'terse'" + byTask);
                for (String text : List.of("first \"quoted\"", "second\nline")) {
                    statement.execute("INSERT INTO taskagent_comments (task_id, author, content, created_at)"
                            + " SELECT id, 'elder', '" + text + "', " + OLD + byTask + " ORDER BY id");
                }
                statement.execute("INSERT INTO taskagent_links (task_id, url, description, author, created_at)"
                        + " SELECT id, 'https://example.org/a', '', 'elder', " + OLD + byTask);
                statement.execute("INSERT INTO taskagent_messages (session_id, message_id, task_id, seq)"
                        + " SELECT session_id, 'm1', id, 1" + byTask + " WHERE task_order = 1");
            }
        }
    }

    /** A number as text. */
    private static String text(JdbcDialect dialect, String number) {
        return dialect == JdbcDialect.MARIADB ? "CAST(" + number + " AS CHAR)" : "CAST(" + number + " AS VARCHAR(20))";
    }

    /** A table of the numbers 1.. at least {@code count}, in a column {@code n}. */
    private static String numbers(JdbcDialect dialect, int count) {
        return switch (dialect) {
            case POSTGRESQL -> "generate_series(1, " + count + ") AS g(n)";
            case MARIADB -> "(SELECT seq AS n FROM seq_1_to_" + count + ") g";
            default -> "(SELECT X AS n FROM SYSTEM_RANGE(1, " + count + ")) g";
        };
    }

    private static void assertEveryTaskMigrated(String url, JdbcTaskStore store, int count) throws SQLException {
        assertThat(count(url, "SELECT COUNT(*) FROM taskagent_tasks")).isEqualTo(count);
        assertThat(count(
                        url,
                        "SELECT COUNT(*) FROM taskagent_tasks WHERE comments IS NULL OR links IS NULL"
                                + " OR progresses IS NULL OR preferences IS NULL"))
                .as("tasks left unmoved")
                .isZero();
        assertThat(tables(url))
                .as("tables left")
                .doesNotContain(
                        "taskagent_progresses", "taskagent_preferences", "taskagent_comments", "taskagent_links");
        for (int session : List.of(1, count / TASKS_PER_SESSION / 2, count / TASKS_PER_SESSION)) {
            List<Task> tasks = store.listTasks("old-" + session);
            assertThat(tasks).hasSize(TASKS_PER_SESSION);
            for (Task task : List.of(tasks.get(0), tasks.get(TASKS_PER_SESSION - 1))) {
                assertThat(task.progresses()).containsExactly("progress of " + task.description());
                assertThat(task.userPreferences()).containsExactly("terse");
                assertThat(task.comments())
                        .extracting(Comment::author, Comment::text)
                        .containsExactly(
                                org.assertj.core.groups.Tuple.tuple("elder", "first \"quoted\""),
                                org.assertj.core.groups.Tuple.tuple("elder", "second\nline"));
                assertThat(task.comments().get(0).createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
                assertThat(task.links()).extracting(Link::url).containsExactly("https://example.org/a");
                assertThat(task.messageIds()).isEqualTo(task.order() == 1 ? List.of("m1") : List.of());
            }
        }
        assertThat(count(url, "SELECT COUNT(*) FROM " + Search.TABLE))
                .as("tasks with their search text")
                .isEqualTo(count);
        assertThat(store.searchTasks(SearchQuery.of("progress " + count + " quoted"))
                        .tasks())
                .extracting(Task::description)
                .containsExactly("task " + count);
        Task claimed = store.claimNext("veteran", Duration.ofMinutes(5)).orElseThrow();
        assertThat(claimed).isEqualTo(store.findTask(claimed.id()).orElseThrow());
        assertThat(claimed.comments()).hasSize(2);
    }

    private static long count(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static List<String> tables(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            DatabaseMetaData metaData = connection.getMetaData();
            List<String> names = new ArrayList<>();
            try (ResultSet rows = metaData.getTables(connection.getCatalog(), connection.getSchema(), "%", null)) {
                while (rows.next()) {
                    names.add(rows.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
                }
            }
            return names;
        }
    }
}
