package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The public surface: construction, validation, transactions' boundaries, closing. On H2 in memory. */
class JdbcTaskStoreApiTest {

    @Test
    void buildersRefuseBadArgumentsAtOnce() {
        assertThatThrownBy(() -> new JdbcTaskStore(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("dataSource");
        assertThatThrownBy(() -> JdbcTaskStore.open(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("jdbcUrl");
        assertThatThrownBy(() -> JdbcTaskStore.open("h2:mem:x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("jdbcUrl must start with 'jdbc:', was 'h2:mem:x'; for example jdbc:h2:file:./data/tasks");
        JdbcTaskStore.Builder builder = JdbcTaskStore.builder("jdbc:h2:mem:x");
        assertThatThrownBy(() -> builder.dialect(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.clock(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aUrlWithoutADriverFailsWithAMessageThatSaysWhatToCheckAndHidesThePassword() {
        assertThatThrownBy(() -> JdbcTaskStore.open("jdbc:nosuchdb://host/db?user=u&password=secret"))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageStartingWith("Could not connect to jdbc:nosuchdb://host/db?user=u&password=***: ")
                .hasMessageEndingWith("Check the URL, and that its JDBC driver is on the class path")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    @Test
    void aDialectThatDoesNotMatchTheDatabaseFailsAtStartAndSaysWhy() {
        String url = "jdbc:h2:mem:" + TestDatabase.newSchemaName();

        assertThatThrownBy(() ->
                        JdbcTaskStore.builder(url).dialect(JdbcDialect.MARIADB).build())
                .isInstanceOf(TaskStoreException.class)
                .hasMessageStartingWith("Could not start the JDBC TaskStore on " + url + ": ")
                .hasMessageContaining("GET_LOCK");
    }

    @Test
    void openedWithAUrlTheStoreOwnsItsConnectionsAndTimesComeFromItsClock() {
        MutableClock clock = MutableClock.at(Instant.parse("2030-05-06T07:08:09.123456789Z"));
        Task task;
        String url = "jdbc:h2:mem:" + TestDatabase.newSchemaName();
        try (JdbcTaskStore store = JdbcTaskStore.builder(url).clock(clock).build()) {
            task = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "timed")));
            assertThat(store.dialect()).isEqualTo(JdbcDialect.H2);
            assertThat(store.findTask(task.id())).contains(task);
        }
        // Microseconds are what every supported database keeps.
        assertThat(task.createdAt()).isEqualTo(Instant.parse("2030-05-06T07:08:09.123456Z"));
        // An in-memory H2 database lives as long as the store that opened it.
        try (JdbcTaskStore again = JdbcTaskStore.open(url)) {
            assertThat(again.listTasks("s")).isEmpty();
        }
    }

    @Test
    void aClosedStoreRefusesWorkAndClosingTwiceIsFine() {
        JdbcTaskStore store = TestDatabase.H2.newStore(MutableClock.standard());
        store.close();
        store.close();

        assertThatThrownBy(() -> store.listTasks("s"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("This JdbcTaskStore is closed");
    }

    @Test
    void closingAStoreLeavesTheCallersDataSourceOpen() {
        DataSource dataSource = TestDatabase.H2.newDataSource();
        JdbcTaskStore.builder(dataSource).build().close();

        try (JdbcTaskStore store = new JdbcTaskStore(dataSource)) {
            assertThat(store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "still here")))
                            .order())
                    .isEqualTo(1);
        }
    }

    @Test
    void aNestedUnitOfWorkIsRefusedAndTheOuterOneGoesOn() {
        try (JdbcTaskStore store = TestDatabase.H2.newStore(MutableClock.standard())) {
            List<Task> tasks = store.inTransaction(tx -> {
                tx.appendTask(NewTask.of("s", "outer"));
                assertThatThrownBy(() -> store.inTransaction(inner -> inner.appendTask(NewTask.of("s", "inner"))))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("inside a unit of work of the same store");
                return tx.listTasks("s");
            });

            assertThat(tasks).extracting(Task::description).containsExactly("outer");
            assertThat(store.listTasks("s")).isEqualTo(tasks);
        }
    }

    @Test
    void aTransactionIsUsableOnlyOnItsThreadAndOnlyDuringItsUnitOfWork() throws Exception {
        try (JdbcTaskStore store = TestDatabase.H2.newStore(MutableClock.standard())) {
            AtomicReference<TaskTransaction> kept = new AtomicReference<>();
            store.inTransaction(tx -> {
                kept.set(tx);
                Throwable fromOtherThread = CompletableFuture.supplyAsync(() -> {
                            try {
                                tx.listTasks("s");
                                return null;
                            } catch (IllegalStateException e) {
                                return e;
                            }
                        })
                        .join();
                assertThat(fromOtherThread).hasMessageContaining("only be used on the thread of its unit of work");
                return null;
            });

            assertThatThrownBy(() -> kept.get().appendTask(NewTask.of("s", "late")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("This TaskTransaction ended with its unit of work");
            assertThat(store.listTasks("s")).isEmpty();
        }
    }

    @Test
    void anExceptionOfTheUnitOfWorkRollsItBackAndReachesTheCallerUnchanged() {
        try (JdbcTaskStore store = TestDatabase.H2.newStore(MutableClock.standard())) {
            IllegalStateException thrown = new IllegalStateException("changed my mind");
            assertThatThrownBy(() -> store.inTransaction(tx -> {
                        tx.appendTask(NewTask.of("s", "undone"));
                        throw thrown;
                    }))
                    .isSameAs(thrown);
            assertThat(store.listTasks("s")).isEmpty();
            StackOverflowError error = new StackOverflowError();
            assertThatThrownBy(() -> store.inTransaction(tx -> {
                        tx.appendTask(NewTask.of("s", "undone too"));
                        throw error;
                    }))
                    .isSameAs(error);
            assertThat(store.listTasks("s")).isEmpty();
        }
    }

    @Test
    void toStringNamesTheDialectAndTheSourceWithoutPasswords() {
        try (JdbcTaskStore store =
                JdbcTaskStore.open("jdbc:h2:mem:" + TestDatabase.newSchemaName() + ";USER=sa;PASSWORD=hidden")) {
            assertThat(store.toString())
                    .startsWith("JdbcTaskStore[H2, jdbc:h2:mem:")
                    .doesNotContain("hidden");
        }
    }
}
