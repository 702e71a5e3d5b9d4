package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.event.FeedEvent;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * On PostgreSQL {@code JdbcTaskStore.claimNext} claims in one statement that commits on its own. What it
 * sends is checked here, and what happens when the connection fails around that statement: a claim whose
 * reply was lost after it committed is found by its token and returned, never handed out twice and never
 * left running unseen; a claim that never reached the server is run again.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresOwnStatementClaimTest {
    private static final Duration LEASE = Duration.ofMinutes(5);

    /** What the wrapped connections do to the claim's statement. */
    private enum Fault {
        NONE,
        /** The statement runs and commits; then the connection fails before the reply is read. */
        LOSE_THE_REPLY,
        /** The connection fails before the statement is sent. */
        FAIL_BEFORE_SENDING,
        /** Like LOSE_THE_REPLY, and no new connection can be had afterwards either. */
        LOSE_THE_REPLY_AND_THE_DATABASE,
        /** The server refuses the statement (and rolls it back), as it does a bad value. */
        REFUSE_THE_STATEMENT
    }

    private final DataSource real = TestDatabase.POSTGRES.newDataSource();
    private final AtomicReference<Fault> fault = new AtomicReference<>(Fault.NONE);
    private volatile boolean databaseGone;
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<String> transactionCalls = new CopyOnWriteArrayList<>();
    private final JdbcTaskStore store = JdbcTaskStore.builder(faulty()).build();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aClaimIsOneStatementWithoutATransactionAndLeavesItsTokenOnTheTask() throws SQLException {
        Task task = addTask("worker", "Ship it");
        long start = store.eventFeed().lastPosition();
        sent.clear();
        transactionCalls.clear();

        Task claimed = store.claimNext("worker", LEASE).orElseThrow();

        assertThat(claimed.id()).isEqualTo(task.id());
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.attempt()).isEqualTo(1);
        assertThat(claimed.comments()).hasSize(1);
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0)).startsWith("WITH claimed AS (UPDATE taskagent_tasks");
        assertThat(transactionCalls).containsOnly("setAutoCommit(true)");
        assertThat(claimToken(task.id())).hasSize(36);
        assertThat(store.eventFeed().read(start, 10))
                .extracting(FeedEvent::kind)
                .containsExactly("claimed");
    }

    @Test
    void anEmptyQueueCostsTwoReadsAndWritesNothing() {
        addTask("someone-else", "Not yours");
        long start = store.eventFeed().lastPosition();
        sent.clear();

        assertThat(store.claimNext("worker", LEASE)).isEmpty();

        assertThat(sent).hasSize(2);
        assertThat(store.eventFeed().read(start, 10)).isEmpty();
    }

    @Test
    void aClaimWhoseReplyWasLostAfterItCommittedIsFoundByItsTokenAndReturned() {
        Task first = addTask("worker", "First");
        Task second = addTask("worker", "Second");
        long start = store.eventFeed().lastPosition();
        fault.set(Fault.LOSE_THE_REPLY);

        Task claimed = store.claimNext("worker", LEASE).orElseThrow();

        assertFirstClaimOf(first, claimed);
        assertThat(claimed.leaseExpiresAt()).isNotNull();
        assertThat(claimed.comments()).hasSize(1);
        assertThat(status(second.id())).as("not claimed in its place").isEqualTo(TaskStatus.PENDING);
        assertThat(store.eventFeed().read(start, 10))
                .extracting(FeedEvent::kind, FeedEvent::taskId)
                .containsExactly(tuple("claimed", first.id()));
    }

    @Test
    void aClaimThatNeverReachedTheServerIsRunAgain() {
        Task first = addTask("worker", "First");
        long start = store.eventFeed().lastPosition();
        fault.set(Fault.FAIL_BEFORE_SENDING);

        Task claimed = store.claimNext("worker", LEASE).orElseThrow();

        assertFirstClaimOf(first, claimed);
        assertThat(store.eventFeed().read(start, 10))
                .extracting(FeedEvent::kind)
                .containsExactly("claimed");
    }

    @Test
    void whenTheClaimCannotBeLookedForTheErrorSaysSoAndTheLeaseBringsTheTaskBack() {
        Task task = addTask("worker", "Only");
        fault.set(Fault.LOSE_THE_REPLY_AND_THE_DATABASE);

        assertThatThrownBy(() -> store.claimNext("worker", LEASE))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageContaining("Could not claim the next task of 'worker'")
                .hasMessageContaining(
                        "Whether it committed is unknown; a task it claimed comes back when its lease" + " expires");

        databaseGone = false;
        Task stored = store.inTransaction(tx -> tx.findTask(task.id())).orElseThrow();
        assertThat(stored.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(stored.leaseExpiresAt()).as("running, but under a lease").isNotNull();
    }

    @Test
    void aStatementTheServerRefusedIsNeitherLookedForNorRunAgain() {
        Task task = addTask("worker", "Only");
        sent.clear();
        fault.set(Fault.REFUSE_THE_STATEMENT);

        assertThatThrownBy(() -> store.claimNext("worker", LEASE))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageContaining("Could not claim the next task of 'worker'")
                .hasMessageContaining("[SQLState 22001]")
                .hasMessageNotContaining("unknown");

        assertThat(sent).as("the claim once, and no lookup").hasSize(1);
        assertThat(status(task.id())).isEqualTo(TaskStatus.PENDING);
        assertThat(store.claimNext("worker", LEASE)).map(Task::id).contains(task.id());
    }

    /** The fault fired, and the claim returned is the task's first, running. */
    private void assertFirstClaimOf(Task expected, Task claimed) {
        assertThat(fault.get()).as("the fault fired").isEqualTo(Fault.NONE);
        assertThat(claimed.id()).isEqualTo(expected.id());
        assertThat(claimed.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(claimed.attempt()).isEqualTo(1);
    }

    private Task addTask(String assignee, String description) {
        Task task = store.inTransaction(tx -> tx.appendTask(
                NewTask.builder("own-statement", description).assignee(assignee).build()));
        store.inTransaction(tx -> tx.addComment(task.id(), "lead", "Mind the gap"));
        return task;
    }

    private TaskStatus status(long taskId) {
        return store.inTransaction(tx -> tx.findTask(taskId)).orElseThrow().status();
    }

    private String claimToken(long taskId) throws SQLException {
        try (Connection connection = real.getConnection();
                PreparedStatement statement =
                        connection.prepareStatement("SELECT claim_token FROM taskagent_tasks WHERE id = ?")) {
            statement.setLong(1, taskId);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getString(1);
            }
        }
    }

    // ---- a data source whose connections fail around the claim's statement, as the test says

    private DataSource faulty() {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("getConnection")) {
                        if (databaseGone) {
                            throw new SQLException("The database went away (fault injected by the test)", "08001");
                        }
                        return connection(real.getConnection());
                    }
                    return call(real, method, arguments);
                });
    }

    private Connection connection(Connection connection) {
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, arguments) -> {
                    switch (method.getName()) {
                        case "setAutoCommit", "commit", "rollback" ->
                            transactionCalls.add(
                                    method.getName() + (arguments == null ? "()" : "(" + arguments[0] + ")"));
                        default -> {}
                    }
                    Object result = call(connection, method, arguments);
                    if (method.getName().equals("prepareStatement")) {
                        return statement((PreparedStatement) result, (String) arguments[0]);
                    }
                    return result;
                });
    }

    private PreparedStatement statement(PreparedStatement statement, String sql) {
        return (PreparedStatement) Proxy.newProxyInstance(
                PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class},
                (proxy, method, arguments) -> {
                    if (!method.getName().equals("executeQuery")) {
                        return call(statement, method, arguments);
                    }
                    sent.add(sql);
                    if (!sql.startsWith("WITH claimed AS")) {
                        return call(statement, method, arguments);
                    }
                    Fault now = fault.getAndSet(Fault.NONE);
                    switch (now) {
                        case NONE -> {
                            return call(statement, method, arguments);
                        }
                        case FAIL_BEFORE_SENDING -> throw lost();
                        case REFUSE_THE_STATEMENT ->
                            throw new SQLException(
                                    "value too long for type character varying (fault injected by the test)", "22001");
                        default -> {
                            ((ResultSet) call(statement, method, arguments)).close(); // committed; reply dropped
                            databaseGone = now == Fault.LOSE_THE_REPLY_AND_THE_DATABASE;
                            throw lost();
                        }
                    }
                });
    }

    private static SQLException lost() {
        return new SQLException(
                "An I/O error occurred while sending to the backend (fault injected by the test)", "08006");
    }

    private static Object call(Object target, Method method, Object[] arguments) throws Throwable {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
