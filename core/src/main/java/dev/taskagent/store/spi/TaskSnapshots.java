package dev.taskagent.store.spi;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.task.TaskUpdate.Field;
import java.time.Instant;
import java.util.Objects;

/**
 * The task snapshots a store writes, computed the same way for every store that works on {@link Task}
 * values: a new task from its spec, and a task with an update applied.
 *
 * <p>Thread-safe (stateless).
 */
public final class TaskSnapshots {
    private TaskSnapshots() {}

    /**
     * Returns the task a store creates from a spec (rule TS-3.4): pending, not archived, at version 1,
     * with {@code createdAt == updatedAt}, no progress, preferences, comments, links or message ids,
     * current step 0, attempt 0 and no lease, and the priority, assignee, creator, steps and maximum attempts
     * of the spec; its parent, blockers, tags and metadata (TS-12.1), with no open blocker: a store that
     * keeps the work graph sets {@code openBlockers} itself.
     *
     * @param spec what to create
     * @param id the id the store assigned; positive
     * @param order the order the store assigned within the session; at least 1
     * @param now the store's time
     * @return the new task
     */
    public static Task created(NewTask spec, long id, int order, Instant now) {
        Objects.requireNonNull(spec, "spec");
        return TaskBuilder.newBuilder()
                .id(id)
                .sessionId(spec.sessionId())
                .order(order)
                .description(spec.description())
                .status(TaskStatus.PENDING)
                .steps(spec.steps())
                .priority(spec.priority())
                .assignee(spec.assignee())
                .createdBy(spec.createdBy())
                .maxAttempts(spec.maxAttempts())
                .parentId(spec.parentId())
                .blockedBy(spec.blockedBy())
                .tags(spec.tags())
                .metadata(spec.metadata())
                .notBefore(spec.notBefore())
                .createdAt(now)
                .updatedAt(now)
                .version(1)
                .build();
    }

    /**
     * Applies an update's fields to a task; id, order, timestamps and version stay as they are (the
     * store sets {@code updatedAt} and the version itself, rule TS-4.2).
     *
     * @param update the change
     * @param task the task as it is
     * @return a builder holding the task with the update's fields set
     * @throws IllegalArgumentException if the update is for another task
     */
    public static TaskBuilder applied(TaskUpdate update, Task task) {
        if (task.id() != update.taskId()) {
            throw new IllegalArgumentException("update is for task " + update.taskId() + ", not " + task.id());
        }
        TaskBuilder builder = TaskBuilder.from(task);
        if (update.changes(Field.DESCRIPTION)) builder.description(update.description());
        if (update.changes(Field.STATUS)) builder.status(update.status());
        if (update.changes(Field.PRIORITY)) builder.priority(update.priority());
        if (update.changes(Field.ASSIGNEE)) builder.assignee(update.assignee());
        if (update.changes(Field.PREVIOUS_ASSIGNEE)) builder.previousAssignee(update.previousAssignee());
        if (update.changes(Field.USER_PREFERENCES)) builder.userPreferences(update.userPreferences());
        if (update.changes(Field.STEPS)) builder.steps(update.steps());
        if (update.changes(Field.CURRENT_STEP)) builder.currentStep(update.currentStep());
        if (update.changes(Field.ARCHIVED)) builder.archived(update.archived());
        if (update.changes(Field.PARENT)) builder.parentId(update.parentId());
        if (update.changes(Field.TAGS)) builder.tags(update.tags());
        if (update.changes(Field.METADATA)) builder.metadata(update.metadata());
        return builder;
    }
}
