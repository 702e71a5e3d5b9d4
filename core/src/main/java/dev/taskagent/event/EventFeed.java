package dev.taskagent.event;

import java.time.Duration;
import java.util.List;

/**
 * The store-wide feed of committed task changes, readable from every process that shares the store: every
 * committed change of a task is appended in the same transaction as the change, and readers get the events
 * in position order, without gaps, from any position they resume at. Rolled-back work appends nothing.
 *
 * <pre>{@code
 * EventFeed feed = store.eventFeed();
 * try (FeedSubscription subscription = feed.subscribe(lastPosition, event -> board.update(event))) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Delivery is at least once, in position order: a reader that has seen position {@code p} has seen
 * every event with a position below {@code p}. Positions are assigned to committed events only, so a
 * transaction that commits late never lands behind a position a reader has already passed. Keep the last
 * position you handled and resume after it.
 *
 * <p>Compared with {@link TaskListener}s (in-process, told right after a commit of the same component, the
 * cheapest), the feed sees the changes of every process and survives restarts; it costs one row per change
 * and a read per poll.
 *
 * <p>Thread-safe.
 */
public interface EventFeed {

    /** The most events one {@link #read} returns. */
    int MAX_READ = 10_000;

    /**
     * Reads the events after a position, oldest first: one poll.
     *
     * @param afterPosition 0 for the start of the feed, or the last position already handled
     * @param limit at most this many events, 1..{@value #MAX_READ}
     * @return the next events in position order, each position one more than the one before; empty when
     *     there is none yet
     * @throws IllegalArgumentException if {@code afterPosition} is negative or ahead of the feed's last
     *     position, or {@code limit} is out of range
     * @throws EventsPrunedException if events right after {@code afterPosition} were pruned
     * @throws dev.taskagent.store.TaskStoreException if the store fails
     */
    List<FeedEvent> read(long afterPosition, int limit);

    /**
     * Delivers the events after a position to a listener, on a thread of the subscription, as they
     * commit; reconnects after a lost connection and resumes from the last delivered position.
     *
     * @param afterPosition 0 for the start of the feed, or the last position already handled
     * @param listener told about each event in position order
     * @return the running subscription; close it to stop
     * @throws NullPointerException if {@code listener} is null
     * @throws IllegalArgumentException if {@code afterPosition} is negative or ahead of the feed
     * @throws EventsPrunedException if events right after {@code afterPosition} were pruned
     */
    FeedSubscription subscribe(long afterPosition, FeedListener listener);

    /**
     * Returns the position of the newest event, which the next one will follow.
     *
     * @return the position, 0 when the feed is empty
     */
    long lastPosition();

    /**
     * Deletes the events older than an age, oldest first, in small batches that never block writers;
     * readers of a deleted position get {@link EventsPrunedException}. Stores run it by themselves on
     * their retention; call it for an extra sweep.
     *
     * @param olderThan the age; not negative
     * @return how many events were deleted
     */
    long prune(Duration olderThan);
}
