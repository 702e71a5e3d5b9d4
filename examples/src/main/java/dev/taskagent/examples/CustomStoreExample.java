package dev.taskagent.examples;

import dev.taskagent.event.EventFeed;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writing your own {@link TaskStore}: here a decorator that counts committed and rolled-back units of
 * work of any store (the shape of a metrics or tracing store). Its test, {@code
 * CountingTaskStoreConformanceTest}, proves it keeps the SPI's contract by running the conformance kit
 * of {@code taskagent-testkit} with a three-line subclass; a store written from scratch is proved the
 * same way.
 */
public final class CustomStoreExample {
    private CustomStoreExample() {}

    /** Counts the units of work of another store. Thread-safe when the wrapped store is. */
    public static final class CountingTaskStore implements TaskStore {
        private final TaskStore delegate;
        private final AtomicLong committed = new AtomicLong();
        private final AtomicLong rolledBack = new AtomicLong();

        /**
         * Wraps a store.
         *
         * @param delegate the store that does the work
         */
        public CountingTaskStore(TaskStore delegate) {
            this.delegate = Objects.requireNonNull(delegate, "delegate");
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            try {
                R result = delegate.inTransaction(work);
                committed.incrementAndGet();
                return result;
            } catch (RuntimeException | Error e) {
                rolledBack.incrementAndGet();
                throw e;
            }
        }

        /** @return how many units of work committed */
        public long committed() {
            return committed.get();
        }

        /** @return how many units of work rolled back */
        public long rolledBack() {
            return rolledBack.get();
        }

        /**
         * Forwards to the wrapped store: the feed is written in the delegate's transactions, so a wrapper
         * that does not forward it would hide the feed from everyone who uses the wrapper.
         */
        @Override
        public EventFeed eventFeed() {
            return delegate.eventFeed();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }

    /**
     * Commits one unit of work and rolls one back, then prints the counts.
     *
     * @param out where to print
     * @return the store, with its counts
     */
    public static CountingTaskStore run(PrintStream out) {
        CountingTaskStore store = new CountingTaskStore(new InMemoryTaskStore());
        store.inTransaction(transaction -> transaction.appendTask(NewTask.of("demo", "Water the plants")));
        try {
            store.inTransaction(transaction -> {
                transaction.appendTask(NewTask.of("demo", "This one is rolled back"));
                throw new IllegalStateException("simulated failure");
            });
        } catch (IllegalStateException expected) {
            out.println("rolled back: " + expected.getMessage());
        }
        out.println("tasks: " + store.listTasks("demo").size() + ", committed: " + store.committed() + ", rolled back: "
                + store.rolledBack());
        return store;
    }
}
