package dev.taskagent.store.spi;

import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The work graph's rules that do not depend on how a store keeps the graph (TS-12), shared so that every
 * store decides them the same way.
 *
 * <p>Thread-safe (stateless).
 */
public final class TaskGraphs {
    private TaskGraphs() {}

    /**
     * Tells whether a subtask keeps its parent from being completed with success (TS-12.7): it is not
     * archived and is pending or running.
     *
     * @param child the subtask
     * @return true when the subtask is unfinished
     */
    public static boolean isOpenChild(Task child) {
        return !child.archived() && !child.status().isTerminal();
    }

    /**
     * Returns the subtasks that keep their parent from being completed with success (TS-12.7).
     *
     * @param children the parent's subtasks
     * @return the unfinished ones, in the order given
     */
    public static List<Task> openChildren(List<Task> children) {
        return children.stream().filter(TaskGraphs::isOpenChild).toList();
    }

    /**
     * Tells by how much a status change moves the open blocker count of the task's dependants (TS-12.3).
     *
     * @param from the status before
     * @param to the status after
     * @return -1 when the task now ended in success, +1 when it left success, 0 otherwise
     */
    public static int openBlockerDelta(TaskStatus from, TaskStatus to) {
        boolean before = from == TaskStatus.SUCCESS;
        boolean after = to == TaskStatus.SUCCESS;
        return before == after ? 0 : after ? -1 : 1;
    }

    /**
     * Finds a path from one task to another along the edges a function gives, breadth first, each task
     * visited once; for the cycle check of TS-12.4 ({@code next} gives a task's dependants, the path runs
     * from the new dependant to the new blocker) and the parent check of TS-12.6.
     *
     * @param from where the path starts
     * @param to where it ends
     * @param next the tasks one edge away from a task
     * @return the path, {@code from} first and {@code to} last; empty when there is none
     */
    public static Optional<List<Long>> path(long from, long to, LongFunction<Collection<Long>> next) {
        Objects.requireNonNull(next, "next");
        if (from == to) {
            return Optional.of(List.of(from));
        }
        Map<Long, Long> cameFrom = new HashMap<>();
        cameFrom.put(from, from);
        ArrayDeque<Long> frontier = new ArrayDeque<>();
        frontier.add(from);
        while (!frontier.isEmpty()) {
            long current = frontier.poll();
            for (long following : next.apply(current)) {
                if (cameFrom.putIfAbsent(following, current) != null) {
                    continue;
                }
                if (following == to) {
                    List<Long> path = new ArrayList<>();
                    for (long step = to; step != from; step = cameFrom.get(step)) {
                        path.add(step);
                    }
                    path.add(from);
                    Collections.reverse(path);
                    return Optional.of(List.copyOf(path));
                }
                frontier.add(following);
            }
        }
        return Optional.empty();
    }
}
