package dev.taskagent.task;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A change to the work graph was refused: a dependency or parent that would close a cycle, a dependency
 * that exists already or does not exist, or a parent completed with success over unfinished subtasks.
 * Nothing was written.
 *
 * <p>The message says what to do instead, in words a model can act on; {@link #reason()} tells the cases
 * apart and {@link #tasks()} names the tasks involved (the cycle, or the open subtasks).
 */
public final class TaskGraphException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** Why the change was refused. */
    public enum Reason {
        /** A task was made to depend on itself. */
        SELF_DEPENDENCY,
        /** The dependency exists already. */
        DUPLICATE_DEPENDENCY,
        /** The dependency to remove does not exist. */
        NO_SUCH_DEPENDENCY,
        /** The dependency would close a cycle; {@link #tasks()} is the cycle. */
        DEPENDENCY_CYCLE,
        /** The new parent is the task itself or one of its subtasks; {@link #tasks()} is the chain. */
        PARENT_CYCLE,
        /** Success was set while subtasks are unfinished; {@link #tasks()} are those subtasks. */
        OPEN_CHILDREN
    }

    /** Why the change was refused. */
    private final Reason reason;

    /** The tasks involved, in the order described by {@link Reason}. */
    private final List<Long> tasks;

    private TaskGraphException(long taskId, Reason reason, List<Long> tasks, String message) {
        super(taskId, message);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.tasks = List.copyOf(tasks);
    }

    /**
     * A task was made to depend on itself.
     *
     * @param taskId the task
     * @return the exception
     */
    public static TaskGraphException selfDependency(long taskId) {
        return new TaskGraphException(
                taskId, Reason.SELF_DEPENDENCY, List.of(taskId), "Task " + taskId + " cannot depend on itself");
    }

    /**
     * The dependency exists already.
     *
     * @param dependantId the task that depends
     * @param blockerId the task it depends on
     * @return the exception
     */
    public static TaskGraphException duplicateDependency(long dependantId, long blockerId) {
        return new TaskGraphException(
                dependantId,
                Reason.DUPLICATE_DEPENDENCY,
                List.of(dependantId, blockerId),
                "Task " + dependantId + " already depends on task " + blockerId);
    }

    /**
     * The dependency to remove does not exist.
     *
     * @param dependantId the task named as depending
     * @param blockerId the task named as its blocker
     * @return the exception
     */
    public static TaskGraphException noSuchDependency(long dependantId, long blockerId) {
        return new TaskGraphException(
                dependantId,
                Reason.NO_SUCH_DEPENDENCY,
                List.of(dependantId, blockerId),
                "Task " + dependantId + " does not depend on task " + blockerId + "; there is nothing to remove");
    }

    /**
     * The dependency would close a cycle.
     *
     * @param dependantId the task that was to depend
     * @param blockerId the task it was to depend on
     * @param path the existing chain from {@code dependantId} to {@code blockerId} along "is depended on by"
     *     edges: {@code dependantId} first, {@code blockerId} last (each task blocks the next)
     * @return the exception; its {@link #tasks()} is the cycle, {@code dependantId} first and last
     */
    public static TaskGraphException dependencyCycle(long dependantId, long blockerId, List<Long> path) {
        List<Long> cycle = new java.util.ArrayList<>(path);
        cycle.add(dependantId);
        return new TaskGraphException(
                dependantId,
                Reason.DEPENDENCY_CYCLE,
                cycle,
                "Task " + dependantId + " cannot depend on task " + blockerId + ": task " + blockerId
                        + " already waits for task " + dependantId + " (" + arrows(path)
                        + "), so the dependency would close the cycle " + arrows(cycle)
                        + ". Remove one of those dependencies first, or leave this one out");
    }

    /**
     * The new parent is the task itself or one of its subtasks.
     *
     * @param taskId the task to move
     * @param parentId the parent it was to get
     * @param chain the parent chain from {@code parentId} up to {@code taskId}
     * @return the exception
     */
    public static TaskGraphException parentCycle(long taskId, long parentId, List<Long> chain) {
        return new TaskGraphException(
                taskId,
                Reason.PARENT_CYCLE,
                chain,
                "Task " + taskId + " cannot become a subtask of task " + parentId + ": task " + parentId
                        + " is itself under task " + taskId + " (" + joinUp(chain) + ")");
    }

    /**
     * Success was set while subtasks are unfinished.
     *
     * @param taskId the parent
     * @param openChildren the unfinished subtasks, with their statuses
     * @return the exception
     */
    public static TaskGraphException openChildren(long taskId, List<Task> openChildren) {
        String named = openChildren.stream()
                .map(child -> child.id() + " (" + child.status().wireName() + ")")
                .collect(Collectors.joining(", "));
        return new TaskGraphException(
                taskId,
                Reason.OPEN_CHILDREN,
                openChildren.stream().map(Task::id).toList(),
                "Task " + taskId + " cannot be completed with success while its subtasks " + named
                        + " are unfinished; finish them first, or complete it over them explicitly");
    }

    private static String arrows(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(" → "));
    }

    private static String joinUp(List<Long> chain) {
        return chain.stream().map(id -> "task " + id).collect(Collectors.joining(" is under "));
    }

    /** @return why the change was refused */
    public Reason reason() {
        return reason;
    }

    /** @return the tasks involved: the cycle, the parent chain or the open subtasks, per {@link #reason()} */
    public List<Long> tasks() {
        return tasks;
    }
}
