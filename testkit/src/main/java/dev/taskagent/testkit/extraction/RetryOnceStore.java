package dev.taskagent.testkit.extraction;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that, once armed, rolls the next unit of work back after it ran (as a database does on a
 * deadlock) and runs it again, as rule TS-1.7 allows. Thread-safe.
 */
final class RetryOnceStore implements TaskStore {
    private final TaskStore delegate;
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicInteger retries = new AtomicInteger();

    RetryOnceStore(TaskStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    void arm() {
        armed.set(true);
    }

    int retries() {
        return retries.get();
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        if (!armed.getAndSet(false)) {
            return delegate.inTransaction(work);
        }
        try {
            return delegate.inTransaction(transaction -> {
                work.execute(transaction);
                throw new TransientConflict();
            });
        } catch (TransientConflict conflict) {
            retries.incrementAndGet();
            return delegate.inTransaction(work);
        }
    }

    @Override
    public void close() {
        delegate.close();
    }

    private static final class TransientConflict extends TaskStoreException {
        private static final long serialVersionUID = 1L;

        TransientConflict() {
            super("simulated serialisation failure");
        }
    }
}
