package dev.taskagent.queue;

import dev.taskagent.internal.SettingRules;
import dev.taskagent.store.ReclaimedTask;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes back the tasks of dead workers: runs {@link TaskQueue#reclaimExpired()} on a daemon thread every
 * {@linkplain Builder#reclaimInterval(Duration) reclaim interval}, so that a task whose claim's lease expired goes back
 * to its assignee's queue (or fails, after its last allowed attempt).
 *
 * <pre>{@code
 * try (LeaseReaper reaper = LeaseReaper.builder(queue).reclaimInterval(Duration.ofSeconds(30)).start()) {
 *     // ... the application runs its workers ...
 * }
 * }</pre>
 *
 * <p>Several processes may each run a reaper on one store: each expired claim is still taken back exactly
 * once. A failing round (the database is down) is logged and the next round runs as planned.
 *
 * <p>Thread-safe. {@link #close()} stops the thread and waits for a round in progress to end.
 */
public final class LeaseReaper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseReaper.class);

    /** How often a reaper reclaims expired leases unless its builder sets another {@linkplain Builder#reclaimInterval(Duration) reclaim interval}. */
    public static final Duration DEFAULT_RECLAIM_INTERVAL = Duration.ofSeconds(30);

    private final TaskQueue queue;
    private final ScheduledExecutorService scheduler;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LeaseReaper(Builder builder) {
        this.queue = builder.queue;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, builder.threadName);
            thread.setDaemon(true);
            return thread;
        });
        long millis = builder.reclaimInterval.toMillis();
        scheduler.scheduleWithFixedDelay(this::reclaimQuietly, millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts configuring a reaper of a queue.
     *
     * @param queue the queue whose expired claims to take back; its lease and max attempts apply
     * @return a builder
     * @throws NullPointerException if {@code queue} is null
     */
    public static Builder builder(TaskQueue queue) {
        return new Builder(queue);
    }

    /**
     * Runs one round now, on the caller's thread, besides the scheduled ones.
     *
     * @return what the round took back
     * @throws dev.taskagent.store.TaskStoreException if the store fails
     * @throws IllegalStateException if the reaper is closed
     */
    public List<ReclaimedTask> reclaimNow() {
        if (closed.get()) {
            throw new IllegalStateException("This LeaseReaper is closed");
        }
        return queue.reclaimExpired();
    }

    private void reclaimQuietly() {
        try {
            List<ReclaimedTask> reclaimed = queue.reclaimExpired();
            if (!reclaimed.isEmpty()) {
                long deadLetters = reclaimed.stream()
                        .filter(task -> task.outcome() == ReclaimedTask.Outcome.DEAD_LETTERED)
                        .count();
                LOG.info(
                        "Took back {} task(s) whose lease expired: {} back in their queue, {} failed after their"
                                + " last attempt",
                        reclaimed.size(),
                        reclaimed.size() - deadLetters,
                        deadLetters);
            }
        } catch (RuntimeException e) {
            LOG.warn("A round of the lease reaper failed; the next one runs as planned: {}", e.toString());
            LOG.debug("The lease reaper's failure", e);
        }
    }

    /**
     * Stops the reaper and waits up to 10 seconds for a round in progress to end. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("The lease reaper's round did not end within 10 s of close()");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "LeaseReaper[" + queue + (closed.get() ? ", closed" : "") + "]";
    }

    /** Configures a {@link LeaseReaper}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private final TaskQueue queue;
        private Duration reclaimInterval = DEFAULT_RECLAIM_INTERVAL;
        private String threadName = "taskagent-lease-reaper";

        private Builder(TaskQueue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /**
         * Sets the pause between two rounds. Shorter brings dead workers' tasks back sooner, at the cost
         * of one query per round.
         *
         * @param value 10 ms to 1 day; default 30 seconds
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if {@code value} is out of bounds
         */
        public Builder reclaimInterval(Duration value) {
            Objects.requireNonNull(value, "reclaimInterval");
            SettingRules.reclaimIntervalProblem(value, "reclaimInterval").ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
            reclaimInterval = value;
            return this;
        }

        /**
         * Names the reaper's thread, for thread dumps.
         *
         * @param value not blank; default {@code taskagent-lease-reaper}
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is blank
         */
        public Builder threadName(String value) {
            Objects.requireNonNull(value, "threadName");
            if (value.isBlank()) {
                throw new IllegalArgumentException("threadName must not be blank");
            }
            threadName = value;
            return this;
        }

        /**
         * Starts the reaper; its first round runs one interval from now.
         *
         * @return the running reaper; close it to stop it
         */
        public LeaseReaper start() {
            return new LeaseReaper(this);
        }
    }
}
