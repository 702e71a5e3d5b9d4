package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.NewTask;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * H2's migration lock, a row that processes starting on one database take in turn: a store waits for a
 * lock that another process holds, and takes over one that a killed process left behind: at once when the
 * row names a session that is gone, after two minutes when it names none or the user cannot see sessions.
 */
class H2MigrationLockTest {

    @Test
    void aLockLeftByAKilledProcessIsTakenOverAndReleased() throws Exception {
        String url = TestDatabase.H2.newUrl();
        execute(
                url,
                "CREATE TABLE taskagent_migration_lock (id INT NOT NULL PRIMARY KEY, locked_at TIMESTAMP(6) NOT NULL)");
        execute(
                url,
                "INSERT INTO taskagent_migration_lock (id, locked_at) VALUES (1, DATEADD(MINUTE, -10, LOCALTIMESTAMP))");

        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            assertThat(store.inTransaction(tx ->
                                    tx.appendTask(NewTask.builder("s", "works").build()))
                            .order())
                    .isEqualTo(1);
        }
        assertThat(count(url, "SELECT COUNT(*) FROM taskagent_migration_lock")).isZero();
    }

    @Test
    void aStoreWaitsForALockAnotherProcessHoldsUntilItIsReleased() throws Exception {
        String url = TestDatabase.H2.newUrl();
        execute(
                url,
                "CREATE TABLE taskagent_migration_lock (id INT NOT NULL PRIMARY KEY, locked_at TIMESTAMP(6) NOT NULL)");
        execute(url, "INSERT INTO taskagent_migration_lock (id, locked_at) VALUES (1, LOCALTIMESTAMP)");

        CompletableFuture<JdbcTaskStore> opening = CompletableFuture.supplyAsync(() -> JdbcTaskStore.open(url));
        // The opening store keeps trying to insert the lock row while it exists.
        LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
        assertThat(opening).as("waiting for the lock the other process holds").isNotDone();
        assertThat(count(url, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = 'TASKAGENT_TASKS'"))
                .as("nothing migrated while the other process holds the lock")
                .isZero();

        execute(url, "DELETE FROM taskagent_migration_lock WHERE id = 1");

        try (JdbcTaskStore store = opening.get(30, TimeUnit.SECONDS)) {
            assertThat(store.listTasks("s")).isEmpty();
        }
        assertThat(count(url, "SELECT COUNT(*) FROM taskagent_migration_lock")).isZero();
    }

    @Test
    void aLockWhoseSessionIsGoneIsTakenOverAtOnce() throws Exception {
        String url = TestDatabase.H2.newUrl();
        try (JdbcTaskStore first = JdbcTaskStore.open(url)) {
            assertThat(first.listTasks("s")).isEmpty(); // the lock table, with its holder columns
        }
        // A process took the lock and died: its session is gone, the row is a second old.
        execute(
                url,
                "INSERT INTO taskagent_migration_lock (id, locked_at, holder_session, holder_started)"
                        + " SELECT 1, LOCALTIMESTAMP, SESSION_ID, SESSION_START FROM INFORMATION_SCHEMA.SESSIONS"
                        + " WHERE SESSION_ID = SESSION_ID()");

        CompletableFuture<JdbcTaskStore> opening = CompletableFuture.supplyAsync(() -> JdbcTaskStore.open(url));
        // Without the session rule it would wait two minutes for the row to grow stale.
        try (JdbcTaskStore store = opening.get(30, TimeUnit.SECONDS)) {
            assertThat(store.listTasks("s")).isEmpty();
        }
        assertThat(count(url, "SELECT COUNT(*) FROM taskagent_migration_lock")).isZero();
    }

    @Test
    void aLockWhoseSessionLivesIsKeptHoweverOldItIs() throws Exception {
        String url = TestDatabase.H2.newUrl();
        try (JdbcTaskStore first = JdbcTaskStore.open(url)) {
            assertThat(first.listTasks("s")).isEmpty();
        }
        try (Connection holder = DriverManager.getConnection(url);
                Statement statement = holder.createStatement()) {
            // A process migrating for ten minutes already (a large database): its session lives.
            statement.execute("INSERT INTO taskagent_migration_lock (id, locked_at, holder_session, holder_started)"
                    + " SELECT 1, DATEADD(MINUTE, -10, LOCALTIMESTAMP), SESSION_ID, SESSION_START"
                    + " FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()");

            CompletableFuture<JdbcTaskStore> opening = CompletableFuture.supplyAsync(() -> JdbcTaskStore.open(url));
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertThat(opening).as("waiting for the lock a live session holds").isNotDone();
            assertThat(count(url, "SELECT COUNT(*) FROM taskagent_migration_lock"))
                    .as("the live holder's lock row")
                    .isOne();

            statement.execute("DELETE FROM taskagent_migration_lock WHERE id = 1");
            try (JdbcTaskStore store = opening.get(30, TimeUnit.SECONDS)) {
                assertThat(store.listTasks("s")).isEmpty();
            }
        }
    }

    @Test
    void aUserWhoIsNotAnAdminTakesOverALockOnlyOnceItIsTwoMinutesOld() throws Exception {
        String url = TestDatabase.H2.newUrl();
        execute(url, "CREATE USER worker PASSWORD 'pw'");
        execute(url, "CREATE SCHEMA work AUTHORIZATION worker");
        // Only an admin may set DB_CLOSE_DELAY; the database stays open as the admin's URL said.
        String asWorker = url.replace(";DB_CLOSE_DELAY=-1", "") + ";SCHEMA=WORK;USER=worker;PASSWORD=pw";
        try (JdbcTaskStore first = JdbcTaskStore.open(asWorker)) {
            assertThat(first.listTasks("s")).isEmpty(); // the lock table, with its holder columns
        }
        try (Connection holder = DriverManager.getConnection(url);
                Statement statement = holder.createStatement()) {
            // The admin's live session holds a fresh lock; the worker cannot see that session.
            statement.execute("INSERT INTO work.taskagent_migration_lock (id, locked_at, holder_session,"
                    + " holder_started) SELECT 1, LOCALTIMESTAMP, SESSION_ID, SESSION_START"
                    + " FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()");

            CompletableFuture<JdbcTaskStore> opening =
                    CompletableFuture.supplyAsync(() -> JdbcTaskStore.open(asWorker));
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertThat(opening)
                    .as("a fresh lock it cannot judge by its session")
                    .isNotDone();

            // Two minutes later by the row's clock: stale by its age, although its session lives.
            statement.execute(
                    "UPDATE work.taskagent_migration_lock SET locked_at = DATEADD(SECOND, -121," + " LOCALTIMESTAMP)");
            try (JdbcTaskStore store = opening.get(30, TimeUnit.SECONDS)) {
                assertThat(store.listTasks("s")).isEmpty();
            }
        }
        assertThat(count(url, "SELECT COUNT(*) FROM work.taskagent_migration_lock"))
                .isZero();
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long count(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
