package dev.taskagent.extraction;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per session, held while a run of that session is in progress, so that runs of one session go
 * one after the other while runs of different sessions go in parallel. A session's lock is dropped from
 * the map when nobody holds or waits for it, so the map does not grow with the number of sessions seen.
 * Thread-safe.
 */
final class SessionLocks {
    private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();

    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock(true);
        int users; // changed only inside ConcurrentHashMap.compute for the entry's key
    }

    /**
     * Runs work while holding the session's lock, waiting for a run of the same session to end first.
     *
     * @throws CancellationException if the thread is interrupted while waiting (the interrupt flag is kept)
     * @throws IllegalStateException if the calling thread already runs work of this session
     */
    <T> T withLock(String sessionId, Supplier<T> work) {
        Entry entry = locks.compute(sessionId, (key, existing) -> {
            Entry result = existing == null ? new Entry() : existing;
            result.users++;
            return result;
        });
        try {
            if (entry.lock.isHeldByCurrentThread()) {
                // A run started from a listener or hook of a run of the same session would interleave with it.
                throw new IllegalStateException("A run of session '" + sessionId + "' was started from inside a"
                        + " run of the same session (from a listener or an onTaskFinished hook); start it after"
                        + " the outer run returned, for example from another thread");
            }
            try {
                entry.lock.lockInterruptibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                CancellationException cancelled = new CancellationException(
                        "Interrupted while waiting for the running extraction of session '" + sessionId + "' to end");
                cancelled.initCause(e);
                throw cancelled;
            }
            try {
                return work.get();
            } finally {
                entry.lock.unlock();
            }
        } finally {
            locks.computeIfPresent(sessionId, (key, existing) -> --existing.users == 0 ? null : existing);
        }
    }

    /** The number of sessions that have a run in progress or waiting; for tests. */
    int activeSessions() {
        return locks.size();
    }
}
