package dev.taskagent.event;

/**
 * A running subscription to an {@link EventFeed}: a thread that delivers new events to its listener as they
 * commit, reconnecting by itself after a lost connection and resuming where it stopped.
 *
 * <p>Thread-safe.
 */
public interface FeedSubscription extends AutoCloseable {

    /**
     * Returns the position of the last event the listener was handed (whether it threw or not): resume
     * from it after a restart.
     *
     * @return the position, or the subscription's start position when none was delivered yet
     */
    long lastDeliveredPosition();

    /**
     * Returns what stopped the subscription by itself: the events after its position were pruned before it
     * read them ({@link EventsPrunedException}). Lost connections do not stop it; it retries them.
     *
     * @return the failure, or empty while it runs or after {@link #close()}
     */
    java.util.Optional<RuntimeException> failure();

    /** Stops the subscription: no event is delivered after this returns. Idempotent. */
    @Override
    void close();
}
