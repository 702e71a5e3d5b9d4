package dev.taskagent.task;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A task: what a user asked for, tracked from the request to its outcome. One type serves extraction,
 * steps and the shared work queue.
 *
 * <p>A task belongs to a <em>session</em> (the conversation or project scope it came from) and has a
 * position {@link #order()} in that session's list, 1..N and contiguous; the extraction tools call it
 * {@code task_order}. Its {@link #id()} is assigned by the store and unique across sessions.
 *
 * <p>Instances are snapshots read from a {@code TaskStore}; they never change. Immutable and
 * thread-safe.
 *
 * @param id store-assigned identity, positive and unique across sessions
 * @param sessionId the session the task belongs to
 * @param order 1-based position within the session
 * @param description what the user asked for, in the user's words
 * @param status lifecycle state
 * @param progresses what was done so far, oldest first, one entry per step
 * @param userPreferences the user's preferences for this task; new writes replace the whole list with
 *     one element, older data may hold several (shown joined with {@code " | "})
 * @param steps a Markdown checklist of the actions the task needs, or null when it has none
 * @param currentStep the number of the last step ticked, 0 when none
 * @param priority higher is claimed first
 * @param assignee the agent whose queue holds the task, or null
 * @param previousAssignee who held the task before the last hand-over, or null
 * @param createdBy who created the task, or null
 * @param archived true when the task is kept for the record but out of every queue
 * @param comments comments, oldest first
 * @param links links, oldest first
 * @param messageIds the host application's ids of the messages linked to this task, in link order
 * @param createdAt when the task was created (from the store's clock)
 * @param updatedAt when the task last changed (from the store's clock)
 * @param version incremented by every change; guards updates against lost writes
 */
public record Task(
        long id,
        String sessionId,
        int order,
        String description,
        TaskStatus status,
        List<String> progresses,
        List<String> userPreferences,
        String steps,
        int currentStep,
        int priority,
        String assignee,
        String previousAssignee,
        String createdBy,
        boolean archived,
        List<Comment> comments,
        List<Link> links,
        List<String> messageIds,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    /** The longest session id, agent name or message id, in characters. */
    public static final int MAX_ID_LENGTH = 255;

    /**
     * The longest description, progress entry, preference, comment or steps document, in characters
     * (1 MiB of chars). Longer text is refused with an {@link IllegalArgumentException}.
     */
    public static final int MAX_TEXT_LENGTH = 1 << 20;

    /** Checks the invariants and copies the lists. */
    public Task {
        if (id <= 0) {
            throw new IllegalArgumentException("id must be positive, was " + id);
        }
        // Not TextLimits.checkName: a snapshot must stay readable when a store holds a NUL character that
        // was written before such texts were refused.
        Checks.notBlank(sessionId, "sessionId");
        if (sessionId.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "sessionId is " + sessionId.length() + " characters long; the limit is " + MAX_ID_LENGTH);
        }
        if (order < 1) {
            throw new IllegalArgumentException("order must be at least 1, was " + order);
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(status, "status");
        progresses = List.copyOf(progresses);
        userPreferences = List.copyOf(userPreferences);
        if (currentStep < 0) {
            throw new IllegalArgumentException("currentStep must not be negative, was " + currentStep);
        }
        comments = List.copyOf(comments);
        links = List.copyOf(links);
        messageIds = List.copyOf(messageIds);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (version < 0) {
            throw new IllegalArgumentException("version must not be negative, was " + version);
        }
    }

    /**
     * Returns the user preferences as one line: the elements joined with {@code " | "}.
     *
     * @return the joined preferences, or an empty string when there are none
     */
    public String userPreferenceText() {
        return String.join(" | ", userPreferences);
    }

    /**
     * Tells whether the task carries a Markdown steps document.
     *
     * @return true when {@link #steps()} is neither null nor blank
     */
    public boolean hasSteps() {
        return steps != null && !steps.isBlank();
    }

    /**
     * Returns a builder that starts from this task's values; used by store implementations.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Returns an empty builder; used by store implementations to materialise tasks.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link Task} snapshots. Not thread-safe. */
    public static final class Builder {
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
        private List<Comment> comments = List.of();
        private List<Link> links = List.of();
        private List<String> messageIds = List.of();
        private Instant createdAt;
        private Instant updatedAt;
        private long version;

        private Builder() {}

        private Builder(Task task) {
            id = task.id;
            sessionId = task.sessionId;
            order = task.order;
            description = task.description;
            status = task.status;
            progresses = task.progresses;
            userPreferences = task.userPreferences;
            steps = task.steps;
            currentStep = task.currentStep;
            priority = task.priority;
            assignee = task.assignee;
            previousAssignee = task.previousAssignee;
            createdBy = task.createdBy;
            archived = task.archived;
            comments = task.comments;
            links = task.links;
            messageIds = task.messageIds;
            createdAt = task.createdAt;
            updatedAt = task.updatedAt;
            version = task.version;
        }

        /** @param value the id @return this builder */
        public Builder id(long value) {
            id = value;
            return this;
        }

        /** @param value the session id @return this builder */
        public Builder sessionId(String value) {
            sessionId = value;
            return this;
        }

        /** @param value the 1-based order @return this builder */
        public Builder order(int value) {
            order = value;
            return this;
        }

        /** @param value the description @return this builder */
        public Builder description(String value) {
            description = value;
            return this;
        }

        /** @param value the status @return this builder */
        public Builder status(TaskStatus value) {
            status = value;
            return this;
        }

        /** @param value the progress entries @return this builder */
        public Builder progresses(List<String> value) {
            progresses = value;
            return this;
        }

        /** @param value the user preferences @return this builder */
        public Builder userPreferences(List<String> value) {
            userPreferences = value;
            return this;
        }

        /** @param value the Markdown steps, or null @return this builder */
        public Builder steps(String value) {
            steps = value;
            return this;
        }

        /** @param value the current step @return this builder */
        public Builder currentStep(int value) {
            currentStep = value;
            return this;
        }

        /** @param value the priority @return this builder */
        public Builder priority(int value) {
            priority = value;
            return this;
        }

        /** @param value the assignee, or null @return this builder */
        public Builder assignee(String value) {
            assignee = value;
            return this;
        }

        /** @param value the previous assignee, or null @return this builder */
        public Builder previousAssignee(String value) {
            previousAssignee = value;
            return this;
        }

        /** @param value the creator, or null @return this builder */
        public Builder createdBy(String value) {
            createdBy = value;
            return this;
        }

        /** @param value whether the task is archived @return this builder */
        public Builder archived(boolean value) {
            archived = value;
            return this;
        }

        /** @param value the comments @return this builder */
        public Builder comments(List<Comment> value) {
            comments = value;
            return this;
        }

        /** @param value the links @return this builder */
        public Builder links(List<Link> value) {
            links = value;
            return this;
        }

        /** @param value the linked message ids @return this builder */
        public Builder messageIds(List<String> value) {
            messageIds = value;
            return this;
        }

        /** @param value the creation time @return this builder */
        public Builder createdAt(Instant value) {
            createdAt = value;
            return this;
        }

        /** @param value the time of the last change @return this builder */
        public Builder updatedAt(Instant value) {
            updatedAt = value;
            return this;
        }

        /** @param value the version @return this builder */
        public Builder version(long value) {
            version = value;
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
                    comments,
                    links,
                    messageIds,
                    createdAt,
                    updatedAt,
                    version);
        }
    }
}
