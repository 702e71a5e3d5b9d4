package dev.taskagent.event;

import dev.taskagent.TaskAgentException;

/**
 * A reader asked for events the feed no longer holds: they were older than its retention and pruned. Start
 * again from {@link #firstAvailablePosition()} minus one (and reload whatever state the missed events
 * would have updated).
 */
public final class EventsPrunedException extends TaskAgentException {
    private static final long serialVersionUID = 1L;

    /** The position the reader asked to read after. */
    private final long requestedPosition;
    /** The oldest position the feed still holds (or will hold next). */
    private final long firstAvailablePosition;

    /**
     * Creates the exception.
     *
     * @param requestedPosition the position the reader asked to read after
     * @param firstAvailablePosition the oldest position the feed still holds (or will hold next)
     */
    public EventsPrunedException(long requestedPosition, long firstAvailablePosition) {
        super("The events after position " + requestedPosition + " were pruned; the feed now starts at position "
                + firstAvailablePosition + ". Read from " + (firstAvailablePosition - 1)
                + " on, and reload the state the missed events would have changed");
        this.requestedPosition = requestedPosition;
        this.firstAvailablePosition = firstAvailablePosition;
    }

    /**
     * Returns the position the reader asked to read after.
     *
     * @return the position
     */
    public long requestedPosition() {
        return requestedPosition;
    }

    /**
     * Returns the oldest position the feed still holds.
     *
     * @return the position
     */
    public long firstAvailablePosition() {
        return firstAvailablePosition;
    }
}
