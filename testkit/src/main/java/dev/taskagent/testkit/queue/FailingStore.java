package dev.taskagent.testkit.queue;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that fails inside the unit of work right after one chosen write succeeded, to prove that the
 * queue's operations roll back as a whole; or that refuses updates as stale, as a lost race would; or
 * that runs every unit of work twice, as a store may after a transient conflict (TS-1.7). Every other call goes to the real store unchanged, so the
 * fault is the same on every store the suite runs on.
 */
final class FailingStore implements TaskStore {

    /** Where the unit of work fails. */
    enum Fault {
        /** After {@code claimNext} returned a task. */
        AFTER_CLAIM,
        /** After {@code updateTask} wrote the change. */
        AFTER_UPDATE,
        /** After {@code addComment} wrote the comment. */
        AFTER_COMMENT,
        /** The first {@code updateTask} finds the task changed by someone else, as in a race. */
        STALE_ONCE,
        /** Every {@code updateTask} finds the task changed by someone else. */
        STALE_ALWAYS,
        /**
         * Every unit of work runs once, is rolled back as after a deadlock, and runs again: the retry that
         * rule TS-1.7 allows a store.
         */
        RERUN
    }

    private final TaskStore delegate;
    private final Fault fault;
    private final AtomicInteger staleUpdates = new AtomicInteger();
    private final AtomicInteger reruns = new AtomicInteger();

    FailingStore(TaskStore delegate, Fault fault) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.fault = Objects.requireNonNull(fault, "fault");
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        if (fault == Fault.RERUN) {
            try {
                delegate.inTransaction(transaction -> {
                    work.execute(new FailingTransaction(transaction));
                    throw new TransientConflict();
                });
            } catch (TransientConflict conflict) {
                reruns.incrementAndGet();
            }
        }
        return delegate.inTransaction(transaction -> work.execute(new FailingTransaction(transaction)));
    }

    /** @return how many units of work this store rolled back and ran again */
    int reruns() {
        return reruns.get();
    }

    /** @return how many updates this store refused as stale */
    int staleUpdates() {
        return staleUpdates.get();
    }

    private TaskStoreException injected(String what) {
        return new TaskStoreException("injected failure after " + what + " (" + fault + ")");
    }

    private final class FailingTransaction extends ForwardingTaskTransaction {
        FailingTransaction(TaskTransaction delegate) {
            super(delegate);
        }

        @Override
        public Task updateTask(TaskUpdate update) {
            if (fault == Fault.STALE_ALWAYS || (fault == Fault.STALE_ONCE && staleUpdates.get() == 0)) {
                staleUpdates.incrementAndGet();
                long expected = update.expectedVersion().orElse(0);
                throw new StaleTaskException(update.taskId(), expected, expected + 1);
            }
            Task updated = delegate().updateTask(update);
            if (fault == Fault.AFTER_UPDATE) {
                throw injected("the update of task " + update.taskId());
            }
            return updated;
        }

        @Override
        public Task addComment(long taskId, String author, String text) {
            Task commented = delegate().addComment(taskId, author, text);
            if (fault == Fault.AFTER_COMMENT) {
                throw injected("the comment on task " + taskId);
            }
            return commented;
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            Optional<Task> claimed = delegate().claimNext(assignee, lease);
            if (fault == Fault.AFTER_CLAIM && claimed.isPresent()) {
                throw injected("claiming task " + claimed.get().id());
            }
            return claimed;
        }
    }

    private static final class TransientConflict extends TaskStoreException {
        private static final long serialVersionUID = 1L;

        TransientConflict() {
            super("simulated serialisation failure");
        }
    }
}
