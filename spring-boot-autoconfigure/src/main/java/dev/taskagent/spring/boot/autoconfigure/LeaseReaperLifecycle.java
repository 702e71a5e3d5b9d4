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
    private final Duration interval;

    /**
     * Creates the lifecycle; nothing runs before {@link #start()}, which starts the reaper's thread; its
     * first round runs one interval later.
     *
     * @param queue the queue whose expired claims to take back
     * @param interval the pause between two rounds; 10 ms to 1 day
     */
    public LeaseReaperLifecycle(TaskQueue queue, Duration interval) {
        super(starting(queue, interval), LeaseReaper::close);
        this.interval = interval;
    }

    private static Supplier<LeaseReaper> starting(TaskQueue queue, Duration interval) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(interval, "interval");
        return () -> LeaseReaper.builder(queue).reclaimInterval(interval).start();
    }

    /** @return the pause between two rounds */
    public Duration interval() {
        return interval;
    }

    @Override
    public String toString() {
        return "LeaseReaperLifecycle[every " + interval + ", " + (isRunning() ? "running" : "stopped") + "]";
    }
}
