package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.CommitOutcomeUnknownException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim in a unit of work whose commit fails: the store looks for the claim on a fresh connection.
 *
 * <p>First, the commit did not happen, and before the store looks, another worker under the same agent name claims
 * the same task (its attempt is the one the failed claim had counted). The store must not take that claim
 * for its own: it would hand one task to two workers, which then both hold the same attempt. The claim's
 * token tells them apart; the failed claim runs again and finds the queue empty.
 *
 * <p>Then the commit happened and its reply was lost, and the server takes the lookup's connections too (as
 * when it ends every session at once): the lookup runs again on another connection and finds the claim, up
 * to {@link Claims#LOOKUP_ATTEMPTS} connections; past them, the caller is told the outcome is unknown.
 */
class LostClaimCommitTest {
    private static final String AGENT = "worker";
    private static final Duration LEASE = Duration.ofMinutes(5);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aRolledBackClaimIsNotMistakenForAnotherWorkersClaimOfTheSameTask(TestDatabase database) {
        DataSource real = database.newDataSource();
        AtomicBoolean failNextCommit = new AtomicBoolean();
        try (JdbcTaskStore other = JdbcTaskStore.builder(real).build();
                JdbcTaskStore store = JdbcTaskStore.builder(failingCommit(real, failNextCommit, other))
                        .build()) {
            Task task = other.inTransaction(tx -> tx.appendTask(
                    NewTask.builder("lost-commit", "Only one").assignee(AGENT).build()));
            failNextCommit.set(true);

            Optional<Task> mine = store.inTransaction(tx -> tx.claimNext(AGENT, LEASE));

            assertThat(failNextCommit).as("the commit failed").isFalse();
            Task theirs = other.inTransaction(tx -> tx.findTask(task.id())).orElseThrow();
            assertThat(theirs.attempt()).as("the other worker's claim").isEqualTo(1);
            assertThat(mine).as("the task is the other worker's").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aCommittedClaimIsFoundThoughTheLookupsConnectionsAreLostToo(TestDatabase database) {
        DataSource real = database.newDataSource();
        AtomicBoolean loseNextCommitReply = new AtomicBoolean();
        AtomicInteger lostLookups = new AtomicInteger();
        try (JdbcTaskStore store = JdbcTaskStore.builder(lostReplies(real, loseNextCommitReply, lostLookups))
                .build()) {
            Task task = store.inTransaction(
                    tx -> tx.appendTask(NewTask.builder("lost-reply", "Found on the third connection")
                            .assignee(AGENT)
                            .build()));
            loseNextCommitReply.set(true);
            lostLookups.set(2);

            Optional<Task> mine = store.inTransaction(tx -> tx.claimNext(AGENT, LEASE));

            assertThat(lostLookups).as("lookups whose connection was lost").hasValue(0);
            assertThat(mine).as("the committed claim").isPresent();
            assertThat(mine.get().id()).isEqualTo(task.id());
            assertThat(mine.get().attempt()).isEqualTo(1);
            assertThat(store.inTransaction(tx -> tx.findTask(task.id())).orElseThrow())
                    .as("a claim equals a read")
                    .isEqualTo(mine.get());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aCommittedBatchClaimWhoseReplyWasLostIsHandedOutWhole(TestDatabase database) {
        DataSource real = database.newDataSource();
        AtomicBoolean loseNextCommitReply = new AtomicBoolean();
        AtomicInteger lostLookups = new AtomicInteger();
        try (JdbcTaskStore store = JdbcTaskStore.builder(lostReplies(real, loseNextCommitReply, lostLookups))
                .build()) {
            List<Long> created = new ArrayList<>();
            for (int number = 1; number <= 5; number++) {
                int priority = 10 - number;
                created.add(store.inTransaction(tx -> tx.appendTask(NewTask.builder("lost-batch", "Task " + priority)
                                .assignee(AGENT)
                                .priority(priority)
                                .build()))
                        .id());
            }
            loseNextCommitReply.set(true);
            lostLookups.set(1);

            List<Task> mine = store.claimUpTo(AGENT, LEASE, 4);

            assertThat(loseNextCommitReply).as("the commit's reply was lost").isFalse();
            assertThat(lostLookups).as("lookups whose connection was lost").hasValue(0);
            assertThat(mine).extracting(Task::id).containsExactlyElementsOf(created.subList(0, 4));
            for (Task task : mine) {
                assertThat(task.attempt()).isEqualTo(1);
                assertThat(store.findTask(task.id()).orElseThrow())
                        .as("a claim equals a read")
                        .isEqualTo(task);
            }
            assertThat(store.claimUpTo(AGENT, LEASE, 4))
                    .as("the batch was claimed once")
                    .extracting(Task::id)
                    .containsExactly(created.get(4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.TestDatabase#configured")
    void aClaimWhoseLookupsAllLoseTheirConnectionIsReportedAsUnknown(TestDatabase database) {
        DataSource real = database.newDataSource();
        AtomicBoolean loseNextCommitReply = new AtomicBoolean();
        AtomicInteger lostLookups = new AtomicInteger();
        try (JdbcTaskStore store = JdbcTaskStore.builder(lostReplies(real, loseNextCommitReply, lostLookups))
                .build()) {
            Task task = store.inTransaction(tx -> tx.appendTask(
                    NewTask.builder("lost-reply", "Never found").assignee(AGENT).build()));
            loseNextCommitReply.set(true);
            lostLookups.set(Claims.LOOKUP_ATTEMPTS);

            assertThatThrownBy(() -> store.inTransaction(tx -> tx.claimNext(AGENT, LEASE)))
                    .isInstanceOf(CommitOutcomeUnknownException.class);
            assertThat(lostLookups).as("every lookup was tried").hasValue(0);
            assertThat(store.inTransaction(tx -> tx.findTask(task.id()))
                            .orElseThrow()
                            .attempt())
                    .as("the claim committed")
                    .isEqualTo(1);
        }
    }

    /**
     * Connections whose next commit commits and then loses its reply with the connection, and of which the
     * next {@code lostLookups} fail on their first statement as lost connections. They do not tell their
     * server session, so the lookup does not wait for the session to end (the pool keeps it open).
     */
    private static DataSource lostReplies(
            DataSource real, AtomicBoolean loseNextCommitReply, AtomicInteger lostLookups) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    Object result = call(real, method, arguments);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection connection = (Connection) result;
                    AtomicBoolean lost = new AtomicBoolean();
                    return Proxy.newProxyInstance(
                            Connection.class.getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (connectionProxy, connectionMethod, connectionArguments) -> {
                                String name = connectionMethod.getName();
                                if (name.equals("isWrapperFor")) {
                                    return false; // no server session to wait for: the pool keeps it open
                                }
                                if (name.equals("commit") && loseNextCommitReply.getAndSet(false)) {
                                    connection.commit();
                                    throw new SQLException(
                                            "An I/O error occurred while reading from the backend (fault injected"
                                                    + " by the test)",
                                            "08006");
                                }
                                if (name.equals("prepareStatement")
                                        && !loseNextCommitReply.get()
                                        && (lost.get() || lostLookups.getAndUpdate(n -> Math.max(0, n - 1)) > 0)) {
                                    lost.set(true);
                                    throw new SQLException(
                                            "This connection has been closed (fault injected by the test)", "08003");
                                }
                                return call(connection, connectionMethod, connectionArguments);
                            });
                });
    }

    /**
     * Connections whose next commit rolls back instead, lets the other store claim, and then fails as a
     * connection that died during the commit would.
     */
    private static DataSource failingCommit(DataSource real, AtomicBoolean failNextCommit, JdbcTaskStore other) {
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
                                if (connectionMethod.getName().equals("commit") && failNextCommit.getAndSet(false)) {
                                    connection.rollback();
                                    assertThat(other.claimNext(AGENT, LEASE)).isPresent();
                                    throw new SQLException(
                                            "An I/O error occurred while sending to the backend (fault injected by"
                                                    + " the test)",
                                            "08006");
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
