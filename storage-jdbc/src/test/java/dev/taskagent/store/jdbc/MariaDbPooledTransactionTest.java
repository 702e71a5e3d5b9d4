package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * On MariaDB, a store on a pool whose connections are in auto-commit mode (HikariCP's default) begins its
 * units of work with {@code START TRANSACTION} and ends them with {@code COMMIT} or {@code ROLLBACK}:
 * switching auto-commit off and the pool switching it back on would cost two round trips more per unit of
 * work. Checked here on the session counters of the pool's one connection, and what happens when a
 * rollback fails.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbPooledTransactionTest {
    private static final Duration LEASE = Duration.ofMinutes(5);

    private final String url = TestDatabase.MARIADB.newUrl();
    private final HikariDataSource pool = onePooledConnection(url);
    private final AtomicBoolean refuseRollback = new AtomicBoolean();
    private final JdbcTaskStore store =
            JdbcTaskStore.builder(rollbackMayFail(pool)).build();

    @AfterEach
    void close() {
        store.close();
        pool.close();
    }

    @Test
    void unitsOfWorkBeginAndEndByStatementAndLeaveTheConnectionInAutoCommitMode() throws SQLException {
        TaskQueue queue = TaskQueue.builder(store).build();
        for (int index = 0; index < 3; index++) {
            queue.create(
                    NewTask.builder("pool", "task " + index).assignee("worker").build());
        }
        Map<String, Long> before = sessionCounters();

        for (int index = 0; index < 3; index++) {
            Task task = queue.claimNext("worker").orElseThrow();
            queue.complete(task.id(), "worker", task.attempt(), TaskStatus.SUCCESS, "done");
        }

        Map<String, Long> after = sessionCounters();
        assertThat(after.get("Com_set_option") - before.get("Com_set_option"))
                .as("SET statements (set autocommit=0 and =1)")
                .isZero();
        assertThat(after.get("Com_begin") - before.get("Com_begin"))
                .as("START TRANSACTION")
                .isEqualTo(6);
        assertThat(after.get("Com_commit") - before.get("Com_commit"))
                .as("COMMIT")
                .isEqualTo(6);
        assertThat(after.get("Com_rollback") - before.get("Com_rollback"))
                .as("ROLLBACK")
                .isZero();
        assertThat(queue.listQueue("worker")).extracting(Task::status).containsOnly(TaskStatus.SUCCESS);
        try (Connection connection = pool.getConnection()) {
            assertThat(connection.getAutoCommit()).isTrue();
            assertThat(inTransaction(connection)).isFalse();
        }
    }

    @Test
    void aFailedUnitOfWorkIsRolledBackByStatementAndTheConnectionServesAgain() throws SQLException {
        Map<String, Long> before = sessionCounters();

        assertThatThrownBy(() -> store.inTransaction(transaction -> {
                    transaction.appendTask(NewTask.builder("pool", "never kept")
                            .assignee("worker")
                            .build());
                    throw new IllegalArgumentException("the work gave up");
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the work gave up");

        Map<String, Long> after = sessionCounters();
        assertThat(after.get("Com_rollback") - before.get("Com_rollback")).isEqualTo(1);
        try (Connection connection = pool.getConnection()) {
            assertThat(connection.getAutoCommit()).isTrue();
            assertThat(inTransaction(connection)).isFalse();
        }
        assertThat(tasks()).isEmpty();
        Task kept = store.inTransaction(transaction -> transaction.appendTask(
                NewTask.builder("pool", "kept").assignee("worker").build()));
        assertThat(tasks()).extracting(Task::id).containsExactly(kept.id());
    }

    @Test
    void whenTheRollbackFailsTheConnectionIsClosedSoThatTheServerRollsBack() throws Exception {
        long connectionId;
        try (Connection connection = pool.getConnection()) {
            connectionId = queryLong(connection, "SELECT CONNECTION_ID()");
        }
        refuseRollback.set(true);

        assertThatThrownBy(() -> store.inTransaction(transaction -> {
                    transaction.appendTask(NewTask.builder("pool", "never kept")
                            .assignee("worker")
                            .build());
                    throw new IllegalArgumentException("the work gave up");
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the work gave up")
                .satisfies(thrown -> assertThat(thrown.getSuppressed())
                        .singleElement()
                        .satisfies(suppressed -> assertThat(suppressed).hasMessageContaining("ROLLBACK refused")));

        refuseRollback.set(false);
        try (Connection observer = DriverManager.getConnection(url)) {
            Instant deadline = Instant.now().plusSeconds(10);
            while (connectionAlive(observer, connectionId) && Instant.now().isBefore(deadline)) {
                Thread.sleep(20);
            }
            assertThat(connectionAlive(observer, connectionId))
                    .as("the connection whose rollback failed is gone, and its transaction with it")
                    .isFalse();
            assertThat(queryLong(
                            observer,
                            "SELECT COUNT(*) FROM information_schema.INNODB_TRX" + " WHERE trx_mysql_thread_id = "
                                    + connectionId))
                    .isZero();
            assertThat(queryLong(observer, "SELECT COUNT(*) FROM taskagent_tasks"))
                    .isZero();
        }
        // The pool replaces the dead connection; the store goes on.
        Task kept = claimableTaskAfterTheFailure();
        assertThat(kept.description()).isEqualTo("kept");
    }

    private List<Task> tasks() {
        return store.inTransaction(transaction -> transaction.listTasks("pool"));
    }

    private Task claimableTaskAfterTheFailure() {
        for (int attempt = 1; ; attempt++) {
            try {
                store.inTransaction(transaction -> transaction.appendTask(
                        NewTask.builder("pool", "kept").assignee("worker").build()));
                return store.claimNext("worker", LEASE).orElseThrow();
            } catch (TaskStoreException e) {
                // The pool may hand out the aborted connection once before it notices.
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static HikariDataSource onePooledConnection(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        config.setPoolName("mariadb-pooled-transaction-test");
        return new HikariDataSource(config);
    }

    /** The pool, with a switch that makes a ROLLBACK statement fail before it is sent. */
    private DataSource rollbackMayFail(DataSource real) {
        return (DataSource) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return method.getName().equals("getConnection") ? connection((Connection) result) : result;
                });
    }

    private Connection connection(Connection real) {
        return (Connection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return method.getName().equals("createStatement") ? statement((Statement) result) : result;
                });
    }

    private Statement statement(Statement real) {
        return (Statement) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("execute") && "ROLLBACK".equals(args[0]) && refuseRollback.get()) {
                        throw new SQLNonTransientConnectionException("ROLLBACK refused by the test", "08000");
                    }
                    return invoke(real, method, args);
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The session counters of the pool's one connection. */
    private Map<String, Long> sessionCounters() throws SQLException {
        Map<String, Long> counters = new HashMap<>();
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement("SHOW SESSION STATUS WHERE Variable_name"
                        + " IN ('Com_set_option', 'Com_begin', 'Com_commit', 'Com_rollback')");
                ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                counters.put(rows.getString(1), rows.getLong(2));
            }
        }
        assertThat(counters).hasSize(4);
        return counters;
    }

    private static boolean inTransaction(Connection connection) throws SQLException {
        return queryLong(connection, "SELECT @@in_transaction") != 0;
    }

    private static boolean connectionAlive(Connection observer, long connectionId) throws SQLException {
        return queryLong(observer, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + connectionId)
                > 0;
    }

    private static long queryLong(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }
}
