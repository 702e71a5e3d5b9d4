package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs a {@link LeaseReaper} while the application context runs: started after the context refreshed, stopped
 * (waiting for a round in progress) when it closes, so that the tasks of workers whose lease expired go back to
 * their queues. Thread-safe.
 */
public final class LeaseReaperLifecycle extends ContextBoundService<LeaseReaper> {
    private final Duration reclaimInterval;

    /**
     * Creates the lifecycle; nothing runs before {@link #start()}, which starts the reaper's thread; its
     * first round runs one interval later.
     *
     * @param queue the queue whose expired claims to take back
     * @param reclaimInterval the pause between two reclaims; 10 ms to 1 day
     */
    public LeaseReaperLifecycle(TaskQueue queue, Duration reclaimInterval) {
        super(starting(queue, reclaimInterval), LeaseReaper::close);
        this.reclaimInterval = reclaimInterval;
    }

    private static Supplier<LeaseReaper> starting(TaskQueue queue, Duration reclaimInterval) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(reclaimInterval, "reclaimInterval");
        return () -> LeaseReaper.builder(queue).reclaimInterval(reclaimInterval).start();
    }

    /** @return the pause between two reclaims */
    public Duration reclaimInterval() {
        return reclaimInterval;
    }

    @Override
    public String toString() {
        return "LeaseReaperLifecycle[every " + reclaimInterval + ", " + (isRunning() ? "running" : "stopped") + "]";
    }
}
