package dev.taskagent.dashboard;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.EventsPrunedException;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedSubscription;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server-sent events of {@code /api/events}: one subscription to the store's event feed, fanned out to
 * every open stream through a bounded queue per client.
 *
 * <p>Memory is bounded per client: at most {@value #CLIENT_QUEUE} events wait for it. A client that falls
 * further behind (a burst) stops being queued for and, once it has caught up with its queue, reads what it
 * missed from the feed itself, so a slow reader loses nothing. A client that does not read at all blocks
 * its writer on a full socket; once that write has been stuck longer than the stall timeout while events
 * keep coming, the client is dropped (its thread is interrupted, which closes its connection), and it never
 * slows the others down. A client that comes back with {@code Last-Event-ID} (or {@code ?after=}) gets the
 * events it missed, read from the feed, unless it missed more than {@value #MAX_CATCH_UP}: then it gets a
 * {@code reset} event and reloads.
 *
 * <p>A client that closed its connection while its stream was idle is only noticed when a write to it fails,
 * and the first write after the peer closed usually succeeds (the peer answers it with a reset). So when a
 * newcomer finds every slot taken, each stream is probed at once: it writes a heartbeat, and another {@value
 * #PROBE_GAP_MILLIS} ms later, and the slots of the clients that are gone free up before the newcomer is
 * answered. A slot is also freed whenever a write fails, an event's or a heartbeat's.
 *
 * <p>Each event is {@code id: <position>}, {@code event: task}, {@code data: {position, task_id, session_id,
 * kind, time, payload}}.
 *
 * <p>Thread-safe.
 */
final class EventStream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

    /** The most events waiting for one client before it is dropped. */
    static final int CLIENT_QUEUE = 1_000;

    /** The most missed events a returning client is sent; beyond, it reloads. */
    static final int MAX_CATCH_UP = 5_000;

    /** How long after a probe's first heartbeat its second one is written. */
    static final long PROBE_GAP_MILLIS = 50;

    /** How long a newcomer that found every slot taken waits for probed streams of gone clients to end. */
    static final long PROBE_WAIT_MILLIS = 500;

    /** Put in a client's queue to make its thread write a heartbeat now; never sent as an event. */
    private static final FeedEvent PROBE = new FeedEvent(1, 1, "", "probe", Instant.EPOCH, "{}");

    private final EventFeed feed;
    private final Duration heartbeat;
    private final long stallNanos;
    private final int maxClients;
    private final Set<Client> clients = ConcurrentHashMap.newKeySet();
    /** Guards taking and freeing slots, so that {@code maxClients} holds; newcomers wait on it. */
    private final Object slots = new Object();

    private final AtomicLong dropped = new AtomicLong();
    private volatile FeedSubscription subscription;
    private volatile boolean closed;

    EventStream(EventFeed feed, Duration heartbeat, Duration stallTimeout, int maxClients) {
        this.feed = feed;
        this.heartbeat = heartbeat;
        this.stallNanos = stallTimeout.toNanos();
        this.maxClients = maxClients;
    }

    void start() {
        if (feed != null) {
            subscription = feed.subscribe(feed.lastPosition(), this::publish);
        }
    }

    /** Whether the store has a feed, so that the page updates live (otherwise it polls). */
    boolean live() {
        return feed != null;
    }

    /** The feed's newest position: read before the data, so that the page resumes after it. */
    long position() {
        return feed == null ? 0 : feed.lastPosition();
    }

    /** How many clients were dropped because they did not keep up. */
    long droppedClients() {
        return dropped.get();
    }

    int openStreams() {
        return clients.size();
    }

    private void publish(FeedEvent event) {
        long now = System.nanoTime();
        for (Client client : clients) {
            if (!dropIfStalled(client, now) && !client.behind && !client.queue.offer(event)) {
                client.behind = true; // it reads the rest from the feed once its queue is written
            }
        }
    }

    /** Drops the clients whose writes have been blocked too long; run on events and on heartbeats. */
    private void dropStalledClients() {
        long now = System.nanoTime();
        for (Client client : clients) {
            dropIfStalled(client, now);
        }
    }

    private boolean dropIfStalled(Client client, long now) {
        long since = client.writingSince;
        if (since != 0 && now - since > stallNanos) {
            drop(client);
            return true;
        }
        return false;
    }

    private void drop(Client client) {
        if (release(client)) {
            dropped.incrementAndGet();
            LOG.info(
                    "Dropped a task board event stream whose client stopped reading (a write blocked for more than"
                            + " {} ms)",
                    TimeUnit.NANOSECONDS.toMillis(stallNanos));
            client.dropped = true;
            // A thread blocked writing to a socket channel is freed by an interrupt, which closes the channel.
            client.interrupt();
        }
    }

    void serve(BoardExchange exchange, String lastEventId) throws IOException {
        if (feed == null) {
            throw new ApiException(503, null, "This store has no event feed, so there is no live stream; poll the API");
        }
        long after = resumePosition(lastEventId);
        Client client = new Client(Thread.currentThread());
        if (!admit(client)) {
            throw new ApiException(503, null, "Too many event streams are open (" + maxClients + "); try again later");
        }
        try {
            exchange.setHeader("Content-Type", "text/event-stream; charset=utf-8");
            exchange.setHeader("Cache-Control", "no-store");
            exchange.setHeader("X-Accel-Buffering", "no");
            OutputStream out = exchange.sendHeaders(200, 0);
            write(client, out, "retry: 1000\n: connected\n\n");
            long sent = catchUp(client, out, after);
            stream(out, client, sent);
        } catch (InterruptedException e) {
            LOG.debug("A task board event stream ended: {}", client.dropped ? "dropped" : "the board closes");
        } catch (IOException e) {
            LOG.debug("A task board event stream ended: {}", e.toString());
        } finally {
            release(client);
            client.finish();
        }
    }

    /** Takes a slot for the client, probing the open streams when none is free; false when none frees up. */
    private boolean admit(Client client) throws IOException {
        if (tryAdmit(client)) {
            return true;
        }
        for (Client open : clients) {
            open.queue.offer(PROBE); // a full queue means its thread is writing anyway
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_WAIT_MILLIS);
        synchronized (slots) {
            while (!closed && clients.size() >= maxClients) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                try {
                    slots.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("Interrupted while waiting for an event stream slot");
                }
            }
        }
        return tryAdmit(client);
    }

    private boolean tryAdmit(Client client) {
        synchronized (slots) {
            if (closed || clients.size() >= maxClients) {
                return false;
            }
            clients.add(client);
            return true;
        }
    }

    /** Frees a client's slot and wakes a newcomer waiting for one. */
    private boolean release(Client client) {
        synchronized (slots) {
            boolean removed = clients.remove(client);
            slots.notifyAll();
            return removed;
        }
    }

    private long resumePosition(String lastEventId) {
        long last = feed.lastPosition();
        if (lastEventId == null || lastEventId.isBlank()) {
            return last;
        }
        try {
            long position = Long.parseLong(lastEventId.strip());
            if (position >= 0) {
                return position;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw ApiException.badParameter(
                "Last-Event-ID",
                "Last-Event-ID (or ?after=) must be a feed position, a whole" + " number from 0; was '"
                        + QueryParameters.cut(lastEventId) + "'");
    }

    /** Sends the events after a position from the feed; returns the last position sent (or to skip up to). */
    private long catchUp(Client client, OutputStream out, long after) throws IOException {
        long last = feed.lastPosition();
        if (after >= last) {
            if (after > last) {
                return reset(client, out, last, "the position is ahead of the feed (" + last + ")");
            }
            return after;
        }
        if (last - after > MAX_CATCH_UP) {
            return reset(client, out, last, "more than " + MAX_CATCH_UP + " events were missed");
        }
        long sent = after;
        try {
            while (sent < last) {
                List<FeedEvent> batch = feed.read(sent, (int) Math.min(EventFeed.MAX_READ, last - sent));
                if (batch.isEmpty()) {
                    break;
                }
                StringBuilder frames = new StringBuilder();
                for (FeedEvent event : batch) {
                    frames.append(frame(event));
                    sent = event.position();
                }
                write(client, out, frames.toString());
            }
        } catch (EventsPrunedException e) {
            return reset(client, out, last, "the events after " + sent + " were pruned");
        }
        return sent;
    }

    private long reset(Client client, OutputStream out, long position, String why) throws IOException {
        write(
                client,
                out,
                "id: " + position + "\nevent: reset\ndata: {\"position\":" + position + ",\"reason\":" + quote(why)
                        + "}\n\n");
        return position;
    }

    private void stream(OutputStream out, Client client, long sent) throws IOException, InterruptedException {
        long heartbeatMillis = heartbeat.toMillis();
        long wait = heartbeatMillis;
        while (!closed && !client.dropped) {
            FeedEvent event = client.queue.poll(wait, TimeUnit.MILLISECONDS);
            // After a probe's heartbeat, a second one soon: the first write to a gone client usually succeeds.
            wait = event == PROBE ? PROBE_GAP_MILLIS : heartbeatMillis;
            if (event == null || event == PROBE) {
                dropStalledClients();
                write(client, out, ": heartbeat\n\n");
                continue;
            }
            StringBuilder frames = new StringBuilder();
            do {
                if (event != PROBE && event.position() > sent) {
                    frames.append(frame(event));
                    sent = event.position();
                }
                event = client.queue.poll();
            } while (event != null);
            write(client, out, frames.toString());
            if (client.behind && client.queue.isEmpty()) {
                // Queued for again from here on; what it missed meanwhile comes from the feed.
                client.behind = false;
                sent = catchUp(client, out, sent);
            }
        }
    }

    static String frame(FeedEvent event) {
        return "id: " + event.position() + "\nevent: task\ndata: {\"position\":" + event.position() + ",\"task_id\":"
                + event.taskId() + ",\"session_id\":" + quote(event.sessionId()) + ",\"kind\":" + quote(event.kind())
                + ",\"time\":" + quote(event.time().toString()) + ",\"payload\":" + oneLine(event.payload()) + "}\n\n";
    }

    /** A JSON payload on one line: a new line inside would end the event's data early. */
    private static String oneLine(String json) {
        return json.replace("\r", "").replace("\n", "");
    }

    private static String quote(String text) {
        try {
            return Json.MAPPER.writeValueAsString(text);
        } catch (IOException e) {
            throw new IllegalStateException("A string always converts to JSON", e);
        }
    }

    /** Writes and flushes, noting when the write started so that a client that stopped reading is seen. */
    private static void write(Client client, OutputStream out, String text) throws IOException {
        if (text.isEmpty()) {
            return;
        }
        client.writingSince = Math.max(1, System.nanoTime());
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } finally {
            client.writingSince = 0;
        }
    }

    @Override
    public void close() {
        closed = true;
        FeedSubscription running = subscription;
        if (running != null) {
            running.close();
        }
        for (Client client : clients) {
            client.dropped = true;
            client.interrupt();
        }
        synchronized (slots) {
            slots.notifyAll(); // a newcomer waiting for a slot gets its 503 now
        }
    }

    /** One open stream: its queue and the thread that writes it. */
    private static final class Client {
        final BlockingQueue<FeedEvent> queue = new ArrayBlockingQueue<>(CLIENT_QUEUE);
        final Thread thread;
        volatile boolean dropped;
        /** Set when its queue overflowed: it is not queued for until it has caught up from the feed. */
        volatile boolean behind;
        /** When its current write started (System.nanoTime), or 0 when it is not writing. */
        volatile long writingSince;

        /** Set once its stream ended: its thread serves other requests (a container's pool), never interrupt it. */
        private boolean finished;

        Client(Thread thread) {
            this.thread = thread;
        }

        /** Interrupts its thread, unless its stream has ended. */
        synchronized void interrupt() {
            if (!finished) {
                thread.interrupt();
            }
        }

        /** Ends its stream, on its own thread: no interrupt can come after, and none is left set. */
        synchronized void finish() {
            finished = true;
            Thread.interrupted();
        }
    }
}
