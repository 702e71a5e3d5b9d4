package dev.taskagent.internal.engine;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs units of work on a store and tells listeners about their events once they committed, never for
 * work that rolled back.
 *
 * <p>Thread-safe when the listener list is not changed after construction (it is copied).
 */
public final class TransactionRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionRunner.class);

    /** A unit of work that may record events. */
    @FunctionalInterface
    public interface Work<R> {
        /**
         * Does the work.
         *
         * @param transaction the store's transaction
         * @param events where to record what happened, published after commit
         * @return the result
         */
        R execute(TaskTransaction transaction, List<TaskEvent> events);
    }

    private final TaskStore store;
    private final List<TaskListener> listeners;

    /**
     * Creates a runner.
     *
     * @param store the store
     * @param listeners told about committed events, in this order
     */
    public TransactionRunner(TaskStore store, List<TaskListener> listeners) {
        this.store = Objects.requireNonNull(store, "store");
        this.listeners = List.copyOf(listeners);
    }

    /** @return the store */
    public TaskStore store() {
        return store;
    }

    /**
     * Runs the work in one transaction, then publishes the events it recorded.
     *
     * @param work the work
     * @param <R> the result type
     * @return the work's result
     */
    public <R> R run(Work<R> work) {
        List<TaskEvent> events = new ArrayList<>();
        R result = store.inTransaction(transaction -> {
            events.clear(); // a store that retries the work must not publish the events of a failed attempt
            R value = work.execute(transaction, events);
            events.forEach(transaction::recordEvent); // into the feed, in the same transaction
            return value;
        });
        publish(events);
        return result;
    }

    /**
     * Tells every listener about each event; a listener's exception is logged and skipped.
     *
     * @param events committed events, in order
     */
    public void publish(List<TaskEvent> events) {
        for (TaskEvent event : events) {
            for (TaskListener listener : listeners) {
                try {
                    listener.onEvent(event);
                } catch (RuntimeException e) {
                    LOG.warn(
                            "TaskListener {} failed on {} for task {}; ignored",
                            listener,
                            event.getClass().getSimpleName(),
                            event.task().id(),
                            e);
                }
            }
        }
    }
}
