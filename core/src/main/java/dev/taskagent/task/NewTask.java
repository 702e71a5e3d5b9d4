package dev.taskagent.task;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * What a caller gives a store to create a task; the store assigns id, order, timestamps and version.
 *
 * <p>Immutable and thread-safe. Build one with {@link #builder(String, String)}.
 *
 * @param sessionId the session the task goes into; not blank, at most {@link Task#MAX_ID_LENGTH} chars
 * @param description the user's words; not blank, at most {@link Task#MAX_TEXT_LENGTH} chars
 * @param priority higher is claimed first
 * @param assignee the agent whose queue gets the task, or null
 * @param createdBy who created it, or null
 * @param steps a Markdown checklist, or null
 * @param maxAttempts how many claims the task may use before an expired lease fails it, 1..{@value
 *     #MAX_ATTEMPTS_LIMIT}; 0 for the queue's default
 * @param parentId the task this one is a subtask of, or 0 for none
 * @param blockedBy the tasks this one depends on: it is claimed only after each ended in success
 * @param tags short labels for filtering (see {@link TextLimits#checkTags(java.util.List)})
 * @param metadata the caller's own JSON object, kept verbatim, or null
 * @param notBefore the time before which no claim hands the task out (compared with the store's clock), or
 *     null to make it claimable as soon as it is ready
 * @param idempotencyKey a key of the caller's that makes the create happen once: a second create with the
 *     same key, from any process, returns the first task and writes nothing; or null
 */
public record NewTask(
        String sessionId,
        String description,
        int priority,
        String assignee,
        String createdBy,
        String steps,
        int maxAttempts,
        long parentId,
        List<Long> blockedBy,
        List<String> tags,
        String metadata,
        Instant notBefore,
        String idempotencyKey) {

    /** The highest {@link #maxAttempts()} a task may have. */
    public static final int MAX_ATTEMPTS_LIMIT = 1000;

    /**
     * How far ahead a {@linkplain #notBefore() not-before time} may lie: 3,660 days (ten years) after the
     * moment the spec is built. A later time is refused as a mistake.
     */
    public static final Duration MAX_SCHEDULE_AHEAD = Duration.ofDays(3660);

    /**
     * Checks the invariants. Every text must be free of NUL characters and unpaired surrogates, which stores
     * cannot keep.
     *
     * @param sessionId the session the task goes into; not blank, at most {@link Task#MAX_ID_LENGTH} chars
     * @param description the user's words; not blank, at most {@link Task#MAX_TEXT_LENGTH} chars
     * @param priority higher is claimed first
     * @param assignee the agent whose queue gets the task, or null; when given, not blank and at most {@link
     *     Task#MAX_ID_LENGTH} chars
     * @param createdBy who created it, or null; when given, not blank and at most {@link Task#MAX_ID_LENGTH}
     *     chars
     * @param steps a Markdown checklist, or null; when given, at most {@link Task#MAX_TEXT_LENGTH} chars
     * @param maxAttempts 1..{@value #MAX_ATTEMPTS_LIMIT}, or 0 for the queue's default
     * @param parentId the parent task's id, or 0 for none; not negative
     * @param blockedBy the blockers' ids; not null, positive, none twice; stored sorted
     * @param tags the tags; not null; checked by {@link TextLimits#checkTags(List)}
     * @param metadata a JSON object of at most {@link Task#MAX_METADATA_LENGTH} characters, or null
     * @param notBefore the time before which no claim hands the task out, or null; at most {@link
     *     #MAX_SCHEDULE_AHEAD} from now; kept to the microsecond (as stores keep it); a time before 1970 is
     *     the same as none
     * @param idempotencyKey the caller's key, or null; when given, not blank, at most {@link Task#MAX_ID_LENGTH}
     *     characters, without control characters
     */
    public NewTask {
        Checks.sessionId(sessionId);
        Checks.notBlank(description, "description");
        TextLimits.check(description, "description");
        Checks.optionalName(assignee, "assignee");
        Checks.optionalName(createdBy, "createdBy");
        if (steps != null) {
            TextLimits.check(steps, "steps");
        }
        if (maxAttempts != 0) {
            checkMaxAttempts(maxAttempts);
        }
        if (parentId < 0) {
            throw new IllegalArgumentException("parentId must be 0 (none) or a task's id, was " + parentId);
        }
        blockedBy = TextLimits.checkBlockers(blockedBy);
        tags = TextLimits.checkTags(tags);
        TextLimits.checkMetadata(metadata);
        notBefore = checkNotBefore(notBefore);
        Checks.optionalName(idempotencyKey, "idempotencyKey");
    }

    /**
     * A task without a not-before time or idempotency key: the fields before scheduling.
     *
     * @param sessionId the session
     * @param description the user's words
     * @param priority higher is claimed first
     * @param assignee the agent, or null
     * @param createdBy the creator, or null
     * @param steps a Markdown checklist, or null
     * @param maxAttempts 1..{@value #MAX_ATTEMPTS_LIMIT}, or 0 for the queue's default
     * @param parentId the parent task's id, or 0 for none
     * @param blockedBy the blockers' ids
     * @param tags the tags
     * @param metadata a JSON object, or null
     */
    public NewTask(
            String sessionId,
            String description,
            int priority,
            String assignee,
            String createdBy,
            String steps,
            int maxAttempts,
            long parentId,
            List<Long> blockedBy,
            List<String> tags,
            String metadata) {
        this(
                sessionId,
                description,
                priority,
                assignee,
                createdBy,
                steps,
                maxAttempts,
                parentId,
                blockedBy,
                tags,
                metadata,
                null,
                null);
    }

    /**
     * A task with the same values and no parent, blockers, tags or metadata: the fields before the work graph.
     *
     * @param sessionId the session
     * @param description the user's words
     * @param priority higher is claimed first
     * @param assignee the agent, or null
     * @param createdBy the creator, or null
     * @param steps a Markdown checklist, or null
     * @param maxAttempts 1..{@value #MAX_ATTEMPTS_LIMIT}, or 0 for the queue's default
     */
    public NewTask(
            String sessionId,
            String description,
            int priority,
            String assignee,
            String createdBy,
            String steps,
            int maxAttempts) {
        this(
                sessionId,
                description,
                priority,
                assignee,
                createdBy,
                steps,
                maxAttempts,
                0,
                List.of(),
                List.of(),
                null,
                null,
                null);
    }

    private static Instant checkNotBefore(Instant value) {
        if (value == null || value.isBefore(Instant.EPOCH)) {
            return null;
        }
        Instant latest = Instant.now().plus(MAX_SCHEDULE_AHEAD);
        if (value.isAfter(latest)) {
            throw new IllegalArgumentException("notBefore must be at most " + MAX_SCHEDULE_AHEAD.toDays()
                    + " days ahead (until " + latest.truncatedTo(ChronoUnit.SECONDS) + "), was " + value);
        }
        return value.truncatedTo(ChronoUnit.MICROS);
    }

    private static int checkMaxAttempts(int value) {
        if (value < 1 || value > MAX_ATTEMPTS_LIMIT) {
            throw new IllegalArgumentException(
                    "maxAttempts must be between 1 and " + MAX_ATTEMPTS_LIMIT + ", was " + value);
        }
        return value;
    }

    /**
     * Starts a new task with priority 0, no assignee, no creator and no steps.
     *
     * @param sessionId the session
     * @param description the user's words
     * @return a builder
     */
    public static Builder builder(String sessionId, String description) {
        return new Builder(sessionId, description);
    }

    /**
     * A pending task with just a description.
     *
     * @param sessionId the session
     * @param description the user's words
     * @return the new task's spec
     */
    public static NewTask of(String sessionId, String description) {
        return builder(sessionId, description).build();
    }

    /** Builds {@link NewTask}. Not thread-safe. */
    public static final class Builder {
        private final String sessionId;
        private final String description;
        private int priority;
        private String assignee;
        private String createdBy;
        private String steps;
        private int maxAttempts;
        private long parentId;
        private List<Long> blockedBy = List.of();
        private List<String> tags = List.of();
        private String metadata;
        private Instant notBefore;
        private String idempotencyKey;

        private Builder(String sessionId, String description) {
            this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
            this.description = Objects.requireNonNull(description, "description");
        }

        /**
         * Sets the priority; higher is claimed first.
         *
         * @param value any int
         * @return this builder
         */
        public Builder priority(int value) {
            priority = value;
            return this;
        }

        /**
         * Puts the task in an agent's queue.
         *
         * @param value the agent's name, or null
         * @return this builder
         */
        public Builder assignee(String value) {
            assignee = Checks.optionalName(value, "assignee");
            return this;
        }

        /**
         * Records who created the task.
         *
         * @param value the creator's name, or null
         * @return this builder
         */
        public Builder createdBy(String value) {
            createdBy = Checks.optionalName(value, "createdBy");
            return this;
        }

        /**
         * Gives the task a Markdown checklist of steps.
         *
         * @param value the Markdown document, or null
         * @return this builder
         */
        public Builder steps(String value) {
            steps = value;
            return this;
        }

        /**
         * Limits how many times the task may be claimed: when the lease of its last allowed claim
         * expires, the task fails instead of going back to the queue. Default: the queue's setting.
         *
         * @param value 1..{@value NewTask#MAX_ATTEMPTS_LIMIT}
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is out of range
         */
        public Builder maxAttempts(int value) {
            maxAttempts = checkMaxAttempts(value);
            return this;
        }

        /**
         * Makes the task a subtask of another. A parent is not blocked by its children; completing it with
         * success while a child is unfinished is refused unless asked for explicitly.
         *
         * @param value the parent task's id, or 0 for none
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is negative
         */
        public Builder parent(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("parentId must be 0 (none) or a task's id, was " + value);
            }
            parentId = value;
            return this;
        }

        /**
         * Makes the task depend on others: no claim hands it out until each of them ended in success.
         *
         * @param value the blockers' ids
         * @return this builder
         * @throws IllegalArgumentException if an id is not positive or given twice
         */
        public Builder blockedBy(List<Long> value) {
            blockedBy = TextLimits.checkBlockers(value);
            return this;
        }

        /**
         * Makes the task depend on others.
         *
         * @param value the blockers' ids
         * @return this builder
         * @throws IllegalArgumentException if an id is not positive or given twice
         */
        public Builder blockedBy(long... value) {
            return blockedBy(java.util.Arrays.stream(value).boxed().toList());
        }

        /**
         * Labels the task.
         *
         * @param value the tags
         * @return this builder
         * @throws IllegalArgumentException if a tag is blank, too long or there are too many
         */
        public Builder tags(List<String> value) {
            tags = TextLimits.checkTags(value);
            return this;
        }

        /**
         * Labels the task.
         *
         * @param value the tags
         * @return this builder
         * @throws IllegalArgumentException if a tag is blank, too long or there are too many
         */
        public Builder tags(String... value) {
            return tags(List.of(value));
        }

        /**
         * Attaches the caller's own JSON object (an issue URL, a ticket key), kept verbatim and never read
         * by taskagent.
         *
         * @param value a JSON object, or null for none
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is not a JSON object or is too long
         */
        public Builder metadata(String value) {
            metadata = TextLimits.checkMetadata(value);
            return this;
        }

        /**
         * Makes the task wait: no claim hands it out before this time, compared with the store's clock (a
         * database store's, not this JVM's). A time that has passed makes it claimable at once.
         *
         * @param value the time, or null for none; at most {@link #MAX_SCHEDULE_AHEAD} from now
         * @return this builder
         * @throws IllegalArgumentException if {@code value} lies further ahead
         */
        public Builder notBefore(Instant value) {
            notBefore = checkNotBefore(value);
            return this;
        }

        /**
         * Makes the create happen once: while a task created with this key exists, another create with it (a
         * retry after a lost reply, from any process) returns that task and writes nothing. The key is the
         * caller's, e.g. the id of the request or order the task is for; keys are unique across the store.
         *
         * @param value the key, or null for none; not blank, at most {@link Task#MAX_ID_LENGTH} characters,
         *     without control characters
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is blank, too long or holds a control character
         */
        public Builder idempotencyKey(String value) {
            idempotencyKey = Checks.optionalName(value, "idempotencyKey");
            return this;
        }

        /**
         * Builds the spec.
         *
         * @return the spec
         * @throws IllegalArgumentException if the session id or description is blank or too long
         */
        public NewTask build() {
            return new NewTask(
                    sessionId,
                    description,
                    priority,
                    assignee,
                    createdBy,
                    steps,
                    maxAttempts,
                    parentId,
                    blockedBy,
                    tags,
                    metadata,
                    notBefore,
                    idempotencyKey);
        }
    }
}
