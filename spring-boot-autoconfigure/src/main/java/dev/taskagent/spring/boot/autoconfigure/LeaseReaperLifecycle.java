package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import java.time.Duration;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link LeaseReaper} while the application context runs: started after the context refreshed, stopped
 * (waiting for a round in progress) when it closes, so that the tasks of workers whose lease expired go back to
 * their queues. Thread-safe.
 */
public final class LeaseReaperLifecycle implements SmartLifecycle {
    private final TaskQueue queue;
    private final Duration interval;
    private LeaseReaper reaper;

    /**
     * Creates the lifecycle; nothing runs before {@link #start()}.
     *
     * @param queue the queue whose expired claims to take back
     * @param interval the pause between two rounds; 10 ms to 1 day
     */
    public LeaseReaperLifecycle(TaskQueue queue, Duration interval) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.interval = Objects.requireNonNull(interval, "interval");
    }

    /** Starts the reaper's thread; its first round runs one interval later. Idempotent. */
    @Override
    public synchronized void start() {
        if (reaper == null) {
            reaper = LeaseReaper.builder(queue).interval(interval).start();
        }
    }

    /** Stops the reaper and waits for a round in progress. Idempotent. */
    @Override
    public synchronized void stop() {
        if (reaper != null) {
            reaper.close();
            reaper = null;
        }
    }

    /** @return whether the reaper runs */
    @Override
    public synchronized boolean isRunning() {
        return reaper != null;
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
