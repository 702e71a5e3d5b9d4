package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.task.NewTask;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A store opened from a JDBC URL opens at most its {@code maxConnections}, however many threads call it:
 * the others wait their turn, and none fails; the database sees no more connections than that.
 */
class ConnectionBoundTest {
    private static final int MAX_CONNECTIONS = 4;
    private static final int CALLERS = 40;

    static Stream<TestDatabase> databases() {
        return TestDatabase.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void manyConcurrentCallersShareTheBoundedConnections(TestDatabase database) throws Exception {
        String url =
                database == TestDatabase.POSTGRES ? database.newUrl() + "&ApplicationName=bounded" : database.newUrl();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger serverPeak = new AtomicInteger();
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                .maxConnections(MAX_CONNECTIONS)
                .withoutEventFeed()
                .build()) {
            ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int caller = 0; caller < CALLERS; caller++) {
                    int number = caller;
                    results.add(callers.submit(() -> store.inTransaction(tx -> {
                        // A unit of work may run again after a deadlock: count it out however it ends.
                        peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        try {
                            long id = tx.appendTask(NewTask.of("bound", "task " + number))
                                    .id();
                            LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // hold the connection a while
                            if (database != TestDatabase.H2) {
                                serverPeak.accumulateAndGet(serverConnections(database, url), Math::max);
                            }
                            return id;
                        } finally {
                            inside.decrementAndGet();
                        }
                    })));
                }
                for (Future<Long> result : results) {
                    assertThat(result.get(60, TimeUnit.SECONDS)).isPositive();
                }
            } finally {
                callers.shutdownNow();
            }
            assertThat(store.listTasks("bound")).hasSize(CALLERS);
        }
        // One connection stays open for the store's life; the others serve units of work.
        assertThat(peak.get()).as("units of work at once").isBetween(2, MAX_CONNECTIONS - 1);
        if (database != TestDatabase.H2) {
            assertThat(serverPeak.get())
                    .as("the store's connections the database saw")
                    .isBetween(1, MAX_CONNECTIONS);
        }
    }

    @Test
    void maxConnectionsOutOfBoundsOrOnADataSourceIsRefused() {
        assertThatThrownBy(() -> JdbcTaskStore.builder("jdbc:h2:mem:x").maxConnections(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConnections must be between 2 and 1000, was 1");
        assertThatThrownBy(() ->
                        JdbcTaskStore.builder(TestDatabase.H2.newDataSource()).maxConnections(5))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("maxConnections applies to a store built from a JDBC URL");
    }

    /** The connections the database has open to the test's schema, besides the one asking. */
    private static int serverConnections(TestDatabase database, String url) {
        String sql = database == TestDatabase.POSTGRES
                ? "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND application_name = 'bounded' AND pid <> pg_backend_pid()"
                : "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE db = DATABASE() AND id <> CONNECTION_ID()";
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not count the connections: " + e.getMessage(), e);
        }
    }
}
