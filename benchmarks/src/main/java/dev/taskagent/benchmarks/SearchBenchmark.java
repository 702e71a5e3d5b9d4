package dev.taskagent.benchmarks;

import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code searchTasks} on PostgreSQL, MariaDB and H2 over {@value #TASKS} tasks written with each database's row series, each with a
 * description, a progress entry and a comment, the first page of 20 (the tool's default) with its count of what
 * remains. The words are chosen so that a query matches a known share of the tasks:
 *
 * <ul>
 *   <li>{@code rare}: one of {@value #RARE_WORDS} words, about {@value #TASKS} / {@value #RARE_WORDS} tasks;
 *   <li>{@code twoWords}: a rare word and one of 7 others (in the comment), about a seventh of those;
 *   <li>{@code common}: one of 10 words, a tenth of all tasks (10,000 ranked for one page).
 * </ul>
 */
@Fork(1)
public class SearchBenchmark {
    static final int TASKS = 100_000;
    static final int RARE_WORDS = 1_000;

    private static final String EPOCH = "TIMESTAMP '2026-01-01 00:00:00'";

    /** A database of {@value #TASKS} searchable tasks. */
    @State(Scope.Benchmark)
    public static class Tasks {
        /** The database: {@code postgres}, {@code mariadb} or {@code h2} (a file). */
        @Param({"postgres", "mariadb", "h2"})
        public String database;

        /** Which words the queries hold (see the class comment). */
        @Param({"rare", "twoWords", "common"})
        public String query;

        BenchDatabase bench;
        JdbcTaskStore store;

        /**
         * Writes the tasks.
         *
         * @throws SQLException if the database fails
         */
        @Setup(Level.Trial)
        public void fill() throws SQLException {
            BenchDatabase.Kind kind = BenchDatabase.Kind.of(database);
            bench = BenchDatabase.create(kind, "search", 4);
            store = BenchStore.jdbcStore(bench, true);
            // Rows i = 0 .. TASKS - 1 from each database's own series, in SQL all three read alike.
            String series =
                    switch (kind) {
                        case POSTGRES -> "(SELECT i FROM generate_series(0, " + (TASKS - 1) + ") AS g(i)) g";
                        case MARIADB -> "(SELECT seq AS i FROM seq_0_to_" + (TASKS - 1) + ") g";
                        case H2 -> "(SELECT X AS i FROM SYSTEM_RANGE(0, " + (TASKS - 1) + ")) g";
                    };
            String order = kind == BenchDatabase.Kind.MARIADB ? "i DIV 100 + 1" : "i / 100 + 1";
            try (Connection connection = bench.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(true);
                statement.executeUpdate("INSERT INTO taskagent_sessions (session_id) SELECT CONCAT('search-', i)"
                        + " FROM " + series + " WHERE i < 100");
                statement.executeUpdate("INSERT INTO taskagent_tasks (session_id, task_order, description, status,"
                        + " priority, assignee, archived, current_step, created_at, updated_at, version, progresses,"
                        + " preferences, comments, links) SELECT CONCAT('search-', i % 100), " + order + ","
                        + " CONCAT('Überweisung rare', i % " + RARE_WORDS + ", ' common', i % 10, ' an Lieferant"
                        + " Nummer ', i, ' prüfen'), CASE WHEN i % 3 = 0 THEN 'success' ELSE 'pending' END, i % 3,"
                        + " CONCAT('agent-', i % 50), FALSE, 0, " + EPOCH + ", " + EPOCH + ", 1,"
                        + " CONCAT('[\"Rechnung ', i, ' geprüft, weiter\"]'), '[]',"
                        + " CONCAT('[{\"author\":\"alice\",\"text\":\"Rückfrage beim Kunden, extra', i % 7,"
                        + " '\",\"at\":\"2026-01-01T00:00:00Z\"}]'), '[]' FROM " + series);
                // The search text of tasks is written by the store, not by this SQL: forget schema version 9
                // (the search table) and those after it, so that the next store's migration writes it for every
                // task, as it does for a database that comes from version 8 (each later version runs again
                // unchanged: every migration is written to be run again after a kill).
                statement.executeUpdate("DELETE FROM taskagent_schema_version WHERE version >= 9");
            }
            store.close();
            store = BenchStore.jdbcStore(bench, true);
            try (Connection connection = bench.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute(
                        kind == BenchDatabase.Kind.MARIADB
                                ? "ANALYZE TABLE taskagent_tasks, taskagent_task_search"
                                : "ANALYZE");
            }
        }

        SearchQuery next() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            return switch (query) {
                case "rare" -> SearchQuery.of("rare" + random.nextInt(RARE_WORDS));
                case "twoWords" -> SearchQuery.of("rare" + random.nextInt(RARE_WORDS) + " extra" + random.nextInt(7));
                case "common" -> SearchQuery.of("common" + random.nextInt(10));
                default -> throw new IllegalStateException("unknown query " + query);
            };
        }

        /** Closes the store and drops the database. */
        @TearDown(Level.Trial)
        public void drop() {
            try {
                store.close();
            } finally {
                bench.close();
            }
        }
    }

    /**
     * The first page of a search, 20 tasks, with the count of the rest.
     *
     * @param tasks the database
     * @return the page
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 3)
    @Threads(1)
    public TaskPage firstPage(Tasks tasks) {
        TaskPage page = tasks.store.searchTasks(tasks.next());
        if (page.tasks().isEmpty()) {
            throw new IllegalStateException("the search found nothing");
        }
        return page;
    }
}
