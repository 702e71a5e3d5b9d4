package dev.taskagent.queue;

import dev.taskagent.event.FeedSubscription;
import dev.taskagent.internal.Texts;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 *   <li><b>Outcomes.</b> A handler that returns completes the task with success. One that throws ends the
 *       attempt: the task is released with a comment naming the exception while it has attempts left (its
 *       own limit, else the queue's), and completed as failed, a dead letter, after its last.
 *   <li><b>Leases.</b> While a handler runs, the worker renews its claim every third of the queue's lease.
 *       If the claim is lost (the lease expired during a pause and another worker took the task, or it was
 *       moved), the handler's thread is interrupted and its outcome is not written: the newer claim stands.
 *   <li><b>Waking.</b> An idle worker follows the store's event feed and claims again as soon as a task is
 *       created, released, moved or taken back anywhere, in any process; it also tries every {@linkplain
 *       Builder#pollInterval(Duration) poll interval} in case it missed one.
 *   <li><b>Stopping.</b> {@link #close()} stops claiming and waits up to the {@linkplain
 *       Builder#drainTimeout(Duration) drain timeout} for running handlers; the claims of those still running
 *       then are released with a comment, and their threads interrupted.
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

    private final TaskQueue queue;
    private final String agent;
    private final TaskHandler handler;
    private final Duration pollInterval;
    private final Duration drainTimeout;
    private final Semaphore free;
    private final Semaphore wakeUp = new Semaphore(0);
    private final ExecutorService handlers;
    private final ScheduledExecutorService heartbeats;
    private final Thread claimer;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Map<Long, Running> running = new ConcurrentHashMap<>();
    private final AtomicInteger handled = new AtomicInteger();
    private final FeedSubscription subscription;

    /** A claim whose handler runs. */
    private static final class Running {
        private final Task task;
        private volatile Future<?> future;

        Running(Task task) {
            this.task = task;
        }

        Task task() {
            return task;
        }

        void interrupt() {
            Future<?> handling = future;
            if (handling != null) {
                handling.cancel(true);
            }
        }
    }

    /**
     * The feed events after which a task may have become claimable: a new or returned task, and {@link
     * FeedEncoding#UNBLOCKED}, the last unfinished task a task waited for having succeeded.
     */
    private static final Set<String> WAKING_KINDS =
            Set.of("created", "released", "moved", "lease_expired", "updated", FeedEncoding.UNBLOCKED);

    private TaskWorker(Builder builder) {
        this.queue = builder.queue;
        this.agent = builder.agent;
        this.handler = builder.handler;
        this.pollInterval = builder.pollInterval;
        this.drainTimeout = builder.drainTimeout;
        this.free = new Semaphore(builder.concurrency);
        String name = "taskagent-worker-" + Texts.forLog(agent);
        AtomicInteger threads = new AtomicInteger();
        this.handlers = Executors.newFixedThreadPool(builder.concurrency, runnable -> {
            Thread thread = new Thread(runnable, name + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name + "-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.max(1, queue.leaseDuration().toMillis() / 3);
        heartbeats.scheduleWithFixedDelay(this::renewLeases, every, every, TimeUnit.MILLISECONDS);
        this.subscription = subscribe();
        this.claimer = new Thread(this::claimLoop, name + "-claimer");
        claimer.setDaemon(true);
        claimer.start();
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
     * Stops claiming, waits up to the drain timeout for running handlers to finish, then releases the claims
     * of those still running, with a comment, and interrupts their threads. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (subscription != null) {
            subscription.close();
        }
        claimer.interrupt();
        join(claimer);
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(drainTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                for (Running claim : running.values()) {
                    releaseUnfinished(claim.task());
                    claim.interrupt();
                }
                handlers.shutdownNow();
                handlers.awaitTermination(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handlers.shutdownNow();
        }
        heartbeats.shutdownNow();
    }

    @Override
    public String toString() {
        return "TaskWorker[agent=" + agent + ", running=" + running.size() + ", handled=" + handled.get()
                + (closed.get() ? ", closed" : "") + "]";
    }

    // ---- claiming

    private void claimLoop() {
        while (!closed.get()) {
            try {
                free.acquire();
                // Forget earlier wake-ups first: the claim below sees what they told of, and a task created
                // from here on wakes the wait that follows an empty claim.
                wakeUp.drainPermits();
                Optional<Task> claimed = claimQuietly();
                if (claimed.isEmpty()) {
                    free.release();
                    waitForWork();
                    continue;
                }
                Task task = claimed.get();
                if (closed.get()) {
                    free.release();
                    releaseUnfinished(task);
                    return;
                }
                start(task);
            } catch (InterruptedException e) {
                return; // closing
            }
        }
    }

    private Optional<Task> claimQuietly() throws InterruptedException {
        try {
            return queue.claimNext(agent);
        } catch (RuntimeException e) { // the store is down or closed: try again after a pause, never die
            LOG.warn(
                    "Worker {} could not claim a task: {}",
                    Texts.forLog(agent),
                    Texts.forLog(String.valueOf(e.getMessage())));
            TimeUnit.MILLISECONDS.sleep(Math.min(pollInterval.toMillis(), 1_000));
            return Optional.empty();
        }
    }

    /** Waits for the feed to tell of new work, or for the poll interval. */
    private void waitForWork() throws InterruptedException {
        wakeUp.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private FeedSubscription subscribe() {
        try {
            long from = queue.store().eventFeed().lastPosition();
            return queue.store().eventFeed().subscribe(from, event -> {
                if (WAKING_KINDS.contains(event.kind())) {
                    wakeUp.release();
                }
            });
        } catch (UnsupportedOperationException e) {
            LOG.info("The store has no event feed: worker {} polls every {}", Texts.forLog(agent), pollInterval);
            return null;
        }
    }

    // ---- handling

    private void start(Task task) {
        Running claim = new Running(task);
        running.put(task.id(), claim); // before the handler runs, which may end at once
        claim.future = handlers.submit(() -> handle(claim));
    }

    private void handle(Running claim) {
        Task task = claim.task();
        try {
            Exception failure = null;
            try {
                handler.handle(task);
            } catch (Exception e) {
                failure = e;
            }
            // Not when the claim was lost or released by close() meanwhile: the newer state stands.
            if (running.get(task.id()) == claim) {
                finish(task, failure);
            }
        } finally {
            running.remove(task.id(), claim);
            handled.incrementAndGet();
            free.release();
        }
    }

    private void finish(Task task, Throwable failure) {
        try {
            if (failure == null) {
                queue.complete(task.id(), agent, task.attempt(), TaskStatus.SUCCESS, null);
                return;
            }
            int maxAttempts = task.maxAttempts() > 0 ? task.maxAttempts() : queue.maxAttempts();
            String what = "Attempt " + task.attempt() + " failed: " + describe(failure);
            if (task.attempt() >= maxAttempts) {
                queue.complete(
                        task.id(),
                        agent,
                        task.attempt(),
                        TaskStatus.FAILED,
                        what + ". That was the last of " + maxAttempts + " attempts.");
            } else {
                queue.release(task.id(), agent, task.attempt(), what + ". The task goes back to the queue.");
            }
        } catch (ClaimLostException e) {
            LOG.info(
                    "Worker {} lost its claim of task {} (attempt {}) while handling it; the newer claim stands",
                    Texts.forLog(agent),
                    task.id(),
                    task.attempt());
        } catch (RuntimeException e) {
            LOG.warn(
                    "Worker {} could not record the outcome of task {} (attempt {}); its lease brings it back: {}",
                    Texts.forLog(agent),
                    task.id(),
                    task.attempt(),
                    Texts.forLog(String.valueOf(e.getMessage())));
        }
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        String text = failure.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        return Texts.forLog(text.length() > 2_000 ? text.substring(0, 2_000) + "…" : text);
    }

    private void renewLeases() {
        for (Running claim : running.values()) {
            Task task = claim.task();
            try {
                queue.heartbeat(task.id(), agent, task.attempt());
            } catch (ClaimLostException e) {
                LOG.info(
                        "Worker {} lost its claim of task {} (attempt {}); its handler is interrupted",
                        Texts.forLog(agent),
                        task.id(),
                        task.attempt());
                running.remove(task.id(), claim);
                claim.interrupt();
            } catch (RuntimeException e) {
                LOG.warn(
                        "Worker {} could not renew the lease of task {}: {}",
                        Texts.forLog(agent),
                        task.id(),
                        Texts.forLog(String.valueOf(e.getMessage())));
            }
        }
    }

    private void releaseUnfinished(Task task) {
        running.remove(task.id());
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

    private static void join(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
