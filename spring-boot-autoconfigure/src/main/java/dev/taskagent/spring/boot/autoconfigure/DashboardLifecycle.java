package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.dashboard.TaskDashboard;
import java.net.URI;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;

/**
 * Runs taskagent's task board while the application context runs: started after the context refreshed,
 * closed when it closes. Thread-safe.
 */
public final class DashboardLifecycle implements SmartLifecycle {
    private final Supplier<TaskDashboard> boards;
    private TaskDashboard board;

    /**
     * Creates the lifecycle; nothing listens before {@link #start()}.
     *
     * @param boards builds a new, unstarted board for each start
     */
    public DashboardLifecycle(Supplier<TaskDashboard> boards) {
        this.boards = Objects.requireNonNull(boards, "boards");
    }

    /** Starts the board. Idempotent. */
    @Override
    public synchronized void start() {
        if (board == null) {
            board = boards.get().start();
        }
    }

    /** Closes the board. Idempotent. */
    @Override
    public synchronized void stop() {
        if (board != null) {
            board.close();
            board = null;
        }
    }

    /** @return whether the board listens */
    @Override
    public synchronized boolean isRunning() {
        return board != null;
    }

    /**
     * Returns where browsers reach the board.
     *
     * @return the board's address
     * @throws IllegalStateException if the board is not running
     */
    public synchronized URI uri() {
        if (board == null) {
            throw new IllegalStateException("The task board is not running");
        }
        return board.uri();
    }

    @Override
    public synchronized String toString() {
        return "DashboardLifecycle[" + (board == null ? "stopped" : board.uri()) + "]";
    }
}
