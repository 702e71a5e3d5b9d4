package dev.taskagent.queue;

import dev.taskagent.event.FeedSubscription;
import dev.taskagent.internal.Texts;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ready-made worker: claims an agent's tasks from a {@link TaskQueue} as its threads free up, runs a
 * {@link TaskHandler} on each, renews the claim's lease while the handler runs, and ends the claim with the
 * outcome.
 *
 * <pre>{@code
 * try (TaskWorker worker = TaskWorker.builder(queue)
 *         .agent("mailer")
 *         .concurrency(4)
 *         .handler(task -> mail.send(task.description()))
 *         .start()) {
 *     // ... the application runs ...
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>Batches.</b> The worker claims for all its free threads at once, up to as many tasks again ahead
 *       of them, in one transaction ({@link TaskQueue#claimUpTo(String, int)}), and writes the successes of
 *       many handlers in one ({@link TaskQueue#completeAll(String, List)}), so that a busy worker pays about
 *       two transactions per batch instead of two per task; the next batch is claimed while the successes of
 *       the last are written. A task claimed ahead waits at most until a thread frees up; its lease is renewed
 *       meanwhile, and closing the worker releases it at once.
 *   <li><b>Outcomes.</b> A handler that returns completes the task with success. One that throws ends the
 *       attempt ({@link TaskQueue#retry(long, String, int, String)}): the task goes back to the queue with a
 *       comment naming the exception while it has attempts left (its own limit, else the queue's) and waits for
 *       the queue's {@linkplain TaskQueue.Builder#backoff(Backoff) backoff}; after its last it fails, a dead
 *       letter.
 *   <li><b>Leases.</b> While a handler runs, the worker renews its claim every third of the queue's lease.
 *       If the claim is lost (the lease expired during a pause and another worker took the task, or it was
 *       moved), the handler's thread is interrupted and its outcome is not written: the newer claim stands.
 *   <li><b>Waking.</b> An idle worker follows the store's event feed and claims again as soon as a task is
 *       created, released, moved or taken back anywhere, in any process; it also tries every {@linkplain
 *       Builder#pollInterval(Duration) poll interval} in case it missed one, or sooner when one of its
 *       tasks waits for a time ({@link Task#notBefore()}, a backoff): it wakes when that time comes. A worker
 *       whose claims come back full has more work than room and stops following the feed until its queue
 *       runs dry, so that a busy worker does not pay for reading events it has no use for.
 *   <li><b>Stopping.</b> {@link #close()} stops claiming, releases the tasks claimed ahead at once, and waits
 *       up to the {@linkplain Builder#drainTimeout(Duration) drain timeout} for running handlers and the
 *       writes of their outcomes; the claims of those still running then are released with a comment, and
 *       their threads interrupted.
 * </ul>
 *
 * <p>Execution is at least once: a handler may run again for a task whose earlier attempt did part of the
 * work (a crash, a lost lease). Make its side effects safe to repeat.
 *
 * <p>Thread-safe.
 */
public final class TaskWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TaskWorker.class);

    /** Default of {@link Builder#concurrency(int)}. */
    public static final int DEFAULT_CONCURRENCY = 1;

    /** Default of {@link Builder#pollInterval(Duration)}. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);

    /** Default of {@link Builder#drainTimeout(Duration)}. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private static final int MAX_CONCURRENCY = 1_024;

    /** How long the writer waits for more successes when the first arrives while other handlers run. */
    private static final long LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    /** The feed's kinds after which a task may be claimable: an idle worker claims again. */
    private static final Set<String> WAKING_KINDS =
            Set.of("created", "released", "moved", "lease_expired", FeedEncoding.UPDATED, FeedEncoding.UNBLOCKED);

    private final TaskQueue queue;
    private final String agent;
    private final TaskHandler handler;
    private final Duration pollInterval;
    private final Duration drainTimeout;
    private final int concurrency;
    /**
     * The most claims held at once that are not successes waiting for their write: one per thread, and as many
     * again claimed ahead. The successes waiting for their write may add as many again.
     */
    private final int maxHeld;

    private final ThreadPoolExecutor handlers;
    private final Thread dispatcher;
    private final Thread writer;
    private final ScheduledExecutorService heartbeats;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Every claim the worker holds: waiting for a thread, being handled, or waiting for its success's write. */
    private final Map<Long, Claim> held = new ConcurrentHashMap<>();
    /** How many claims of {@link #held} are successes queued for the writer or being written. */
    private final AtomicInteger awaitingWrite = new AtomicInteger();
    /** Handled successes, for the writer to complete in batches. */
    private final ConcurrentLinkedQueue<Claim> succeeded = new ConcurrentLinkedQueue<>();

    private final AtomicInteger handled = new AtomicInteger();
    private volatile boolean writerStopping;

    /** Guards {@link #wakeUps}; the idle dispatcher waits on it. */
    private final Object idle = new Object();

    /** Counts the feed's waking events and freed claims, so that the dispatcher can tell whether one came. */
    private long wakeUps;

    // The dispatcher thread's own state.
    /** The feed subscription, held while the worker's queue may run dry, none while its claims come back full. */
    private FeedSubscription subscription;
    /** Whether the store has no event feed. */
    private boolean feedless;
    /** How many claims in a row came back with all they asked for. */
    private int fullClaims;
    /** When to try to follow the feed again after it could not be read ({@link System#nanoTime()}). */
    private long subscribeAgainAt;
    /** Whether the dispatcher follows the feed (then a freed thread does not wake it: its queue ran dry). */
    private volatile boolean following;
    /** The wake-up count for which {@link #scheduledDeadline} was asked of the store, or -1. */
    private long scheduledAsOf = -1;
    /** When the idle dispatcher claims again ({@link System#nanoTime()}), unless woken before. */
    private long scheduledDeadline;

    /** A claim the worker holds, and the thread that runs its handler while it runs. */
    private static final class Claim implements Runnable {
        private final Task task;
        private final TaskWorker worker;
        private Thread thread;
        /** Set when its success is queued for the writer: then the write, not a renewal, settles the claim. */
        private volatile boolean awaitingWrite;

        Claim(Task task, TaskWorker worker) {
            this.task = task;
            this.worker = worker;
        }

        Task task() {
            return task;
        }

        @Override
        public void run() {
            worker.handle(this);
        }

        synchronized void started(Thread value) {
            thread = value;
        }

        /** After this, {@link #interrupt()} no longer reaches the thread. */
        synchronized void ended() {
            thread = null;
        }

        synchronized boolean isRunning() {
            return thread != null;
        }

        synchronized void interrupt() {
            if (thread != null) {
                thread.interrupt();
            }
        }
    }

    private TaskWorker(Builder builder) {
        this.queue = builder.queue;
        this.agent = builder.agent;
        this.handler = builder.handler;
        this.pollInterval = builder.pollInterval;
        this.drainTimeout = builder.drainTimeout;
        this.concurrency = builder.concurrency;
        this.maxHeld = Math.min(2 * builder.concurrency, Leases.MAX_CLAIM_BATCH);
        String name = "taskagent-worker-" + Texts.forLog(agent);
        AtomicInteger threadNumber = new AtomicInteger();
        this.handlers = new ThreadPoolExecutor(
                builder.concurrency,
                builder.concurrency,
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                daemon(runnable -> new Thread(runnable, name + "-" + threadNumber.incrementAndGet())));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(
                daemon(runnable -> new Thread(runnable, name + "-heartbeat")));
        long every = Math.max(1, queue.leaseDuration().toMillis() / 3);
        heartbeats.scheduleWithFixedDelay(this::renewLeases, every, every, TimeUnit.MILLISECONDS);
        this.writer = daemon(runnable -> new Thread(runnable, name + "-writer")).newThread(this::writeLoop);
        this.dispatcher =
                daemon(runnable -> new Thread(runnable, name + "-claims")).newThread(this::claimLoop);
        writer.start();
        dispatcher.start();
    }

    private static ThreadFactory daemon(ThreadFactory factory) {
        return runnable -> {
            Thread thread = factory.newThread(runnable);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Starts configuring a worker on a queue.
     *
     * @param queue the queue to claim from; its lease and maximum attempts apply
     * @return a builder
     * @throws NullPointerException if {@code queue} is null
     */
    public static Builder builder(TaskQueue queue) {
        return new Builder(queue);
    }

    /** @return the agent whose tasks this worker claims */
    public String agent() {
        return agent;
    }

    /** @return how many tasks this worker's handlers have finished, returned or thrown, since it started */
    public int handledCount() {
        return handled.get();
    }

    /**
     * Stops claiming, releases at once the tasks claimed ahead that no thread has started, waits up to the
     * drain timeout for running handlers to finish and writes their outcomes, then releases the claims of
     * those still running, with a comment, and interrupts their threads. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        wakeAll(); // the dispatcher ends its subscription to the feed on its way out
        try {
            dispatcher.join(TimeUnit.SECONDS.toMillis(10));
            List<Runnable> waiting = new ArrayList<>();
            handlers.getQueue().drainTo(waiting);
            handlers.shutdown();
            for (Runnable claim : waiting) {
                releaseUnfinished(((Claim) claim).task());
            }
            if (!handlers.awaitTermination(drainTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                for (Claim claim : held.values()) {
                    if (claim.isRunning()) {
                        releaseUnfinished(claim.task());
                        claim.interrupt();
                    }
                }
                handlers.awaitTermination(10, TimeUnit.SECONDS);
            }
            writerStopping = true;
            LockSupport.unpark(writer);
            writer.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handlers.shutdownNow();
        }
        heartbeats.shutdownNow();
    }

    @Override
    public String toString() {
        return "TaskWorker[agent=" + agent + ", held=" + held.size() + ", handled=" + handled.get()
                + (closed.get() ? ", closed" : "") + "]";
    }

    // ---- claiming: one thread claims for every free handler thread at once

    private void claimLoop() {
        try {
            claimUntilClosed();
        } finally {
            if (subscription != null) {
                subscription.close();
            }
        }
    }

    private void claimUntilClosed() {
        while (!closed.get()) {
            // Note the wake-ups first: a task created or a claim ended from here on wakes the wait below.
            long seen = wakeUpsSoFar();
            int holding = held.size();
            // Successes waiting for their write hold no thread: claim past them, so that the next batch is
            // claimed while the last one is written, up to as many again.
            int running = holding - awaitingWrite.get();
            int room = Math.min(maxHeld - running, 2 * maxHeld - holding);
            // Claim when a thread is idle, or when half the room is free: not for every claim that ends, so that
            // a busy worker claims in batches.
            if (room <= 0 || (running >= concurrency && room < maxHeld / 2)) {
                waitForWork(seen, pollInterval.toMillis());
                continue;
            }
            List<Task> claimed = claimQuietly(room);
            fullClaims = claimed.size() == room ? fullClaims + 1 : 0;
            if (claimed.isEmpty()) {
                if (subscription != null && subscription.failure().isPresent()) {
                    dropSubscription(); // it stopped by itself: follow the feed anew
                }
                if (subscription == null && !feedless && subscribe()) {
                    continue; // claim once more: a task created before the subscription began is not missed
                }
                waitForWork(seen, untilNextScheduled(seen));
                continue;
            }
            for (Task task : claimed) {
                Claim claim = new Claim(task, this);
                held.put(task.id(), claim);
                if (closed.get()) {
                    releaseUnfinished(task);
                    continue;
                }
                try {
                    handlers.execute(claim);
                } catch (RejectedExecutionException e) { // close() shut the threads down meanwhile
                    releaseUnfinished(task);
                }
            }
            if (fullClaims >= 2 && subscription != null) {
                // More work than room, twice running: the claims that end wake the dispatcher, and the feed's
                // events would only cost their reading. Dropped after the tasks went to their threads.
                dropSubscription();
            }
        }
    }

    private void dropSubscription() {
        following = false;
        subscription.close();
        subscription = null;
    }

    private List<Task> claimQuietly(int limit) {
        try {
            return queue.claimUpTo(agent, limit);
        } catch (RuntimeException e) { // the store is down or closed: try again after a pause, never die
            LOG.warn(
                    "Worker {} could not claim tasks: {}",
                    Texts.forLog(agent),
                    Texts.forLog(String.valueOf(e.getMessage())));
            pause(Math.min(pollInterval.toMillis(), 1_000));
            return List.of();
        }
    }

    private long wakeUpsSoFar() {
        synchronized (idle) {
            return wakeUps;
        }
    }

    /**
     * How long an idle worker waits before it claims again: the poll interval, or less when a task of its
     * queue becomes claimable sooner (its not-before time), so that scheduled work starts on time. Asked of
     * the store once per wake-up: waking again without one, the worker waits for what is left of it.
     */
    private long untilNextScheduled(long seen) {
        if (seen == scheduledAsOf) {
            long left = TimeUnit.NANOSECONDS.toMillis(scheduledDeadline - System.nanoTime());
            if (left > 0) {
                return left;
            }
        }
        long poll = pollInterval.toMillis();
        long wait;
        try {
            wait = queue.untilNextScheduled(agent)
                    // a millisecond late rather than early: the claim compares with the store's clock
                    .map(until -> Math.min(poll, until.toMillis() + 1))
                    .orElse(poll);
        } catch (RuntimeException e) { // no scheduling in this store, or it is down: the claim will tell
            wait = poll;
        }
        scheduledAsOf = seen;
        scheduledDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait);
        return wait;
    }

    /** Waits for new work or a freed claim since {@code seen}, for {@code millis}, or for close(). */
    private void waitForWork(long seen, long millis) {
        synchronized (idle) {
            if (wakeUps == seen && !closed.get()) {
                try {
                    idle.wait(millis);
                } catch (InterruptedException e) {
                    // the loop looks at closed
                }
            }
        }
    }

    private void wakeAll() {
        synchronized (idle) {
            wakeUps++;
            idle.notifyAll();
        }
    }

    private void pause(long millis) {
        synchronized (idle) {
            try {
                idle.wait(millis);
            } catch (InterruptedException e) {
                // the loop looks at closed
            }
        }
    }

    /** Follows the feed from its end; false when the store has none or it cannot be read now. */
    private boolean subscribe() {
        if (System.nanoTime() - subscribeAgainAt < 0) {
            return false;
        }
        try {
            long from = queue.store().eventFeed().lastPosition();
            subscription = queue.store().eventFeed().subscribe(from, event -> {
                if (WAKING_KINDS.contains(event.kind())) {
                    wakeAll();
                }
            });
            following = true;
            return true;
        } catch (UnsupportedOperationException e) {
            feedless = true;
            LOG.info("The store has no event feed: worker {} polls every {}", Texts.forLog(agent), pollInterval);
            return false;
        } catch (RuntimeException e) { // the store is down: poll, and try again in a while
            subscribeAgainAt = System.nanoTime() + Math.max(pollInterval.toNanos(), TimeUnit.MINUTES.toNanos(1));
            LOG.warn(
                    "Worker {} could not follow the event feed: {}",
                    Texts.forLog(agent),
                    Texts.forLog(String.valueOf(e.getMessage())));
            return false;
        }
    }

    // ---- handling

    private void handle(Claim claim) {
        Task task = claim.task();
        if (held.get(task.id()) != claim) {
            return; // lost or released before a thread took it
        }
        claim.started(Thread.currentThread());
        Throwable failure = null;
        try {
            handler.handle(task);
        } catch (VirtualMachineError e) {
            claim.ended();
            throw e; // out of memory and the like: the thread ends, the lease brings the task back
        } catch (Throwable e) { // an AssertionError or a LinkageError fails the attempt, not the worker
            failure = e;
        }
        claim.ended();
        Thread.interrupted(); // an interrupt meant for the handler must not fail the write
        handled.incrementAndGet(); // before the outcome is written: whoever sees the outcome sees the count
        if (held.get(task.id()) != claim) {
            return; // the claim was lost or released by close() meanwhile: the newer state stands
        }
        if (failure == null) {
            claim.awaitingWrite = true;
            awaitingWrite.incrementAndGet();
            succeeded.add(claim);
            LockSupport.unpark(writer);
            if (!following) {
                wakeAll(); // its thread is free: a busy worker claims the next batch while this one is written
            }
        } else {
            fail(task, failure);
            ended(claim);
        }
    }

    /** The claim no longer needs the worker: it frees room for the next claim. */
    private void ended(Claim claim) {
        held.remove(claim.task().id(), claim);
        wakeAll();
    }

    private void fail(Task task, Throwable failure) {
        try {
            queue.retry(
                    task.id(),
                    agent,
                    task.attempt(),
                    "Attempt " + task.attempt() + " failed: " + describe(failure) + ".");
        } catch (ClaimLostException e) {
            lostWhileHandling(task, e);
        } catch (RuntimeException e) {
            outcomeNotWritten(task, e);
        }
    }

    /** Logs why a handled task's outcome was refused: it was cancelled, or another claim took it. */
    private void lostWhileHandling(Task task, TaskRefusedException refusal) {
        if (refusal instanceof ClaimLostException lost && lost.cancelled()) {
            LOG.info(
                    "Worker {} handled task {} (attempt {}), but it was cancelled meanwhile; its outcome is not"
                            + " recorded",
                    Texts.forLog(agent),
                    task.id(),
                    task.attempt());
        } else {
            LOG.info(
                    "Worker {} lost its claim of task {} (attempt {}) while handling it; the newer claim stands",
                    Texts.forLog(agent),
                    task.id(),
                    task.attempt());
        }
    }

    /** Whether a task whose claim was lost is cancelled; false when the store cannot tell (for the log only). */
    private boolean isCancelled(long taskId) {
        try {
            return queue.get(taskId)
                    .map(task -> task.status() == TaskStatus.CANCELLED)
                    .orElse(false);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void outcomeNotWritten(Task task, RuntimeException e) {
        LOG.warn(
                "Worker {} could not record the outcome of task {} (attempt {}); its lease brings it back: {}",
                Texts.forLog(agent),
                task.id(),
                task.attempt(),
                Texts.forLog(String.valueOf(e.getMessage())));
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        String text = failure.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        return Texts.forLog(text.length() > 2_000 ? text.substring(0, 2_000) + "…" : text);
    }

    // ---- writing successes: whatever has piled up while the last batch was written, in one transaction

    private void writeLoop() {
        while (true) {
            List<Claim> batch = new ArrayList<>();
            drainSucceeded(batch);
            if (!batch.isEmpty() && batch.size() < concurrency) {
                // The first success of a batch of short handlers arrives alone, its siblings microseconds
                // later: wait a moment for them rather than pay a transaction for one task.
                long deadline = System.nanoTime() + LINGER_NANOS;
                for (long left = LINGER_NANOS;
                        left > 0 && batch.size() < concurrency && handlers.getActiveCount() > 0;
                        left = deadline - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                    drainSucceeded(batch);
                }
            }
            if (!batch.isEmpty()) {
                writeSuccesses(batch);
            } else if (writerStopping) {
                return;
            } else {
                // Every success queued and close() unpark this thread; a permit given before the park ends it at once.
                LockSupport.park(this);
            }
        }
    }

    /** Moves queued successes into the batch, up to a full one. */
    private void drainSucceeded(List<Claim> batch) {
        while (batch.size() < Leases.MAX_CLAIM_BATCH) {
            Claim claim = succeeded.poll();
            if (claim == null) {
                return;
            }
            batch.add(claim);
        }
    }

    private void writeSuccesses(List<Claim> batch) {
        List<Completion> completions = batch.stream()
                .map(claim -> Completion.success(claim.task().id(), claim.task().attempt()))
                .toList();
        try {
            Completions written = queue.completeAll(agent, completions);
            for (Claim claim : batch) {
                TaskRefusedException refusal =
                        written.refused().get(claim.task().id());
                if (refusal != null) {
                    lostWhileHandling(claim.task(), refusal);
                }
            }
        } catch (RuntimeException e) {
            batch.forEach(claim -> outcomeNotWritten(claim.task(), e));
        } finally {
            batch.forEach(claim -> held.remove(claim.task().id(), claim));
            awaitingWrite.addAndGet(-batch.size());
        }
        wakeAll();
    }

    // ---- leases

    private void renewLeases() {
        Map<Long, Integer> attempts = new LinkedHashMap<>();
        for (Claim claim : held.values()) {
            attempts.put(claim.task().id(), claim.task().attempt());
            if (attempts.size() == Leases.MAX_CLAIM_BATCH) {
                renew(attempts);
                attempts.clear();
            }
        }
        if (!attempts.isEmpty()) {
            renew(attempts);
        }
    }

    private void renew(Map<Long, Integer> attempts) {
        try {
            for (long taskId : queue.heartbeatAll(agent, attempts)) {
                Claim claim = held.get(taskId);
                // A success being written is settled by its write (a renewal that met its commit is refused).
                if (claim != null && !claim.awaitingWrite && claim.task().attempt() == attempts.get(taskId)) {
                    LOG.info(
                            isCancelled(taskId)
                                    ? "Worker {} stops task {} (attempt {}): it was cancelled; its handler is"
                                            + " interrupted"
                                    : "Worker {} lost its claim of task {} (attempt {}); its handler is interrupted",
                            Texts.forLog(agent),
                            taskId,
                            claim.task().attempt());
                    if (held.remove(taskId, claim)) {
                        claim.interrupt();
                        wakeAll();
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Worker {} could not renew the leases of {} tasks: {}",
                    Texts.forLog(agent),
                    attempts.size(),
                    Texts.forLog(String.valueOf(e.getMessage())));
        }
    }

    private void releaseUnfinished(Task task) {
        held.remove(task.id());
        try {
            queue.release(task.id(), agent, task.attempt(), "The worker stopped before this attempt finished.");
        } catch (RuntimeException e) {
            LOG.warn(
                    "Worker {} could not release task {} on stopping; its lease brings it back: {}",
                    Texts.forLog(agent),
                    task.id(),
                    Texts.forLog(String.valueOf(e.getMessage())));
        }
    }

    /** Configures a {@link TaskWorker}. Not thread-safe. */
    public static final class Builder {
        private final TaskQueue queue;
        private String agent;
        private TaskHandler handler;
        private int concurrency = DEFAULT_CONCURRENCY;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;

        private Builder(TaskQueue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /**
         * Sets the agent whose tasks the worker claims. Required.
         *
         * @param value the agent's name
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if it is blank, too long or holds a control character
         */
        public Builder agent(String value) {
            agent = StoreArguments.name(value, "agent");
            return this;
        }

        /**
         * Sets what the worker does with each task. Required.
         *
         * @param value the handler; thread-safe when the concurrency is above 1
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder handler(TaskHandler value) {
            handler = Objects.requireNonNull(value, "handler");
            return this;
        }

        /**
         * Sets how many tasks the worker handles at once, each on a thread of its own. Default {@value
         * #DEFAULT_CONCURRENCY}.
         *
         * @param value 1 to 1,024
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder concurrency(int value) {
            if (value < 1 || value > MAX_CONCURRENCY) {
                throw new IllegalArgumentException(
                        "concurrency must be between 1 and " + MAX_CONCURRENCY + ", was " + value);
            }
            concurrency = value;
            return this;
        }

        /**
         * Sets how long an idle worker waits before it tries to claim again when the event feed told it of
         * nothing. Default 5 s.
         *
         * @param value 10 ms to 1 hour
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if out of range
         */
        public Builder pollInterval(Duration value) {
            pollInterval = bounded(value, "pollInterval", Duration.ofMillis(10), Duration.ofHours(1));
            return this;
        }

        /**
         * Sets how long {@link TaskWorker#close()} waits for running handlers before it releases their claims.
         * Default 30 s.
         *
         * @param value 0 to 1 hour
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if out of range
         */
        public Builder drainTimeout(Duration value) {
            drainTimeout = bounded(value, "drainTimeout", Duration.ZERO, Duration.ofHours(1));
            return this;
        }

        /**
         * Starts the worker: it claims at once.
         *
         * @return the running worker; close it to stop
         * @throws IllegalStateException if the agent or the handler is not set
         */
        public TaskWorker start() {
            if (agent == null) {
                throw new IllegalStateException("A TaskWorker needs an agent: call agent(name) before start()");
            }
            if (handler == null) {
                throw new IllegalStateException("A TaskWorker needs a handler: call handler(task -> …) before start()");
            }
            return new TaskWorker(this);
        }

        private static Duration bounded(Duration value, String name, Duration min, Duration max) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
            }
            return value;
        }
    }
}
