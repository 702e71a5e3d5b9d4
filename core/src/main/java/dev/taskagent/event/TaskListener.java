package dev.taskagent.event;

/**
 * Receives {@link TaskEvent}s after the transaction that caused them committed.
 *
 * <p>Listeners run on the thread that committed, one event at a time, in the order of the changes. An
 * exception thrown by a listener is logged and never breaks the agent, the queue or the other
 * listeners. An {@link Error} (an {@code AssertionError} of a test, an {@code OutOfMemoryError}) is not
 * swallowed: it reaches the caller, after the transaction committed. Implementations must be thread-safe
 * when the emitting component is shared by threads.
 */
@FunctionalInterface
public interface TaskListener {
    /**
     * Handles one event. Should return quickly; hand slow work to an executor.
     *
     * @param event what happened
     */
    void onEvent(TaskEvent event);
}
