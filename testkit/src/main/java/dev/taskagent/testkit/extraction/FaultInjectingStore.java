package dev.taskagent.testkit.extraction;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store that passes everything to a real store, and can be armed to throw on the n-th write from then
 * on, inside the transaction (the way a database fails in the middle of a unit of work), or to fail the
 * next unit of work after it ran (the way a commit fails). Thread-safe.
 */
final class FaultInjectingStore implements TaskStore {
    private final TaskStore delegate;
    private final AtomicInteger writesUntilFailure = new AtomicInteger(-1);
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final AtomicReference<RuntimeException> commitFailure = new AtomicReference<>();

    FaultInjectingStore(TaskStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Makes the {@code writeNumber}-th write from now on throw {@code fault}. */
    void failOnWrite(int writeNumber, RuntimeException fault) {
        failure.set(fault);
        writesUntilFailure.set(writeNumber);
    }

    /** Makes the next unit of work throw {@code fault} after it ran, so that the store rolls it back. */
    void failNextCommit(RuntimeException fault) {
        commitFailure.set(fault);
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        RuntimeException atCommit = commitFailure.getAndSet(null);
        return delegate.inTransaction(transaction -> {
            R result = work.execute(new Transaction(transaction));
            if (atCommit != null) {
                throw atCommit;
            }
            return result;
        });
    }

    @Override
    public void close() {
        delegate.close();
    }

    private void beforeWrite() {
        if (writesUntilFailure.get() > 0 && writesUntilFailure.decrementAndGet() == 0) {
            throw failure.get();
        }
    }

    private final class Transaction extends ForwardingTaskTransaction {
        Transaction(TaskTransaction delegate) {
            super(delegate);
        }

        @Override
        public Task insertTask(NewTask task, int afterOrder) {
            beforeWrite();
            return delegate().insertTask(task, afterOrder);
        }

        @Override
        public Task updateTask(TaskUpdate update) {
            beforeWrite();
            return delegate().updateTask(update);
        }

        @Override
        public Task appendProgress(long taskId, String progress) {
            beforeWrite();
            return delegate().appendProgress(taskId, progress);
        }

        @Override
        public Task addComment(long taskId, String author, String text) {
            beforeWrite();
            return delegate().addComment(taskId, author, text);
        }

        @Override
        public Task addLink(long taskId, String url, String description, String author) {
            beforeWrite();
            return delegate().addLink(taskId, url, description, author);
        }

        @Override
        public Task linkMessages(long taskId, List<String> messageIds) {
            beforeWrite();
            return delegate().linkMessages(taskId, messageIds);
        }

        @Override
        public void linkMessagesToPlanningSection(String sessionId, List<String> messageIds) {
            beforeWrite();
            delegate().linkMessagesToPlanningSection(sessionId, messageIds);
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            beforeWrite();
            return delegate().claimNext(assignee, lease);
        }
    }
}
