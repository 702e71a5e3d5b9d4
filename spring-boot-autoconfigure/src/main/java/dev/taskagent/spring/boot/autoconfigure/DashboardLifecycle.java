package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.dashboard.TaskDashboard;
import java.net.URI;
import java.util.function.Supplier;

/**
 * Runs taskagent's task board while the application context runs: started after the context refreshed,
 * closed when it closes. Thread-safe.
 */
public final class DashboardLifecycle extends ContextBoundService<TaskDashboard> {

    /**
     * Creates the lifecycle; nothing listens before {@link #start()}.
     *
     * @param boards builds a new, unstarted board for each start
     */
    public DashboardLifecycle(Supplier<TaskDashboard> boards) {
        super(
                buildAndStart(
                        boards, "boards", logging(TaskDashboard::start, "taskagent task board", TaskDashboard::uri)),
                TaskDashboard::close);
    }

    /** As {@link #DashboardLifecycle(Supplier)}; a port in use is reported naming {@code portProperty}. */
    DashboardLifecycle(Supplier<TaskDashboard> boards, String portProperty) {
        super(
                buildAndStart(
                        boards,
                        "boards",
                        logging(
                                namingPortProperty(TaskDashboard::start, portProperty),
                                "taskagent task board",
                                TaskDashboard::uri)),
                TaskDashboard::close);
    }

    /**
     * Returns where browsers reach the board.
     *
     * @return the board's address
     * @throws IllegalStateException if the board is not running
     */
    public URI uri() {
        return running("The task board").uri();
    }

    @Override
    public String toString() {
        TaskDashboard board = runningOrNull();
        return "DashboardLifecycle[" + (board == null ? "stopped" : board.uri()) + "]";
    }
}
