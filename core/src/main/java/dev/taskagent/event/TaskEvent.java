package dev.taskagent.event;

import dev.taskagent.task.Comment;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.util.List;
import java.util.Objects;

/**
 * Something that happened to a task, told to {@link TaskListener}s after the transaction that did it
 * committed; never for work that rolled back.
 *
 * <p>Every event carries the task as it was right after the change. Immutable and thread-safe.
 */
public sealed interface TaskEvent {

    /** @return the task right after the change */
    Task task();

    /**
     * A task was created.
     *
     * @param task the new task
     */
    record Created(Task task) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the new task; not null
         */
        public Created {
            Objects.requireNonNull(task, "task");
        }
    }

    /**
     * A task's description, priority, assignee, preferences or steps changed (status changes are {@link
     * StatusChanged}).
     *
     * @param task the task after the change
     */
    record Updated(Task task) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         */
        public Updated {
            Objects.requireNonNull(task, "task");
        }
    }

    /**
     * A task's status changed.
     *
     * @param task the task after the change
     * @param from the status before
     * @param to the status after
     */
    record StatusChanged(Task task, TaskStatus from, TaskStatus to) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param from the status before; not null
         * @param to the status after; not null
         */
        public StatusChanged {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }
    }

    /**
     * A progress entry was appended.
     *
     * @param task the task after the change
     * @param progress the entry
     */
    record ProgressAppended(Task task, String progress) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param progress the entry; not null
         */
        public ProgressAppended {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(progress, "progress");
        }
    }

    /**
     * A task's user preference was replaced.
     *
     * @param task the task after the change
     * @param preference the new, complete preference
     */
    record PreferenceSet(Task task, String preference) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param preference the new, complete preference; not null
         */
        public PreferenceSet {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(preference, "preference");
        }
    }

    /**
     * Messages were linked to a task.
     *
     * @param task the task after the change
     * @param messageIds the host application's ids of the messages linked by this change
     */
    record MessagesLinked(Task task, List<String> messageIds) implements TaskEvent {
        /**
         * Checks the invariants and copies the list.
         *
         * @param task the task after the change; not null
         * @param messageIds the host application's ids of the messages linked by this change; not null, without null
         *     elements
         */
        public MessagesLinked {
            Objects.requireNonNull(task, "task");
            messageIds = List.copyOf(messageIds);
        }
    }

    /**
     * A step of a task's Markdown checklist was ticked.
     *
     * @param task the task after the change
     * @param stepNumber the 1-based step number
     * @param stepText the step's text
     */
    record StepCompleted(Task task, int stepNumber, String stepText) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param stepNumber the 1-based step number
         * @param stepText the step's text; not null
         */
        public StepCompleted {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(stepText, "stepText");
        }
    }

    /**
     * An agent claimed a task from its queue.
     *
     * @param task the task, now running, with the claim's attempt and lease expiry
     * @param agent who claimed it
     */
    record Claimed(Task task, String agent) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task, now running, with the claim's attempt and lease expiry; not null
         * @param agent who claimed it; not null
         */
        public Claimed {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(agent, "agent");
        }
    }

    /**
     * A task was handed from one agent to another.
     *
     * @param task the task after the hand-over
     * @param fromAgent the previous assignee
     * @param toAgent the new assignee
     * @param comment the hand-over comment
     */
    record Moved(Task task, String fromAgent, String toAgent, String comment) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the hand-over; not null
         * @param fromAgent the previous assignee; not null
         * @param toAgent the new assignee; not null
         * @param comment the hand-over comment; not null
         */
        public Moved {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(fromAgent, "fromAgent");
            Objects.requireNonNull(toAgent, "toAgent");
            Objects.requireNonNull(comment, "comment");
        }
    }

    /**
     * A comment was added.
     *
     * @param task the task after the change
     * @param comment the comment
     */
    record Commented(Task task, Comment comment) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param comment the comment; not null
         */
        public Commented {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(comment, "comment");
        }
    }

    /**
     * An agent ended its claim with a terminal status.
     *
     * @param task the task after the change
     * @param agent who completed it
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @param comment the agent's closing comment, or null when it left none
     */
    record Completed(Task task, String agent, TaskStatus outcome, String comment) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param agent who completed it; not null
         * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}; not null
         * @param comment the agent's closing comment, or null when it left none
         */
        public Completed {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /**
     * An agent gave its claimed task back to its queue, pending again.
     *
     * @param task the task after the change
     * @param agent who released it
     * @param comment why, or null when it left no comment
     */
    record Released(Task task, String agent, String comment) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the change; not null
         * @param agent who released it; not null
         * @param comment why, or null when it left no comment
         */
        public Released {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(agent, "agent");
        }
    }

    /**
     * A claim's lease expired and a reclaim took the task back: pending for another attempt, or failed
     * because it had used its attempts (a dead letter). Which of the two is the task's status.
     *
     * @param task the task after the reclaim: {@link TaskStatus#PENDING} or {@link TaskStatus#FAILED}
     * @param expiredAttempt the attempt whose lease expired
     */
    record LeaseExpired(Task task, int expiredAttempt) implements TaskEvent {
        /**
         * Checks the invariants.
         *
         * @param task the task after the reclaim; not null
         * @param expiredAttempt the attempt whose lease expired
         */
        public LeaseExpired {
            Objects.requireNonNull(task, "task");
        }

        /**
         * Tells whether the reclaim failed the task because it had used its attempts.
         *
         * @return true for a dead letter, false for a task back in its queue
         */
        public boolean deadLettered() {
            return task.status() == TaskStatus.FAILED;
        }
    }

    /**
     * The task was made to depend on another: it is not claimed until that one ends in success. Recorded by
     * the store that added the dependency.
     *
     * @param task the dependant, after the change
     * @param blockerId the task it now depends on
     */
    record DependencyAdded(Task task, long blockerId) implements TaskEvent {
        /**
         * Checks the arguments.
         *
         * @param task the dependant; not null
         * @param blockerId the blocker's id
         */
        public DependencyAdded {
            Objects.requireNonNull(task, "task");
        }
    }

    /**
     * A dependency of the task was removed. Recorded by the store that removed it.
     *
     * @param task the former dependant, after the change
     * @param blockerId the task it no longer depends on
     */
    record DependencyRemoved(Task task, long blockerId) implements TaskEvent {
        /**
         * Checks the arguments.
         *
         * @param task the former dependant; not null
         * @param blockerId the former blocker's id
         */
        public DependencyRemoved {
            Objects.requireNonNull(task, "task");
        }
    }

    /**
     * The last unfinished task this one depends on ended in success (or its dependency was removed), so a
     * claim may hand it out now. Recorded by the store in the unit of work that made the change.
     *
     * @param task the task, now without open blockers
     */
    record Unblocked(Task task) implements TaskEvent {
        /**
         * Checks the argument.
         *
         * @param task the task; not null
         */
        public Unblocked {
            Objects.requireNonNull(task, "task");
        }
    }
}
