package dev.taskagent.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.engine.TransactionRunner;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** TransactionRunner (core, internal) on a real store: events after commit only, listener failures contained. */
class TransactionRunnerTest {
    private final InMemoryTaskStore store = new InMemoryTaskStore(MutableClock.standard());

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void eventsArePublishedAfterTheUnitOfWorkCommitted() {
        List<String> seen = new ArrayList<>();
        TaskListener listener = event -> {
            // A listener called inside the unit of work could not open a transaction of its own (TS-1.5),
            // and would not find the task from another one.
            Optional<Task> stored = store.findTask(event.task().id());
            seen.add(event.getClass().getSimpleName() + " " + event.task().description() + " stored="
                    + stored.isPresent());
        };
        TransactionRunner runner = new TransactionRunner(store, List.of(listener));

        Task created = runner.run((tx, events) -> {
            Task task = tx.appendTask(NewTask.of("session", "book a table"));
            events.add(new TaskEvent.Created(task));
            assertThat(seen).as("events seen before the commit").isEmpty();
            return task;
        });

        assertThat(seen).containsExactly("Created book a table stored=true");
        assertThat(store.findTask(created.id())).isPresent();
    }

    @Test
    void rolledBackUnitOfWorkPublishesNothing() {
        List<TaskEvent> seen = new ArrayList<>();
        TransactionRunner runner = new TransactionRunner(store, List.of(seen::add));
        IllegalStateException failure = new IllegalStateException("the tool failed");

        assertThatThrownBy(() -> runner.run((tx, events) -> {
                    events.add(new TaskEvent.Created(tx.appendTask(NewTask.of("session", "rolled back"))));
                    throw failure;
                }))
                .isSameAs(failure);

        assertThat(seen).isEmpty();
        assertThat(store.listTasks("session")).isEmpty();
    }

    @Test
    void listenersHearEveryEventInOrder() {
        List<String> heard = new ArrayList<>();
        TaskListener first = event -> heard.add("first: " + event.task().description());
        TaskListener second = event -> heard.add("second: " + event.task().description());
        TransactionRunner runner = new TransactionRunner(store, List.of(first, second));

        runner.run((tx, events) -> {
            events.add(new TaskEvent.Created(tx.appendTask(NewTask.of("session", "a"))));
            events.add(new TaskEvent.Created(tx.appendTask(NewTask.of("session", "b"))));
            return null;
        });

        assertThat(heard).containsExactly("first: a", "second: a", "first: b", "second: b");
    }

    @Test
    void throwingListenerIsLoggedAndTheOtherListenersStillGetTheEvent() {
        List<TaskEvent> heard = new ArrayList<>();
        TaskListener broken = event -> {
            throw new IllegalStateException("listener bug");
        };
        TransactionRunner runner = new TransactionRunner(store, List.of(broken, heard::add));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        Task created;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            created = runner.run((tx, events) -> {
                Task task = tx.appendTask(NewTask.of("session", "survives the listener"));
                events.add(new TaskEvent.Created(task));
                events.add(new TaskEvent.ProgressAppended(task, "first step"));
                return task;
            });
        } finally {
            System.setErr(originalErr);
        }

        assertThat(heard).hasSize(2);
        assertThat(store.findTask(created.id())).isPresent();
        String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(logged)
                .contains("failed on Created for task " + created.id() + "; ignored")
                .contains("failed on ProgressAppended for task " + created.id() + "; ignored")
                .contains("listener bug");
    }

    @Test
    void unitOfWorkRunTwiceByTheStorePublishesTheEventsOfTheCommittedAttemptOnly() {
        List<TaskEvent> heard = new ArrayList<>();
        TransactionRunner runner = new TransactionRunner(new RetryingOnceStore(store), List.of(heard::add));

        Task created = runner.run((tx, events) -> {
            Task task = tx.appendTask(NewTask.of("session", "attempt"));
            events.add(new TaskEvent.Created(task));
            return task;
        });

        assertThat(heard).containsExactly(new TaskEvent.Created(created));
        assertThat(store.listTasks("session")).containsExactly(created);
    }

    /** A store that rolls every unit of work back once and runs it again, as TS-1.7 allows after a conflict. */
    private static final class RetryingOnceStore implements TaskStore {
        private final TaskStore delegate;

        RetryingOnceStore(TaskStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            try {
                delegate.inTransaction(tx -> {
                    work.execute(tx);
                    throw new TransientConflict();
                });
            } catch (TransientConflict e) {
                // rolled back; run the work again
            }
            return delegate.inTransaction(work);
        }
    }

    private static final class TransientConflict extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
