package dev.taskagent.event;

/**
 * Receives the events of a {@linkplain EventFeed#subscribe(long, FeedListener) subscription}, one at a
 * time, in position order, on the subscription's own thread. An exception it throws is logged and the
 * subscription goes on with the next event; it should return quickly (a slow listener delays its own
 * subscription only, never the store's writers).
 */
@FunctionalInterface
public interface FeedListener {
    /**
     * Handles one event.
     *
     * @param event the event; its position is one more than the one before (or the first after the
     *     subscription's start)
     */
    void onEvent(FeedEvent event);
}
