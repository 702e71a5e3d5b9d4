package dev.taskagent.event;

import java.time.Instant;
import java.util.Objects;

/**
 * One committed change of a task as the {@link EventFeed} holds it: readable from any process, in position
 * order.
 *
 * <p>The kinds are those of {@link TaskEvent}, in snake case: {@code created}, {@code updated}, {@code
 * status_changed}, {@code progress_appended}, {@code preference_set}, {@code messages_linked}, {@code
 * step_completed}, {@code claimed}, {@code moved}, {@code commented}, {@code completed}, {@code released},
 * {@code lease_expired}. A change made straight through a {@code TaskTransaction}, without an event of
 * its own, appears as {@code updated}. Newer versions may add kinds: ignore the ones you do not know.
 *
 * <p>The payload is a small JSON object saying what changed (texts cut to {@value #PAYLOAD_TEXT_LIMIT}
 * characters), not the whole task; every payload holds the task's {@code version} after the change. Read
 * the task itself for the rest.
 *
 * <p>Immutable and thread-safe.
 *
 * @param position where the event stands in the feed: positive, one more than the event before
 * @param taskId the task that changed
 * @param sessionId the task's session
 * @param kind what happened, e.g. {@code claimed}
 * @param time when it happened, from the store's clock
 * @param payload what changed, as a JSON object
 */
public record FeedEvent(long position, long taskId, String sessionId, String kind, Instant time, String payload) {

    /** The longest text a payload holds; longer ones are cut and end with an ellipsis. */
    public static final int PAYLOAD_TEXT_LIMIT = 500;

    /**
     * Checks the invariants.
     *
     * @param position where the event stands in the feed; positive
     * @param taskId the task that changed; positive
     * @param sessionId the task's session; not null
     * @param kind what happened, e.g. {@code claimed}; not null
     * @param time when it happened, from the store's clock; not null
     * @param payload what changed, as a JSON object; not null
     */
    public FeedEvent {
        if (position < 1) {
            throw new IllegalArgumentException("position must be positive, was " + position);
        }
        if (taskId < 1) {
            throw new IllegalArgumentException("taskId must be positive, was " + taskId);
        }
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(payload, "payload");
    }
}
