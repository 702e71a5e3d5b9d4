package dev.taskagent.store.spi;

import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import java.util.List;

/**
 * Builds {@link Task} snapshots field by field, for store implementations that materialise tasks from
 * their storage. The snapshot's invariants are checked by {@link #build()}.
 *
 * <p>Not thread-safe.
 */
public final class TaskBuilder {
    private long id;
    private String sessionId;
    private int order;
    private String description;
    private TaskStatus status = TaskStatus.PENDING;
    private List<String> progresses = List.of();
    private List<String> userPreferences = List.of();
    private String steps;
    private int currentStep;
    private int priority;
    private String assignee;
    private String previousAssignee;
    private String createdBy;
    private boolean archived;
    private int attempt;
    private Instant leaseExpiresAt;
    private int maxAttempts;
    private List<Comment> comments = List.of();
    private List<Link> links = List.of();
    private List<String> messageIds = List.of();
    private Instant createdAt;
    private Instant updatedAt;
    private long version;
    private long parentId;
    private List<Long> blockedBy = List.of();
    private int openBlockers;
    private List<String> tags = List.of();
    private String metadata;
    private Instant notBefore;

    private TaskBuilder() {}

    private TaskBuilder(Task task) {
        id = task.id();
        sessionId = task.sessionId();
        order = task.order();
        description = task.description();
        status = task.status();
        progresses = task.progresses();
        userPreferences = task.userPreferences();
        steps = task.steps();
        currentStep = task.currentStep();
        priority = task.priority();
        assignee = task.assignee();
        previousAssignee = task.previousAssignee();
        createdBy = task.createdBy();
        archived = task.archived();
        attempt = task.attempt();
        leaseExpiresAt = task.leaseExpiresAt();
        maxAttempts = task.maxAttempts();
        comments = task.comments();
        links = task.links();
        messageIds = task.messageIds();
        createdAt = task.createdAt();
        updatedAt = task.updatedAt();
        version = task.version();
        parentId = task.parentId();
        blockedBy = task.blockedBy();
        openBlockers = task.openBlockers();
        tags = task.tags();
        metadata = task.metadata();
        notBefore = task.notBefore();
    }

    /**
     * Sets the id.
     *
     * @param value the id
     * @return this builder
     */
    public TaskBuilder id(long value) {
        id = value;
        return this;
    }

    /**
     * Sets the session id.
     *
     * @param value the session id
     * @return this builder
     */
    public TaskBuilder sessionId(String value) {
        sessionId = value;
        return this;
    }

    /**
     * Sets the 1-based order.
     *
     * @param value the 1-based order
     * @return this builder
     */
    public TaskBuilder order(int value) {
        order = value;
        return this;
    }

    /**
     * Sets the description.
     *
     * @param value the description
     * @return this builder
     */
    public TaskBuilder description(String value) {
        description = value;
        return this;
    }

    /**
     * Sets the status.
     *
     * @param value the status
     * @return this builder
     */
    public TaskBuilder status(TaskStatus value) {
        status = value;
        return this;
    }

    /**
     * Sets the progress entries.
     *
     * @param value the progress entries
     * @return this builder
     */
    public TaskBuilder progresses(List<String> value) {
        progresses = value;
        return this;
    }

    /**
     * Sets the user preferences.
     *
     * @param value the user preferences
     * @return this builder
     */
    public TaskBuilder userPreferences(List<String> value) {
        userPreferences = value;
        return this;
    }

    /**
     * Sets the Markdown steps, or null.
     *
     * @param value the Markdown steps, or null
     * @return this builder
     */
    public TaskBuilder steps(String value) {
        steps = value;
        return this;
    }

    /**
     * Sets the current step.
     *
     * @param value the current step
     * @return this builder
     */
    public TaskBuilder currentStep(int value) {
        currentStep = value;
        return this;
    }

    /**
     * Sets the priority.
     *
     * @param value the priority
     * @return this builder
     */
    public TaskBuilder priority(int value) {
        priority = value;
        return this;
    }

    /**
     * Sets the assignee, or null.
     *
     * @param value the assignee, or null
     * @return this builder
     */
    public TaskBuilder assignee(String value) {
        assignee = value;
        return this;
    }

    /**
     * Sets the previous assignee, or null.
     *
     * @param value the previous assignee, or null
     * @return this builder
     */
    public TaskBuilder previousAssignee(String value) {
        previousAssignee = value;
        return this;
    }

    /**
     * Sets the creator, or null.
     *
     * @param value the creator, or null
     * @return this builder
     */
    public TaskBuilder createdBy(String value) {
        createdBy = value;
        return this;
    }

    /**
     * Sets whether the task is archived.
     *
     * @param value whether the task is archived
     * @return this builder
     */
    public TaskBuilder archived(boolean value) {
        archived = value;
        return this;
    }

    /**
     * Sets the claim attempt.
     *
     * @param value how many times the task was claimed, 0 when never
     * @return this builder
     */
    public TaskBuilder attempt(int value) {
        attempt = value;
        return this;
    }

    /**
     * Sets the lease expiry.
     *
     * @param value when the current claim's lease runs out, or null when no claim holds the task
     * @return this builder
     */
    public TaskBuilder leaseExpiresAt(Instant value) {
        leaseExpiresAt = value;
        return this;
    }

    /**
     * Sets the task's own limit of claims.
     *
     * @param value at least 1, or 0 for the queue's default
     * @return this builder
     */
    public TaskBuilder maxAttempts(int value) {
        maxAttempts = value;
        return this;
    }

    /**
     * Sets the comments.
     *
     * @param value the comments
     * @return this builder
     */
    public TaskBuilder comments(List<Comment> value) {
        comments = value;
        return this;
    }

    /**
     * Sets the links.
     *
     * @param value the links
     * @return this builder
     */
    public TaskBuilder links(List<Link> value) {
        links = value;
        return this;
    }

    /**
     * Sets the linked message ids.
     *
     * @param value the linked message ids
     * @return this builder
     */
    public TaskBuilder messageIds(List<String> value) {
        messageIds = value;
        return this;
    }

    /**
     * Sets the creation time.
     *
     * @param value the creation time
     * @return this builder
     */
    public TaskBuilder createdAt(Instant value) {
        createdAt = value;
        return this;
    }

    /**
     * Sets the time of the last change.
     *
     * @param value the time of the last change
     * @return this builder
     */
    public TaskBuilder updatedAt(Instant value) {
        updatedAt = value;
        return this;
    }

    /**
     * Sets the version.
     *
     * @param value the version
     * @return this builder
     */
    public TaskBuilder version(long value) {
        version = value;
        return this;
    }

    /**
     * Sets the parent's id.
     *
     * @param value the parent task's id, or 0 for none
     * @return this builder
     */
    public TaskBuilder parentId(long value) {
        parentId = value;
        return this;
    }

    /**
     * Sets the ids of the tasks this one depends on.
     *
     * @param value the blockers' ids
     * @return this builder
     */
    public TaskBuilder blockedBy(List<Long> value) {
        blockedBy = value;
        return this;
    }

    /**
     * Sets how many blockers have not ended in success.
     *
     * @param value the count
     * @return this builder
     */
    public TaskBuilder openBlockers(int value) {
        openBlockers = value;
        return this;
    }

    /**
     * Sets the tags.
     *
     * @param value the tags
     * @return this builder
     */
    public TaskBuilder tags(List<String> value) {
        tags = value;
        return this;
    }

    /**
     * Sets the metadata document.
     *
     * @param value the JSON object text, or null
     * @return this builder
     */
    public TaskBuilder metadata(String value) {
        metadata = value;
        return this;
    }

    /**
     * Sets the not-before time.
     *
     * @param value the time before which no claim hands the task out, or null for none
     * @return this builder
     */
    public TaskBuilder notBefore(Instant value) {
        notBefore = value;
        return this;
    }

    /**
     * Builds the snapshot.
     *
     * @return the task
     * @throws IllegalArgumentException or NullPointerException if an invariant of {@link Task} fails
     */
    public Task build() {
        return new Task(
                id,
                sessionId,
                order,
                description,
                status,
                progresses,
                userPreferences,
                steps,
                currentStep,
                priority,
                assignee,
                previousAssignee,
                createdBy,
                archived,
                attempt,
                leaseExpiresAt,
                maxAttempts,
                comments,
                links,
                messageIds,
                createdAt,
                updatedAt,
                version,
                parentId,
                blockedBy,
                openBlockers,
                tags,
                metadata,
                notBefore);
    }

    /**
     * Starts an empty builder: status pending, no lists, no times.
     *
     * @return a new builder
     */
    public static TaskBuilder newBuilder() {
        return new TaskBuilder();
    }

    /**
     * Starts a builder from a task's values.
     *
     * @param task the task to copy
     * @return a new builder
     */
    public static TaskBuilder from(Task task) {
        return new TaskBuilder(task);
    }
}
