package dev.taskagent.dashboard;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor the board gives the JDK's HTTP server: it bounds the threads and the time an unauthenticated
 * peer can hold.
 *
 * <p>The JDK's server hands a connection to its executor as soon as the connection's first bytes arrive, and
 * the task then reads the request line and the headers with blocking reads, before any handler (and so before
 * the token check) runs. A client that sends its request a byte at a time, or never finishes it, holds that
 * thread. The JDK's own limits for this ({@code sun.net.httpserver.maxReqTime}, {@code
 * jdk.httpserver.maxConnections}) are system properties that hold for every server in the JVM, read once;
 * a library cannot set them for one board. So this executor:
 *
 * <ul>
 *   <li>runs at most {@code maxConnections} exchanges at once, each on one of at most as many threads;
 *   <li>closes a connection whose request (line, headers and body) is not read {@code requestTimeout} after
 *       its first bytes arrived: it interrupts the thread, and an interrupted read of a socket channel closes
 *       the channel;
 *   <li>when every place is taken, gives a new connection the place of the one that has been sending its
 *       request the longest (so slow clients cannot lock others out), and refuses the new connection, which
 *       the server then closes, only when every place is taken by a request being answered.
 * </ul>
 *
 * <p>Once the handler has read the request ({@link #requestRead()}) the time limit no longer applies: an
 * event stream's writes have their own stall timeout.
 *
 * <p>Thread-safe.
 */
final class ExchangeExecutor implements Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExchangeExecutor.class);

    private enum Phase {
        /** Its request is being read: the time limit applies, and a newcomer may take its place. */
        READING,
        /** Its request was read and is being answered. */
        ANSWERING,
        /** Closed for being too slow or for a newcomer; its thread was (or will be, on starting) interrupted. */
        EVICTED
    }

    /** One exchange admitted to run. Guarded by {@link #lock}. */
    private static final class Slot {
        final long admittedAt;
        Phase phase = Phase.READING;
        Thread thread;

        Slot(long admittedAt) {
            this.admittedAt = admittedAt;
        }
    }

    private final int maxConnections;
    private final long requestTimeoutNanos;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService watchdog;
    private final ThreadLocal<Slot> current = new ThreadLocal<>();
    private final Object lock = new Object();
    /** In the order they were admitted, so the first one reading is the one reading the longest. */
    private final Set<Slot> admitted = new LinkedHashSet<>();

    private boolean closed;
    private long timedOut;
    private long displaced;
    private long refused;

    ExchangeExecutor(int maxConnections, Duration requestTimeout) {
        this.maxConnections = maxConnections;
        this.requestTimeoutNanos = requestTimeout.toNanos();
        AtomicInteger threads = new AtomicInteger();
        pool = new ThreadPoolExecutor(
                maxConnections, maxConnections, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "taskagent-board-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        watchdog = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "taskagent-board-request-timeout");
            thread.setDaemon(true);
            return thread;
        });
        long tick = Math.max(10, Math.min(1_000, requestTimeout.toMillis() / 10));
        watchdog.scheduleWithFixedDelay(this::closeSlowRequests, tick, tick, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs an exchange of the JDK's server, taking the place of the slowest request being read when every
     * place is taken.
     *
     * @throws RejectedExecutionException when every place is taken by a request being answered, or after
     *     {@link #close()}; the server then closes the connection
     */
    @Override
    public void execute(Runnable exchange) {
        Slot slot = new Slot(System.nanoTime());
        synchronized (lock) {
            if (closed) {
                throw new RejectedExecutionException("The task board is closed");
            }
            if (admitted.size() >= maxConnections) {
                Slot slowest = slowestReading();
                if (slowest == null) {
                    refused++;
                    throw new RejectedExecutionException("All " + maxConnections
                            + " connections of the task board are being answered; raise maxConnections(...)");
                }
                evict(slowest);
                displaced++;
            }
            admitted.add(slot);
        }
        try {
            pool.execute(() -> run(slot, exchange));
        } catch (RejectedExecutionException e) {
            synchronized (lock) {
                admitted.remove(slot);
            }
            throw e;
        }
    }

    /**
     * Tells that the current exchange's request is read: from here on it is being answered and no time limit
     * applies. Does nothing on a thread that runs no exchange.
     */
    void requestRead() {
        Slot slot = current.get();
        if (slot != null) {
            synchronized (lock) {
                if (slot.phase == Phase.READING) {
                    slot.phase = Phase.ANSWERING;
                }
            }
        }
    }

    private void run(Slot slot, Runnable exchange) {
        Thread thread = Thread.currentThread();
        synchronized (lock) {
            slot.thread = thread;
            if (slot.phase == Phase.EVICTED) {
                thread.interrupt(); // its first read closes the connection
            }
        }
        current.set(slot);
        try {
            exchange.run();
        } finally {
            current.remove();
            synchronized (lock) {
                admitted.remove(slot);
                slot.thread = null;
            }
            // Interrupts for this slot happen only under the lock while it has a thread: none can follow.
            Thread.interrupted();
        }
    }

    private void closeSlowRequests() {
        long now = System.nanoTime();
        int closedNow = 0;
        synchronized (lock) {
            for (Iterator<Slot> it = admitted.iterator(); it.hasNext(); ) {
                Slot slot = it.next();
                if (slot.phase == Phase.READING && now - slot.admittedAt > requestTimeoutNanos) {
                    it.remove();
                    interrupt(slot);
                    closedNow++;
                }
            }
            timedOut += closedNow;
        }
        if (closedNow > 0) {
            LOG.debug(
                    "Closed {} task board connection(s) that had not sent their request within {} ms",
                    closedNow,
                    TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos));
        }
    }

    /** The admitted slot reading its request since the longest, or null. Call under the lock. */
    private Slot slowestReading() {
        for (Slot slot : admitted) {
            if (slot.phase == Phase.READING) {
                return slot;
            }
        }
        return null;
    }

    /** Call under the lock. */
    private void evict(Slot slot) {
        admitted.remove(slot);
        interrupt(slot);
    }

    /** Call under the lock. */
    private static void interrupt(Slot slot) {
        slot.phase = Phase.EVICTED;
        if (slot.thread != null) {
            slot.thread.interrupt();
        }
    }

    /** How many connections were closed for not sending their request in time (for tests). */
    long timedOutConnections() {
        synchronized (lock) {
            return timedOut;
        }
    }

    /** How many connections lost their place to a newcomer while sending their request (for tests). */
    long displacedConnections() {
        synchronized (lock) {
            return displaced;
        }
    }

    /** How many connections were refused because every place was answering (for tests). */
    long refusedConnections() {
        synchronized (lock) {
            return refused;
        }
    }

    /** Stops the watchdog and the threads, interrupting the exchanges still running; waits up to 5 s. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        watchdog.shutdownNow();
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
            watchdog.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
