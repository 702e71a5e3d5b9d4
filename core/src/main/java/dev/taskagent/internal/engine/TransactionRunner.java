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
     * Runs the work in one transaction, then publishes the events it recorded and, after each of them in
     * the order added, the events the store appended to its feed itself (which are not recorded again).
     *
     * @param work the work; its third list takes the events the store recorded on its own
     * @param <R> the result type
     * @return the work's result
     */
    public <R> R runWithStoreEvents(StoreEventsWork<R> work) {
        List<TaskEvent> events = new ArrayList<>();
        List<TaskEvent> storeEvents = new ArrayList<>();
        R result = store.inTransaction(transaction -> {
            events.clear();
            storeEvents.clear();
            R value = work.execute(transaction, events, storeEvents);
            events.forEach(transaction::recordEvent);
            return value;
        });
        List<TaskEvent> all = new ArrayList<>(events);
        all.addAll(storeEvents);
        publish(all);
        return result;
    }

    /** A unit of work some of whose events the store records in its feed on its own. */
    @FunctionalInterface
    public interface StoreEventsWork<R> {
        /**
         * Does the work.
         *
         * @param transaction the store's transaction
         * @param events where to record what happened, appended to the feed and published after commit
         * @param storeEvents events the store appended to its feed itself, only published after commit
         * @return the result
         */
        R execute(TaskTransaction transaction, List<TaskEvent> events, List<TaskEvent> storeEvents);
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
