package dev.taskagent.task;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A change to some fields of one task. Fields not set are left as they are.
 *
 * <p>An update may carry the {@linkplain #expectedVersion() version} the caller read; a store then
 * refuses it with a {@code StaleTaskException} when the task changed since. Without an expected
 * version the update applies to whatever the task is now.
 *
 * <p>Appends (progress, comments, links) and message links are not updates; they have their own store
 * operations so that concurrent appends are never lost.
 *
 * <p>Immutable and thread-safe. Build one with {@link #of(long)}.
 */
public final class TaskUpdate {

    /** The fields an update can change. */
    public enum Field {
        /** {@link Task#description()} */
        DESCRIPTION,
        /** {@link Task#status()} */
        STATUS,
        /** {@link Task#priority()} */
        PRIORITY,
        /** {@link Task#assignee()} */
        ASSIGNEE,
        /** {@link Task#previousAssignee()} */
        PREVIOUS_ASSIGNEE,
        /** {@link Task#userPreferences()} */
        USER_PREFERENCES,
        /** {@link Task#steps()} */
        STEPS,
        /** {@link Task#currentStep()} */
        CURRENT_STEP,
        /** {@link Task#archived()} */
        ARCHIVED,
        /** {@link Task#parentId()} */
        PARENT,
        /** {@link Task#tags()} */
        TAGS,
        /** {@link Task#metadata()} */
        METADATA
    }

    private final long taskId;
    private final OptionalLong expectedVersion;
    private final Set<Field> fields;
    private final String description;
    private final TaskStatus status;
    private final int priority;
    private final String assignee;
    private final String previousAssignee;
    private final List<String> userPreferences;
    private final String steps;
    private final int currentStep;
    private final boolean archived;
    private final long parentId;
    private final List<String> tags;
    private final String metadata;
    private final boolean evenWithOpenChildren;

    private TaskUpdate(Builder builder) {
        taskId = builder.taskId;
        expectedVersion = builder.expectedVersion;
        fields = builder.fields.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(builder.fields));
        description = builder.description;
        status = builder.status;
        priority = builder.priority;
        assignee = builder.assignee;
        previousAssignee = builder.previousAssignee;
        userPreferences = builder.userPreferences;
        steps = builder.steps;
        currentStep = builder.currentStep;
        archived = builder.archived;
        parentId = builder.parentId;
        tags = builder.tags;
        metadata = builder.metadata;
        evenWithOpenChildren = builder.evenWithOpenChildren;
    }

    /**
     * Starts an update of one task.
     *
     * @param taskId the task's id; positive
     * @return a builder
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    public static Builder of(long taskId) {
        return new Builder(taskId);
    }

    /** @return the id of the task to change */
    public long taskId() {
        return taskId;
    }

    /** @return the version the caller read, or empty to apply unconditionally */
    public OptionalLong expectedVersion() {
        return expectedVersion;
    }

    /** @return the fields this update sets; never null */
    public Set<Field> fields() {
        return fields;
    }

    /**
     * Tells whether this update sets a field.
     *
     * @param field the field
     * @return true when the field is set by this update
     */
    public boolean changes(Field field) {
        return fields.contains(field);
    }

    /** @return the new description (meaningful when {@link Field#DESCRIPTION} is set) */
    public String description() {
        return description;
    }

    /** @return the new status (meaningful when {@link Field#STATUS} is set) */
    public TaskStatus status() {
        return status;
    }

    /** @return the new priority (meaningful when {@link Field#PRIORITY} is set) */
    public int priority() {
        return priority;
    }

    /** @return the new assignee, possibly null (meaningful when {@link Field#ASSIGNEE} is set) */
    public String assignee() {
        return assignee;
    }

    /** @return the new previous assignee, possibly null (when {@link Field#PREVIOUS_ASSIGNEE} is set) */
    public String previousAssignee() {
        return previousAssignee;
    }

    /** @return the new preference list (meaningful when {@link Field#USER_PREFERENCES} is set) */
    public List<String> userPreferences() {
        return userPreferences;
    }

    /** @return the new steps document, possibly null (meaningful when {@link Field#STEPS} is set) */
    public String steps() {
        return steps;
    }

    /** @return the new current step (meaningful when {@link Field#CURRENT_STEP} is set) */
    public int currentStep() {
        return currentStep;
    }

    /** @return the new archived flag (meaningful when {@link Field#ARCHIVED} is set) */
    public boolean archived() {
        return archived;
    }

    /** @return the new parent's id, 0 for none (meaningful when {@link Field#PARENT} is set) */
    public long parentId() {
        return parentId;
    }

    /** @return the new tags, sorted (meaningful when {@link Field#TAGS} is set) */
    public List<String> tags() {
        return tags;
    }

    /** @return the new metadata, or null to remove it (meaningful when {@link Field#METADATA} is set) */
    public String metadata() {
        return metadata;
    }

    /**
     * Tells whether a status of {@link TaskStatus#SUCCESS} may be set while subtasks are unfinished; stores
     * refuse it otherwise.
     *
     * @return true when the caller asked to complete the task over its open subtasks
     */
    public boolean evenWithOpenChildren() {
        return evenWithOpenChildren;
    }

    @Override
    public String toString() {
        return "TaskUpdate[taskId=" + taskId + ", expectedVersion=" + expectedVersion + ", fields=" + fields + "]";
    }

    /** Builds {@link TaskUpdate}; each setter validates its argument at once. Not thread-safe. */
    public static final class Builder {
        private final long taskId;
        private OptionalLong expectedVersion = OptionalLong.empty();
        private final EnumSet<Field> fields = EnumSet.noneOf(Field.class);
        private String description;
        private TaskStatus status;
        private int priority;
        private String assignee;
        private String previousAssignee;
        private List<String> userPreferences;
        private String steps;
        private int currentStep;
        private boolean archived;
        private long parentId;
        private List<String> tags;
        private String metadata;
        private boolean evenWithOpenChildren;

        private Builder(long taskId) {
            if (taskId <= 0) {
                throw new IllegalArgumentException("taskId must be positive, was " + taskId);
            }
            this.taskId = taskId;
        }

        /**
         * Makes the update conditional on the task still being at this version.
         *
         * @param version the version the caller read; not negative
         * @return this builder
         */
        public Builder expectVersion(long version) {
            if (version < 0) {
                throw new IllegalArgumentException("version must not be negative, was " + version);
            }
            expectedVersion = OptionalLong.of(version);
            return this;
        }

        /**
         * Sets the description.
         *
         * @param value not blank
         * @return this builder
         */
        public Builder description(String value) {
            Checks.notBlank(value, "description");
            description = TextLimits.check(value, "description");
            fields.add(Field.DESCRIPTION);
            return this;
        }

        /**
         * Sets the status; any status may follow any status.
         *
         * @param value not null
         * @return this builder
         */
        public Builder status(TaskStatus value) {
            status = Objects.requireNonNull(value, "status");
            fields.add(Field.STATUS);
            return this;
        }

        /**
         * Sets the priority.
         *
         * @param value any int; higher is claimed first
         * @return this builder
         */
        public Builder priority(int value) {
            priority = value;
            fields.add(Field.PRIORITY);
            return this;
        }

        /**
         * Sets the assignee.
         *
         * @param value an agent name, or null to unassign
         * @return this builder
         */
        public Builder assignee(String value) {
            assignee = Checks.optionalName(value, "assignee");
            fields.add(Field.ASSIGNEE);
            return this;
        }

        /**
         * Sets the previous assignee.
         *
         * @param value an agent name, or null
         * @return this builder
         */
        public Builder previousAssignee(String value) {
            previousAssignee = Checks.optionalName(value, "previousAssignee");
            fields.add(Field.PREVIOUS_ASSIGNEE);
            return this;
        }

        /**
         * Replaces the whole preference list with one element: the replace semantics of {@code
         * set_task_user_preference}.
         *
         * @param value the complete, merged preference; not blank
         * @return this builder
         */
        public Builder userPreference(String value) {
            Checks.notBlank(value, "userPreference");
            TextLimits.check(value, "userPreference");
            return userPreferences(List.of(value));
        }

        /**
         * Replaces the preference list.
         *
         * @param value the new list, possibly empty; no null elements
         * @return this builder
         */
        public Builder userPreferences(List<String> value) {
            userPreferences = List.copyOf(value);
            userPreferences.forEach(preference -> TextLimits.check(preference, "userPreference"));
            fields.add(Field.USER_PREFERENCES);
            return this;
        }

        /**
         * Sets the steps document.
         *
         * @param value a Markdown checklist, or null to remove the steps
         * @return this builder
         */
        public Builder steps(String value) {
            steps = value == null ? null : TextLimits.check(value, "steps");
            fields.add(Field.STEPS);
            return this;
        }

        /**
         * Sets the current step.
         *
         * @param value the last step ticked, 0 for none; not negative
         * @return this builder
         */
        public Builder currentStep(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("currentStep must not be negative, was " + value);
            }
            currentStep = value;
            fields.add(Field.CURRENT_STEP);
            return this;
        }

        /**
         * Archives or restores the task.
         *
         * @param value true to take the task out of every queue
         * @return this builder
         */
        public Builder archived(boolean value) {
            archived = value;
            fields.add(Field.ARCHIVED);
            return this;
        }

        /**
         * Moves the task under another parent, or (0) makes it a top-level task.
         *
         * @param value the new parent's id, or 0 for none
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is negative or the task's own id
         */
        public Builder parent(long value) {
            if (value < 0 || value == taskId) {
                throw new IllegalArgumentException(
                        value == taskId
                                ? "task " + taskId + " cannot be its own parent"
                                : "parentId must be 0 (none) or a task's id, was " + value);
            }
            parentId = value;
            fields.add(Field.PARENT);
            return this;
        }

        /**
         * Replaces the tags.
         *
         * @param value the new tags
         * @return this builder
         * @throws IllegalArgumentException if a tag is blank, too long or there are too many
         */
        public Builder tags(List<String> value) {
            tags = TextLimits.checkTags(value);
            fields.add(Field.TAGS);
            return this;
        }

        /**
         * Replaces the metadata document.
         *
         * @param value a JSON object, or null to remove it
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is not a JSON object or is too long
         */
        public Builder metadata(String value) {
            metadata = TextLimits.checkMetadata(value);
            fields.add(Field.METADATA);
            return this;
        }

        /**
         * Allows a status of {@link TaskStatus#SUCCESS} while subtasks of the task are unfinished, which
         * stores refuse otherwise.
         *
         * @return this builder
         */
        public Builder evenWithOpenChildren() {
            evenWithOpenChildren = true;
            return this;
        }

        /**
         * Builds the update.
         *
         * @return the update
         * @throws IllegalStateException if no field was set
         */
        public TaskUpdate build() {
            if (fields.isEmpty()) {
                throw new IllegalStateException("TaskUpdate for task " + taskId + " sets no field");
            }
            return new TaskUpdate(this);
        }
    }
}
