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
 * lock that another process holds, and takes over one that a killed process left behind.
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
