package dev.taskagent.store.spi;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An event feed held in the memory of one process, for stores whose data lives there too: committed events
 * in a list, positions given in the order {@link #append} is called (a store calls it when a unit of work
 * commits, under the lock that orders its commits), subscribers woken at once. Events older than the
 * retention are dropped as new ones arrive.
 *
 * <p>Thread-safe.
 */
public final class InProcessEventFeed implements EventFeed {
    /** How many appends pass between two sweeps of the retention. */
    private static final int PRUNE_EVERY = 1024;

    private static final AtomicInteger SUBSCRIPTIONS = new AtomicInteger();

    private final Clock clock;
    private final Duration retention;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition appended = lock.newCondition();

    // Guarded by lock. events.get(i) holds position prunedThrough + 1 + i.
    private final List<FeedEvent> events = new ArrayList<>();
    private long prunedThrough;
    private long appendsSinceSweep;

    /**
     * Creates an empty feed.
     *
     * @param clock the source of the events' times
     * @param retention how long events are kept
     */
    public InProcessEventFeed(Clock clock, Duration retention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retention = Objects.requireNonNull(retention, "retention");
    }

    /**
     * Appends the events of a unit of work that committed, in order, and wakes the subscriptions.
     *
     * @param committed the events
     */
    public void append(List<FeedEncoding.Encoded> committed) {
        if (committed.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        lock.lock();
        try {
            for (FeedEncoding.Encoded event : committed) {
                long position = prunedThrough + events.size() + 1;
                events.add(
                        new FeedEvent(position, event.taskId(), event.sessionId(), event.kind(), now, event.payload()));
            }
            appendsSinceSweep += committed.size();
            if (appendsSinceSweep >= PRUNE_EVERY) {
                appendsSinceSweep = 0;
                pruneLocked(now.minus(retention));
            }
            appended.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<FeedEvent> read(long afterPosition, int limit) {
        FeedEncoding.checkRead(afterPosition, limit);
        lock.lock();
        try {
            checkReadable(afterPosition);
            int from = (int) (afterPosition - prunedThrough);
            return List.copyOf(events.subList(from, Math.min(events.size(), from + limit)));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public FeedSubscription subscribe(long afterPosition, FeedListener listener) {
        Objects.requireNonNull(listener, "listener");
        FeedEncoding.checkPosition(afterPosition);
        lock.lock();
        try {
            checkReadable(afterPosition);
        } finally {
            lock.unlock();
        }
        return PolledSubscription.start(
                "taskagent-feed-" + SUBSCRIPTIONS.incrementAndGet(),
                afterPosition,
                listener,
                this::read,
                this::awaitAppend,
                Duration.ofSeconds(1));
    }

    private void awaitAppend(Duration atMost) throws InterruptedException {
        lock.lock();
        try {
            appended.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            lock.unlock();
        }
    }

    private void checkReadable(long afterPosition) {
        FeedEncoding.checkNotAhead(afterPosition, prunedThrough + events.size());
        if (afterPosition < prunedThrough) {
            throw new EventsPrunedException(afterPosition, prunedThrough + 1);
        }
    }

    @Override
    public long lastPosition() {
        lock.lock();
        try {
            return prunedThrough + events.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long prune(Duration olderThan) {
        Objects.requireNonNull(olderThan, "olderThan");
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
        }
        lock.lock();
        try {
            return pruneLocked(clock.instant().minus(olderThan));
        } finally {
            lock.unlock();
        }
    }

    private long pruneLocked(Instant cutoff) {
        int count = 0;
        while (count < events.size() && events.get(count).time().isBefore(cutoff)) {
            count++;
        }
        events.subList(0, count).clear();
        prunedThrough += count;
        return count;
    }

    @Override
    public String toString() {
        return "InProcessEventFeed[last=" + lastPosition() + "]";
    }
}
