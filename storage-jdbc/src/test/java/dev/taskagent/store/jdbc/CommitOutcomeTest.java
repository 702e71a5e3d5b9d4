package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.CommitOutcomeUnknownException;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A completion whose commit fails: the caller, and the model calling {@code complete_task}, learn whether
 * it was rolled back for sure or whether the connection was lost during the commit and the outcome is
 * unknown; only the second is a {@link CommitOutcomeUnknownException}, and the tool then says how to check.
 */
class CommitOutcomeTest {
    private static final String AGENT = "worker";
    private static final String UNKNOWN_TEXT = "The call to complete_task reached the task store, but the connection"
            + " to it was lost while the change was being saved, so whether it was saved is unknown. Read the task"
            + " with get_task before calling complete_task again: repeating a change that was saved may be"
            + " refused or may apply twice.";

    /** What the proxied connections do on their next commit. */
    private enum CommitFault {
        NONE,
        /** The database commits, then the reply is lost with the connection. */
        COMMIT_THEN_LOSE_REPLY,
        /** The database refuses the commit and rolls back (an error that is not a lost connection). */
        REFUSE
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aCommitWhoseReplyIsLostIsReportedAsUnknownAndTheToolSaysHowToCheck(TestDatabase database) {
        AtomicReference<CommitFault> fault = new AtomicReference<>(CommitFault.NONE);
        try (JdbcTaskStore store =
                JdbcTaskStore.builder(faulty(database.newDataSource(), fault)).build()) {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task claimed = claimedTask(queue, "lost reply");

            fault.set(CommitFault.COMMIT_THEN_LOSE_REPLY);
            assertThatThrownBy(() -> queue.complete(claimed.id(), AGENT, claimed.attempt(), TaskStatus.SUCCESS, null))
                    .isInstanceOf(CommitOutcomeUnknownException.class)
                    .hasMessageContaining(
                            "whether it committed is unknown: read what it changed before running it" + " again");
            assertThat(queue.get(claimed.id()).orElseThrow().status())
                    .as("the completion committed")
                    .isEqualTo(TaskStatus.SUCCESS);

            Task second = claimedTask(queue, "lost reply, through the tool");
            fault.set(CommitFault.COMMIT_THEN_LOSE_REPLY);
            assertThat(completeTask(queue.tools(), second)).isEqualTo(ToolResult.error(UNKNOWN_TEXT));
            assertThat(queue.get(second.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aCommitTheDatabaseRefusesIsReportedAsRolledBackAndWritesNothing(TestDatabase database) {
        AtomicReference<CommitFault> fault = new AtomicReference<>(CommitFault.NONE);
        try (JdbcTaskStore store =
                JdbcTaskStore.builder(faulty(database.newDataSource(), fault)).build()) {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task claimed = claimedTask(queue, "refused commit");

            fault.set(CommitFault.REFUSE);
            assertThatThrownBy(() -> queue.complete(claimed.id(), AGENT, claimed.attempt(), TaskStatus.SUCCESS, null))
                    .isInstanceOf(TaskStoreException.class)
                    .isNotInstanceOf(CommitOutcomeUnknownException.class)
                    .hasMessageEndingWith(". It was rolled back");
            Task after = queue.get(claimed.id()).orElseThrow();
            assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
            assertThat(after.attempt()).isEqualTo(claimed.attempt());

            queue.complete(claimed.id(), AGENT, claimed.attempt(), TaskStatus.SUCCESS, null);
            assertThat(queue.get(claimed.id()).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
        }
    }

    /**
     * The real thing on PostgreSQL: the server kills the session while it runs the COMMIT (a deferred
     * trigger holds the commit long enough to aim at it). The outcome is unknown to the client; the tool says
     * so, and get_task shows the truth (here: rolled back, so the completion can be made again).
     */
    @Test
    void theServerKillingTheConnectionDuringCommitIsReportedAsUnknown() throws Exception {
        assumeThat(TestDatabase.POSTGRES.isConfigured())
                .as("TASKAGENT_TEST_POSTGRES_URL is set")
                .isTrue();
        String application = "ta-commit-kill-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt());
        String url = TestDatabase.POSTGRES.newUrl() + "&ApplicationName=" + application;
        try (JdbcTaskStore store = JdbcTaskStore.builder(url).build()) {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task claimed = claimedTask(queue, "killed during commit");
            try (Connection admin = DriverManager.getConnection(url);
                    Statement statement = admin.createStatement()) {
                statement.execute("CREATE FUNCTION slow_completion() RETURNS trigger LANGUAGE plpgsql AS $$"
                        + " BEGIN IF NEW.status = 'success' THEN PERFORM pg_sleep(30); END IF; RETURN NULL; END $$");
                statement.execute("CREATE CONSTRAINT TRIGGER slow_completion AFTER UPDATE ON taskagent_tasks"
                        + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_completion()");
            }
            CompletableFuture<Integer> killer = CompletableFuture.supplyAsync(() -> killCommit(url, application));

            ToolResult result = completeTask(queue.tools(), claimed);

            assertThat(killer.get(30, TimeUnit.SECONDS))
                    .as("sessions killed during COMMIT")
                    .isEqualTo(1);
            assertThat(result).isEqualTo(ToolResult.error(UNKNOWN_TEXT));
            Task after = queue.get(claimed.id()).orElseThrow();
            assertThat(after.status()).as("the kill came before the commit").isEqualTo(TaskStatus.RUNNING);
        }
    }

    /** Waits for a session of the application to sleep in its COMMIT, then has the server kill it. */
    private static int killCommit(String url, String application) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        try (Connection admin = DriverManager.getConnection(url);
                Statement statement = admin.createStatement()) {
            while (Instant.now().isBefore(deadline)) {
                try (ResultSet killed = statement.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE application_name = '" + application + "' AND query = 'COMMIT'"
                        + " AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()")) {
                    int count = 0;
                    while (killed.next()) {
                        count += killed.getBoolean(1) ? 1 : 0;
                    }
                    if (count > 0) {
                        return count;
                    }
                }
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
            return 0;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Task claimedTask(TaskQueue queue, String description) {
        queue.store()
                .inTransaction(tx -> tx.appendTask(NewTask.builder("commit-outcome", description)
                        .assignee(AGENT)
                        .build()));
        return queue.claimNext(AGENT).orElseThrow();
    }

    private static ToolResult completeTask(Toolbox tools, Task claimed) {
        return tools.call(new ToolCall(
                "call-1",
                "complete_task",
                "{\"task_id\": " + claimed.id() + ", \"agent_name\": \"" + AGENT + "\", \"attempt\": "
                        + claimed.attempt() + ", \"status\": \"success\"}"));
    }

    /** Connections whose next commit fails as {@code fault} says, once. */
    private static DataSource faulty(DataSource real, AtomicReference<CommitFault> fault) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    Object result = call(real, method, arguments);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection connection = (Connection) result;
                    return Proxy.newProxyInstance(
                            Connection.class.getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (connectionProxy, connectionMethod, connectionArguments) -> {
                                if (connectionMethod.getName().equals("commit")) {
                                    switch (fault.getAndSet(CommitFault.NONE)) {
                                        case COMMIT_THEN_LOSE_REPLY -> {
                                            connection.commit();
                                            throw new SQLException(
                                                    "An I/O error occurred while reading from the backend (fault"
                                                            + " injected by the test)",
                                                    "08006");
                                        }
                                        case REFUSE -> {
                                            connection.rollback();
                                            throw new SQLException(
                                                    "The commit was refused (fault injected by the test)", "XX000");
                                        }
                                        case NONE -> {}
                                    }
                                }
                                return call(connection, connectionMethod, connectionArguments);
                            });
                });
    }

    private static Object call(Object target, Method method, Object[] arguments) throws Throwable {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
