package dev.taskagent.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live MCP sessions of an HTTP server, by id, with the time each was last used: what lets the server
 * end sessions that went idle and refuse new ones beyond a cap. The SDK's transport keeps every session
 * until its client deletes it; clients that never do (a crashed agent, a flood of {@code initialize})
 * would otherwise hold memory for ever.
 *
 * <p>Thread-safe: every method is synchronized (each does a few map operations).
 */
final class HttpSessions {
    /** Whether a session id names a session in use. */
    enum State {
        /** Not a session this registry holds: unknown, deleted, or already ended. */
        UNKNOWN,
        /** In use; its idle time starts again. */
        LIVE,
        /** Idle for longer than the idle timeout: the caller ends it. */
        EXPIRED
    }

    private final Clock clock;
    private final Duration idleTimeout;
    private final int maxSessions;
    private final Map<String, Instant> lastUsed = new HashMap<>();
    private int opening;

    HttpSessions(Clock clock, Duration idleTimeout, int maxSessions) {
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
    }

    Duration idleTimeout() {
        return idleTimeout;
    }

    int maxSessions() {
        return maxSessions;
    }

    /**
     * Reserves room for a session that a request may open; {@link #opened(String)} ends the reservation.
     *
     * @return false when the live sessions and the ones being opened have reached the cap
     */
    synchronized boolean reserve() {
        if (lastUsed.size() + opening >= maxSessions) {
            return false;
        }
        opening++;
        return true;
    }

    /**
     * Ends a reservation of {@link #reserve()}.
     *
     * @param sessionId the id of the session the request opened, or null when it opened none
     */
    synchronized void opened(String sessionId) {
        opening--;
        if (sessionId != null) {
            lastUsed.put(sessionId, clock.instant());
        }
    }

    /**
     * Marks a session as used now, unless it has been idle too long.
     *
     * @param sessionId the id a request carries
     * @return its state before this use
     */
    synchronized State use(String sessionId) {
        Instant last = lastUsed.get(sessionId);
        if (last == null) {
            return State.UNKNOWN;
        }
        if (isExpired(last)) {
            return State.EXPIRED;
        }
        lastUsed.put(sessionId, clock.instant());
        return State.LIVE;
    }

    /** @return the ids of the sessions idle for longer than the idle timeout, which callers end */
    synchronized List<String> expired() {
        return lastUsed.entrySet().stream()
                .filter(entry -> isExpired(entry.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Forgets a session that was deleted or ended. */
    synchronized void ended(String sessionId) {
        lastUsed.remove(sessionId);
    }

    /** @return how many sessions are live or not yet ended */
    synchronized int size() {
        return lastUsed.size();
    }

    private boolean isExpired(Instant last) {
        return Duration.between(last, clock.instant()).compareTo(idleTimeout) > 0;
    }
}
