package dev.taskagent.store;

/**
 * How many of a store's non-archived tasks are waiting and being worked on, for gauges and health checks.
 *
 * <p>Immutable and thread-safe.
 *
 * @param pending tasks waiting to be claimed
 * @param running tasks being worked on
 * @param expiredLeases running tasks whose claim's lease expired (their worker is gone or late, and a
 *     reclaim has not taken them back yet); part of {@code running}
 */
public record TaskCounts(long pending, long running, long expiredLeases) {

    /**
     * Checks the invariants.
     *
     * @param pending not negative
     * @param running not negative
     * @param expiredLeases not negative, at most {@code running}
     */
    public TaskCounts {
        if (pending < 0 || running < 0 || expiredLeases < 0 || expiredLeases > running) {
            throw new IllegalArgumentException("counts must not be negative and expired leases are running tasks:"
                    + " pending=" + pending + ", running=" + running + ", expiredLeases=" + expiredLeases);
        }
    }
}
