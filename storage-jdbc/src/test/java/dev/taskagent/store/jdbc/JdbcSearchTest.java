package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
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
 * migrates, also by several stores at once, and finds its old tasks; so does one of version 8 whose filling of the
 * search table was cut short; every write of searchable text rewrites the task's search text, and claims,
 * heartbeats, releases, completions and other fields leave it alone; the JSON of progress and comments does not
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

        openAtOnce(dataSource, 3);
        JdbcTaskStore store = stores.get(0);

        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("SELECT COUNT(*), MAX(version) FROM taskagent_schema_version")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(SchemaMigrator.latestVersion());
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
    void aDatabaseAtVersionEightWhoseSearchFillWasKilledIsFilledByThreeStoresAtOnce() throws Exception {
        int tasks = 2 * SearchMigration.BATCH + 100;
        DataSource dataSource = database().newDataSource();
        Dialect dialect;
        try (Connection connection = dataSource.getConnection()) {
            dialect = Dialect.detect(connection.getMetaData()).implementation();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                List<String> scripts = new ArrayList<>(List.of(SchemaMigrator.VERSION_TABLE_SCRIPT));
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(0, 6));
                scripts.add(SchemaMigrator.DOCUMENTS_FINISH);
                scripts.addAll(SchemaMigrator.MIGRATIONS.subList(6, 8));
                for (String script : scripts) {
                    for (String sql : SchemaMigrator.statements(SchemaMigrator.script(dialect, script))) {
                        statement.execute(sql);
                    }
                }
                for (int version = 1; version <= 8; version++) {
                    statement.execute("INSERT INTO taskagent_schema_version (version, description, installed_at)"
                            + " VALUES (" + version + ", 'old', " + OLD + ")");
                }
                statement.execute("INSERT INTO taskagent_sessions (session_id) VALUES ('seven')");
            }
            connection.setAutoCommit(false);
            for (int order = 1; order <= tasks; order++) {
                insertOld(
                        connection,
                        order,
                        "Aufgabe nummer" + order,
                        "[\"Zeile eins\\nZweite Zeile\"]",
                        "[{\"author\":\"buchhalterin\",\"text\":\"\\\"Mahnung\\\" senden\",\"at\":\"2026-01-01T00:00:00Z\"}]");
            }
            connection.commit();
            // A fill killed after its first batch: version 9's table exists and holds the first tasks' rows.
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                for (String sql :
                        SchemaMigrator.statements(SchemaMigrator.script(dialect, SchemaMigrator.SEARCH_SIDE))) {
                    statement.execute(sql);
                }
            }
            connection.setAutoCommit(false);
            List<Long> first = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(
                            "SELECT id FROM taskagent_tasks ORDER BY id LIMIT " + SearchMigration.BATCH)) {
                while (rows.next()) {
                    first.add(rows.getLong(1));
                }
            }
            Search.write(connection, dialect, first);
            connection.commit();
            connection.setAutoCommit(true);
        }

        openAtOnce(dataSource, 3);
        JdbcTaskStore store = stores.get(0);

        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM taskagent_schema_version")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(SchemaMigrator.latestVersion());
            }
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + Search.TABLE)) {
                rows.next();
                assertThat(rows.getInt(1)).as("search rows").isEqualTo(tasks);
            }
            try (ResultSet rows = statement.executeQuery("SELECT * FROM taskagent_tasks WHERE id = 1")) {
                List<String> columns = new ArrayList<>();
                for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                    columns.add(rows.getMetaData().getColumnName(column).toLowerCase(java.util.Locale.ROOT));
                }
                assertThat(columns)
                        .as("version 8's generated column is gone")
                        .contains("description")
                        .doesNotContain("search_text", "search_vector");
            }
        }
        assertThat(descriptions(store, "nummer1")).containsExactly("Aufgabe nummer1");
        assertThat(descriptions(store, "nummer" + tasks)).containsExactly("Aufgabe nummer" + tasks);
        TaskPage all = store.searchTasks(SearchQuery.of("zweite mahnung"));
        assertThat(all.tasks().size() + all.remaining()).isEqualTo(tasks);
        assertThat(descriptions(store, "buchhalterin")).isEmpty();
    }

    @Test
    void everyWriteOfSearchableTextRewritesTheTasksSearchText() throws Exception {
        JdbcTaskStore store = track(database().newStore(clock));
        Task task = store.inTransaction(tx -> tx.appendTask(NewTask.builder("writes", "Anfangs beschrieben")
                .assignee("worker")
                .build()));
        assertThat(ids(store, "anfangs")).containsExactly(task.id());

        store.inTransaction(tx -> tx.addComment(task.id(), "alice", "kommentiert spaeter"));
        assertThat(ids(store, "kommentiert")).as("a comment").containsExactly(task.id());
        store.inTransaction(tx -> tx.appendProgress(task.id(), "fortschritt gemacht"));
        assertThat(ids(store, "fortschritt")).as("a progress entry").containsExactly(task.id());
        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(task.id()).description("Neu beschrieben").build()));
        assertThat(ids(store, "neu")).as("a new description").containsExactly(task.id());
        assertThat(ids(store, "anfangs")).as("the old description").isEmpty();
        store.inTransaction(tx ->
                tx.updateTask(TaskUpdate.of(task.id()).steps("1. schritt eins").build()));
        assertThat(ids(store, "schritt")).as("steps").containsExactly(task.id());

        Task claimed = store.claimNext("worker", Duration.ofMillis(1)).orElseThrow();
        Thread.sleep(50); // the lease expires by the database's clock
        List<ReclaimedTask> reclaimed = store.inTransaction(tx -> tx.reclaimExpired(3, 10));
        assertThat(reclaimed).hasSize(1);
        assertThat(ids(store, "heartbeat")).as("the reaper's comment").containsExactly(claimed.id());
        assertThat(ids(store, "kommentiert fortschritt neu schritt")).containsExactly(task.id());
    }

    @Test
    void claimsHeartbeatsReleasesCompletionsAndOtherFieldsLeaveTheSearchRowAlone() throws Exception {
        DataSource dataSource = database().newDataSource();
        JdbcTaskStore store =
                track(JdbcTaskStore.builder(dataSource).clock(clock).build());
        Task task = store.inTransaction(tx -> tx.appendTask(
                NewTask.builder("untouched", "Original").assignee("worker").build()));
        store.inTransaction(tx -> tx.addComment(task.id(), "alice", "kommentar"));
        // Replace the search row by one no write of the store would compute: a write that rewrote it undoes this.
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            assertThat(statement.executeUpdate("UPDATE " + Search.TABLE + " SET "
                            + (Dialect.detect(connection.getMetaData()) == JdbcDialect.POSTGRESQL
                                    ? "search_vector = to_tsvector('simple', 'markiert')"
                                    : "search_text = 'markiert'")
                            + " WHERE task_id = " + task.id()))
                    .isEqualTo(1);
        }
        assertThat(ids(store, "markiert")).containsExactly(task.id());

        Duration lease = Duration.ofMinutes(5);
        Task first = store.claimNext("worker", lease).orElseThrow();
        store.inTransaction(tx -> tx.heartbeat(task.id(), "worker", first.attempt(), lease));
        store.inTransaction(tx -> tx.release(task.id(), "worker", first.attempt()));
        Task second = store.claimNext("worker", lease).orElseThrow();
        store.inTransaction(tx -> tx.heartbeat(task.id(), "worker", second.attempt(), lease));
        store.inTransaction(tx -> tx.complete(task.id(), "worker", second.attempt(), TaskStatus.SUCCESS));
        store.inTransaction(tx -> tx.updateTask(TaskUpdate.of(task.id())
                .status(TaskStatus.PENDING)
                .priority(2)
                .tags(List.of("etikett"))
                .metadata("{\"k\":\"v\"}")
                .build()));
        store.inTransaction(tx -> tx.addLink(task.id(), "https://example.org/verweis", "verweis", "alice"));

        assertThat(ids(store, "markiert"))
                .as("the search row written before the claims, untouched by them")
                .containsExactly(task.id());
        assertThat(ids(store, "kommentar")).isEmpty();
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

    /** Opens stores on one database at the same moment, each migrating it if it needs to. */
    private void openAtOnce(DataSource dataSource, int count) throws Exception {
        CyclicBarrier start = new CyclicBarrier(count);
        ExecutorService executor = Executors.newFixedThreadPool(count);
        try {
            List<Future<JdbcTaskStore>> opened = new ArrayList<>();
            for (int i = 0; i < count; i++) {
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

    private static TaskPage page(JdbcTaskStore store, String text) {
        TaskPage page = store.searchTasks(SearchQuery.of(text).withLimit(SearchQuery.MAX_LIMIT));
        assertThat(page.remaining()).isZero();
        return page;
    }
}
