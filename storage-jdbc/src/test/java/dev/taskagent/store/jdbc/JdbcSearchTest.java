package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.SearchPage;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JDBC store's search (TS-13) beyond the conformance kit, on one database: a database of version 7 with tasks
 * migrates, also by several stores at once, and finds its old tasks; the JSON of progress and comments does not
 * glue or invent words; words the engine does not index (short words, stop words) are found too. Subclassed once
 * per database.
 */
abstract class JdbcSearchTest {
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private static final String OLD = "TIMESTAMP '2026-01-01 00:00:00'";

    protected final MutableClock clock = MutableClock.standard();
    private final List<JdbcTaskStore> stores = new CopyOnWriteArrayList<>();

    /** @return the database under test */
    protected abstract TestDatabase database();

    @AfterEach
    void closeStores() {
        stores.forEach(JdbcTaskStore::close);
    }

    private JdbcTaskStore track(JdbcTaskStore store) {
        stores.add(store);
        return store;
    }

    @Test
    void aDatabaseAtVersionSevenMigratedByThreeStoresAtOnceFindsItsOldTasks() throws Exception {
        DataSource dataSource = database().newDataSource();
        try (Connection connection = dataSource.getConnection()) {
            Dialect dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                List<String> scripts = new ArrayList<>(List.of(SchemaMigrator.VERSION_TABLE_SCRIPT));
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(0, 6));
                scripts.add(SchemaMigrator.DOCUMENTS_FINISH);
                scripts.add(SchemaMigrator.MIGRATIONS.get(6));
                for (String script : scripts) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                for (int version = 1; version <= 7; version++) {
                    statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                            + " VALUES (" + version + ", 'old', " + OLD + ")");
                }
                statement.execute("INSERT INTO taskagent_sessions (session_id) VALUES ('seven')");
                insertOld(connection, 1, "Überweisung vorbereiten", "[\"Zeile eins\\nZweite Zeile\"]", "[]");
                insertOld(
                        connection,
                        2,
                        "Rechnung schreiben",
                        "[]",
                        "[{\"author\":\"buchhalterin\",\"text\":\"\\\"Mahnung\\\" senden\",\"at\":\"2026-01-01T00:00:00Z\"}]");
                insertOld(connection, 3, "Kaffee kaufen", null, null);
            }
        }

        CyclicBarrier start = new CyclicBarrier(3);
        ExecutorService executor = Executors.newFixedThreadPool(3);
        try {
            List<Future<JdbcTaskStore>> opened = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                opened.add(executor.submit(() -> {
                    start.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                    return track(JdbcTaskStore.builder(dataSource).clock(clock).build());
                }));
            }
            for (Future<JdbcTaskStore> future : opened) {
                future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        JdbcTaskStore store = stores.get(0);

        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT COUNT(*), MAX(version) FROM taskagent_schema_version")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(8);
            assertThat(rows.getInt(2)).isEqualTo(SchemaMigrator.latestVersion());
        }
        assertThat(descriptions(store, "überweisung")).containsExactly("Überweisung vorbereiten");
        assertThat(descriptions(store, "ZWEITE zeile")).containsExactly("Überweisung vorbereiten");
        assertThat(descriptions(store, "mahnung senden")).containsExactly("Rechnung schreiben");
        assertThat(descriptions(store, "buchhalterin")).isEmpty();
        assertThat(descriptions(store, "nzweite")).isEmpty();
        assertThat(descriptions(store, "kaffee")).containsExactly("Kaffee kaufen");
        Task old = store.listTasks("seven").get(2);
        store.inTransaction(tx -> tx.addComment(old.id(), "alice", "Bohnen aus Äthiopien"));
        assertThat(descriptions(store, "äthiopien kaffee")).containsExactly("Kaffee kaufen");
    }

    @Test
    void escapesInProgressAndCommentsNeitherGlueNorInventWords() {
        JdbcTaskStore store = track(database().newStore(clock));
        Task task = store.inTransaction(tx -> tx.appendTask(NewTask.of("escapes", "Notizen")));
        store.inTransaction(tx -> {
            tx.appendProgress(task.id(), "erste\nzweite\tdritte \"zitat\" C:\\temp\\neu");
            return tx.addComment(task.id(), "author", "eins\r\nzwei ünïcödé \\u00e9 text at author");
        });

        for (String word :
                List.of("erste", "zweite", "dritte", "zitat", "temp", "neu", "eins", "zwei", "ünïcödé", "u00e9")) {
            assertThat(ids(store, word)).as(word).containsExactly(task.id());
        }
        for (String word : List.of("nzweite", "tdritte", "nzwei", "rnzwei", "tempneu")) {
            assertThat(ids(store, word)).as(word).isEmpty();
        }
    }

    @Test
    void shortWordsAndStopWordsAreFoundAsWholeWords() {
        JdbcTaskStore store = track(database().newStore(clock));
        Task shop = store.inTransaction(tx -> tx.appendTask(NewTask.of("short", "go to the shop, buy an Ei")));
        store.inTransaction(tx -> tx.appendTask(NewTask.of("short", "going together there, shopping")));

        assertThat(ids(store, "go")).containsExactly(shop.id());
        assertThat(ids(store, "the shop")).containsExactly(shop.id());
        assertThat(ids(store, "ei AN")).containsExactly(shop.id());
        assertThat(ids(store, "to")).containsExactly(shop.id());
        assertThat(ids(store, "go to the")).containsExactly(shop.id());
    }

    /** Inserts a task as version 7 wrote it, the documents bound as parameters (MariaDB reads escapes in literals). */
    private static void insertOld(
            Connection connection, int order, String description, String progresses, String comments)
            throws java.sql.SQLException {
        try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO taskagent_tasks (session_id,"
                + " task_order, description, status, priority, assignee, archived, current_step, created_at,"
                + " updated_at, version, attempt, max_attempts, progresses, preferences, comments, links) VALUES"
                + " ('seven', ?, ?, 'pending', 0, 'veteran', FALSE, 0, " + OLD + ", " + OLD + ", 1, 0, 0, ?, '[]', ?,"
                + " '[]')")) {
            insert.setInt(1, order);
            insert.setString(2, description);
            insert.setString(3, progresses);
            insert.setString(4, comments);
            insert.executeUpdate();
        }
    }

    private static List<String> descriptions(JdbcTaskStore store, String text) {
        return page(store, text).tasks().stream().map(Task::description).toList();
    }

    private static List<Long> ids(JdbcTaskStore store, String text) {
        return page(store, text).tasks().stream().map(Task::id).toList();
    }

    private static SearchPage page(JdbcTaskStore store, String text) {
        SearchPage page = store.searchTasks(SearchQuery.of(text).withLimit(SearchQuery.MAX_LIMIT));
        assertThat(page.remaining()).isZero();
        return page;
    }
}
