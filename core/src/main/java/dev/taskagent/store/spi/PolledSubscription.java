package dev.taskagent.store.spi;

import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A feed subscription for store implementations: a daemon thread that reads the events after the last
 * delivered position, hands them to the listener one by one, and waits for a wake-up (or the poll interval)
 * when it has caught up. A failing read (a lost connection) is logged once per outage and retried with a
 * growing pause; a listener's exception is logged and the next event follows; events pruned behind the
 * subscription stop it with {@link EventsPrunedException} in {@link #failure()}.
 *
 * <p>Thread-safe.
 */
public final class PolledSubscription implements FeedSubscription {
    private static final Logger LOG = LoggerFactory.getLogger(PolledSubscription.class);

    /** How many events one read of the subscription takes. */
    static final int BATCH = 500;

    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    /** Reads the events after a position, as {@code EventFeed.read} does. */
    @FunctionalInterface
    public interface Reader {
        /**
         * Reads events.
         *
         * @param afterPosition the last position delivered
         * @param limit the most events to read
         * @return the events, in position order
         */
        List<FeedEvent> read(long afterPosition, int limit);
    }

    /** Waits until new events may have committed, or a while. */
    @FunctionalInterface
    public interface WakeUp {
        /**
         * Waits.
         *
         * @param atMost the longest wait: the poll interval
         * @throws InterruptedException when the subscription is closed
         */
        void await(Duration atMost) throws InterruptedException;
    }

    private final FeedListener listener;
    private final Reader reader;
    private final WakeUp wakeUp;
    private final Duration pollInterval;
    private final AtomicLong lastDelivered;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final Thread thread;

    private PolledSubscription(
            String name,
            long afterPosition,
            FeedListener listener,
            Reader reader,
            WakeUp wakeUp,
            Duration pollInterval) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        this.lastDelivered = new AtomicLong(afterPosition);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /**
     * Starts a subscription.
     *
     * @param name the thread's name
     * @param afterPosition the position to deliver after; checked by the caller
     * @param listener told about each event
     * @param reader reads the feed
     * @param wakeUp waits for new events
     * @param pollInterval the longest wait between two reads when no wake-up comes
     * @return the running subscription
     */
    public static PolledSubscription start(
            String name,
            long afterPosition,
            FeedListener listener,
            Reader reader,
            WakeUp wakeUp,
            Duration pollInterval) {
        PolledSubscription subscription =
                new PolledSubscription(name, afterPosition, listener, reader, wakeUp, pollInterval);
        subscription.thread.start();
        return subscription;
    }

    private void run() {
        Duration backoff = Duration.ofMillis(100);
        boolean failing = false;
        while (!closed.get()) {
            List<FeedEvent> batch;
            try {
                batch = reader.read(lastDelivered.get(), BATCH);
            } catch (EventsPrunedException e) {
                failure.set(e);
                LOG.error("The feed subscription {} stopped: {}", thread.getName(), e.getMessage());
                return;
            } catch (RuntimeException e) {
                if (closed.get()) {
                    return;
                }
                if (!failing) {
                    LOG.warn(
                            "The feed subscription {} cannot read the feed, retrying: {}",
                            thread.getName(),
                            e.toString());
                    LOG.debug("The feed subscription's failure", e);
                    failing = true;
                }
                if (!pause(backoff)) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                continue;
            }
            if (failing) {
                LOG.info("The feed subscription {} reads the feed again", thread.getName());
                failing = false;
                backoff = Duration.ofMillis(100);
            }
            for (FeedEvent event : batch) {
                if (closed.get()) {
                    return;
                }
                deliver(event);
            }
            if (batch.size() < BATCH) {
                try {
                    wakeUp.await(pollInterval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void deliver(FeedEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            LOG.warn(
                    "A FeedListener failed on the {} event at position {}; the subscription goes on: {}",
                    event.kind(),
                    event.position(),
                    e.toString());
            LOG.debug("The FeedListener's failure", e);
        } finally {
            lastDelivered.set(event.position());
        }
    }

    private boolean pause(Duration duration) {
        try {
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
            return !closed.get();
        } catch (InterruptedException e) {
            return false;
        }
    }

    @Override
    public long lastDeliveredPosition() {
        return lastDelivered.get();
    }

    @Override
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        thread.interrupt();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "FeedSubscription[" + thread.getName() + ", after " + lastDelivered.get()
                + (closed.get() ? ", closed" : "") + "]";
    }
}
