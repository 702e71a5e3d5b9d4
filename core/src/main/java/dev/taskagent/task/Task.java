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
 * @param attempt how many times the task was claimed from a queue, 0 when never; the current claim's
 *     number while it is running (the fencing token a worker names in its heartbeats and completion)
 * @param leaseExpiresAt while a claim holds the task: when its lease runs out, after which the task may
 *     be reclaimed; null when no claim holds it
 * @param maxAttempts how many claims the task may use before an expired lease fails it; 0 when the
 *     task has no limit of its own and the queue's default applies
 * @param comments comments, oldest first
 * @param links links, oldest first
 * @param messageIds the host application's ids of the messages linked to this task, in link order
 * @param createdAt when the task was created (from the store's clock)
 * @param updatedAt when the task last changed (from the store's clock)
 * @param version incremented by every change; guards updates against lost writes
 * @param parentId the id of the task this one is a subtask of, or 0 when it has no parent
 * @param blockedBy the ids of the tasks this one depends on, lowest first: it is {@linkplain #isReady()
 *     ready} only when every one of them ended in success
 * @param openBlockers how many of {@link #blockedBy()} have not (yet) ended in success
 * @param tags short labels for filtering, sorted, each at most {@link #MAX_TAG_LENGTH} characters
 * @param metadata the caller's own JSON object, kept verbatim and never interpreted, or null when none
 * @param notBefore the time (on the store's clock) before which no claim hands the task out, or null when
 *     it may be claimed as soon as it is ready; set when the task is created for later, and by a retry's
 *     backoff
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
        int attempt,
        Instant leaseExpiresAt,
        int maxAttempts,
        List<Comment> comments,
        List<Link> links,
        List<String> messageIds,
        Instant createdAt,
        Instant updatedAt,
        long version,
        long parentId,
        List<Long> blockedBy,
        int openBlockers,
        List<String> tags,
        String metadata,
        Instant notBefore) {

    /** The longest session id, agent name or message id, in characters. */
    public static final int MAX_ID_LENGTH = 255;

    /**
     * The longest description, progress entry, preference, comment or steps document, in characters
     * (1 MiB of chars). Longer text is refused with an {@link IllegalArgumentException}.
     */
    public static final int MAX_TEXT_LENGTH = 1 << 20;

    /** The most tags a task may carry. */
    public static final int MAX_TAGS = 16;

    /** The longest tag, in characters. */
    public static final int MAX_TAG_LENGTH = 64;

    /** The longest metadata document, in characters. */
    public static final int MAX_METADATA_LENGTH = 16_384;

    /**
     * Checks the invariants and copies the lists.
     *
     * @param id store-assigned identity; positive
     * @param sessionId the session the task belongs to; not blank, at most {@link #MAX_ID_LENGTH} chars
     * @param order 1-based position within the session; at least 1
     * @param description what the user asked for; not null
     * @param status lifecycle state; not null
     * @param progresses what was done so far, oldest first; not null, copied
     * @param userPreferences the user's preferences for this task; not null, copied
     * @param steps a Markdown checklist of the actions the task needs, or null when it has none
     * @param currentStep the number of the last step ticked, 0 when none; not negative
     * @param priority higher is claimed first
     * @param assignee the agent whose queue holds the task, or null
     * @param previousAssignee who held the task before the last hand-over, or null
     * @param createdBy who created the task, or null
     * @param archived true when the task is kept for the record but out of every queue
     * @param attempt how many times the task was claimed from a queue, 0 when never; not negative
     * @param leaseExpiresAt when the lease of the claim that holds the task runs out, or null when no claim holds it
     * @param maxAttempts how many claims the task may use, or 0 for the queue's default; not negative
     * @param comments comments, oldest first; not null, copied
     * @param links links, oldest first; not null, copied
     * @param messageIds the host application's ids of the messages linked to this task, in link order; not null, copied
     * @param createdAt when the task was created, from the store's clock; not null
     * @param updatedAt when the task last changed, from the store's clock; not null
     * @param version incremented by every change; not negative
     * @param parentId the parent task's id, or 0 when none; not negative and not the task's own id
     * @param blockedBy the ids of the tasks this one depends on; not null, copied and sorted
     * @param openBlockers how many blockers have not ended in success; 0..{@code blockedBy.size()}
     * @param tags short labels; not null, copied and sorted
     * @param metadata the caller's JSON object text, or null
     * @param notBefore the time before which no claim hands the task out, or null for none
     */
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
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must not be negative, was " + attempt);
        }
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("maxAttempts must not be negative, was " + maxAttempts);
        }
        comments = List.copyOf(comments);
        links = List.copyOf(links);
        messageIds = List.copyOf(messageIds);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (version < 0) {
            throw new IllegalArgumentException("version must not be negative, was " + version);
        }
        if (parentId < 0 || parentId == id) {
            throw new IllegalArgumentException("parentId must be 0 or another task's id, was " + parentId);
        }
        blockedBy = blockedBy.stream().sorted().toList();
        if (openBlockers < 0 || openBlockers > blockedBy.size()) {
            throw new IllegalArgumentException(
                    "openBlockers must be between 0 and " + blockedBy.size() + ", was " + openBlockers);
        }
        tags = tags.stream().sorted().toList();
    }

    /**
     * Tells whether a claim may hand the task out: it is pending, not archived, and every task it depends
     * on ended in success. A claim also waits for its {@linkplain #notBefore() not-before time} ({@link
     * #isScheduledAfter(Instant)}), which this method, having no clock, does not look at.
     *
     * @return true when the task is ready to be worked on
     */
    public boolean isReady() {
        return status == TaskStatus.PENDING && !archived && openBlockers == 0;
    }

    /**
     * Tells whether the task waits for its {@linkplain #notBefore() not-before time} at a given time: a
     * claim does not hand it out before then, even when it is otherwise {@linkplain #isReady() ready}.
     *
     * @param now the time to compare with (the store's clock decides claims)
     * @return true when the task has a not-before time after {@code now}
     */
    public boolean isScheduledAfter(Instant now) {
        return notBefore != null && notBefore.isAfter(now);
    }

    /**
     * Tells whether a task this one depends on has not ended in success (yet).
     *
     * @return true while the task waits for a blocker
     */
    public boolean isBlocked() {
        return openBlockers > 0;
    }

    /**
     * Tells whether the task is a subtask of another.
     *
     * @return true when {@link #parentId()} is not 0
     */
    public boolean hasParent() {
        return parentId != 0;
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
     * Tells whether a claim holds the task under a lease: it is running and has a lease expiry.
     *
     * @return true while the task is leased to its assignee
     */
    public boolean isLeased() {
        return status == TaskStatus.RUNNING && leaseExpiresAt != null;
    }

    /**
     * Tells whether the task carries a Markdown steps document.
     *
     * @return true when {@link #steps()} is neither null nor blank
     */
    public boolean hasSteps() {
        return steps != null && !steps.isBlank();
    }
}
