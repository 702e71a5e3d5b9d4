package dev.taskagent.queue;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.TransactionRunner;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskSnapshots;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskArchivedException;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskNotAssignedException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.Toolbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The shared work queue: several agents share one {@link TaskStore}, and each agent's queue is the set
 * of tasks assigned to it. Agents {@linkplain #claimNext(String) claim} their next task and {@linkplain
 * #move(long, String, String, String) hand tasks over} to each other, each in one transaction.
 *
 * <p>Vocabulary: an <em>idle</em> task is {@code pending}, a <em>working</em> one is {@code running}, a
 * <em>complete</em> one is {@code success} or {@code failed}.
 *
 * <pre>{@code
 * TaskQueue queue = TaskQueue.builder(store).listener(event -> log(event)).build();
 * queue.create(queue.newTask("Review the login fix").priority(2).assignee("alice").build());
 * queue.claimNext("alice").ifPresent(task -> {
 *     // ... work on it ...
 *     queue.move(task.id(), "alice", "bob", "Reviewed; bob, please deploy it.");
 * });
 * }</pre>
 *
 * <p>Each operation runs in one unit of work of the store: all of it is kept, or nothing. Listeners hear
 * about an operation's {@link TaskEvent}s after it committed, never for work that rolled back:
 * {@code create} → {@link TaskEvent.Created}; {@code claimNext} → {@link TaskEvent.Claimed}; {@code move} →
 * {@link TaskEvent.Moved} (which carries the comment); {@code comment} → {@link TaskEvent.Commented};
 * {@code update} → {@link TaskEvent.StatusChanged} when the status changed and {@link
 * TaskEvent.Updated} when another field changed; {@code link} and {@code archive} → {@link
 * TaskEvent.Updated}.
 *
 * <p>Queues are by assignee and span sessions: a task of any session assigned to {@code alice} is in
 * alice's queue. The queue's own {@linkplain #sessionId() session} only holds the tasks created through
 * {@link #newTask(String)} and the {@code create_task} tool.
 *
 * <p>Thread-safe: one instance serves every agent of the application, as does its store.
 */
public final class TaskQueue {

    /** The session that holds tasks created through the queue unless the builder names another. */
    public static final String DEFAULT_SESSION_ID = "queue";

    /**
     * How often a version-guarded write is tried when another transaction changed the task between the
     * read and the write. Each retry reads the task again and checks it again.
     */
    static final int MAX_ATTEMPTS = 10;

    private final TransactionRunner runner;
    private final String sessionId;
    private final Toolbox tools;

    private TaskQueue(Builder builder) {
        this.runner = new TransactionRunner(builder.store, builder.listeners);
        this.sessionId = builder.sessionId;
        this.tools = QueueTools.toolbox(this);
    }

    /**
     * Starts a queue over a store.
     *
     * @param store where the tasks live; shared with other components as they like
     * @return a builder
     * @throws NullPointerException if {@code store} is null
     */
    public static Builder builder(TaskStore store) {
        return new Builder(store);
    }

    /** @return the store the queue works on */
    public TaskStore store() {
        return runner.store();
    }

    /** @return the session that holds the tasks created through the queue */
    public String sessionId() {
        return sessionId;
    }

    /**
     * Returns the queue's tools for a model: {@code signup_for_task}, {@code move_task}, {@code
     * create_task}, {@code get_task}, {@code update_task}, {@code get_my_queue}, {@code add_comment},
     * {@code add_link} and {@code archive_task}. Their results are short texts, the task as compact JSON
     * where the tool returns one; bad input and refused moves are soft errors ({@code isError}).
     *
     * @return the toolbox, immutable and thread-safe
     */
    public Toolbox tools() {
        return tools;
    }

    /**
     * Claims the agent's next idle task: among its pending, non-archived tasks the one with the highest
     * priority, then the oldest, then the lowest id; sets it running and returns it with its comments
     * and links. Atomic: under any concurrency each task is claimed by exactly one caller.
     *
     * @param agent the agent's name; not blank
     * @return the claimed task, now running; empty when the agent has no idle task
     * @throws NullPointerException if {@code agent} is null
     * @throws IllegalArgumentException if {@code agent} is blank or longer than {@link Task#MAX_ID_LENGTH}
     * @throws TaskStoreException if the store fails (nothing was claimed)
     */
    public Optional<Task> claimNext(String agent) {
        StoreArguments.name(agent, "agent");
        return runner.run((transaction, events) -> {
            Optional<Task> claimed = transaction.claimNext(agent);
            claimed.ifPresent(task -> events.add(new TaskEvent.Claimed(task, agent)));
            return claimed;
        });
    }

    /**
     * Hands a task over from one agent to another: checks that the task exists, is assigned to {@code
     * fromAgent}, is not complete and not archived; then sets the assignee to {@code toAgent}, the
     * previous assignee to {@code fromAgent}, the status to pending, and adds the comment authored by
     * {@code fromAgent}. Pending and running tasks can be moved.
     *
     * <p>All of it happens in one transaction, and the write is guarded by the version read: of two
     * simultaneous moves of one task exactly one succeeds and exactly one comment is written; the other
     * sees the task again and is refused because it no longer holds it.
     *
     * @param taskId the task's id; positive
     * @param fromAgent the agent that holds the task; not blank
     * @param toAgent the agent that takes it over; not blank, not {@code fromAgent}
     * @param comment why the task is handed over and what is left to do; not blank, at most {@link
     *     Task#MAX_TEXT_LENGTH} characters
     * @return the task after the move, with all its comments and links
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an id is not positive, a name or the comment is blank or too
     *     long, or {@code toAgent} equals {@code fromAgent}
     * @throws TaskNotFoundException if there is no such task
     * @throws TaskNotAssignedException if the task is not assigned to {@code fromAgent}
     * @throws TaskCompleteException if the task is complete (success or failed)
     * @throws TaskArchivedException if the task is archived
     * @throws StaleTaskException if the task kept changing concurrently (after 10 attempts)
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task move(long taskId, String fromAgent, String toAgent, String comment) {
        StoreArguments.taskId(taskId);
        StoreArguments.name(fromAgent, "fromAgent");
        StoreArguments.name(toAgent, "toAgent");
        StoreArguments.text(comment, "comment");
        if (fromAgent.equals(toAgent)) {
            throw new IllegalArgumentException("toAgent is the same as fromAgent ('" + fromAgent
                    + "'); a task can only be moved to another agent");
        }
        return retryingWhenStale(() -> runner.run((transaction, events) -> {
            Task task = existing(transaction, taskId);
            checkMovable(task, fromAgent);
            transaction.updateTask(TaskUpdate.of(taskId)
                    .expectVersion(task.version())
                    .assignee(toAgent)
                    .previousAssignee(fromAgent)
                    .status(TaskStatus.PENDING)
                    .build());
            Task moved = transaction.addComment(taskId, fromAgent, comment);
            events.add(new TaskEvent.Moved(moved, fromAgent, toAgent, comment));
            return moved;
        }));
    }

    /**
     * Starts a task in the queue's {@linkplain #sessionId() session}, for {@link #create(NewTask)}.
     *
     * @param description the task, in the requester's words; not blank
     * @return a builder for priority, assignee, creator and steps
     * @throws NullPointerException if {@code description} is null
     */
    public NewTask.Builder newTask(String description) {
        return NewTask.builder(sessionId, description);
    }

    /**
     * Creates a pending task at the end of its session; when it has an assignee it joins that agent's
     * queue.
     *
     * @param task what to create, e.g. from {@link #newTask(String)}; any session
     * @return the new task
     * @throws NullPointerException if {@code task} is null
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task create(NewTask task) {
        Objects.requireNonNull(task, "task");
        return runner.run((transaction, events) -> {
            Task created = transaction.appendTask(task);
            events.add(new TaskEvent.Created(created));
            return created;
        });
    }

    /**
     * Reads a task with its comments and links.
     *
     * @param taskId the task's id; positive
     * @return the task, or empty when there is none with that id
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    public Optional<Task> get(long taskId) {
        StoreArguments.taskId(taskId);
        return store().inTransaction(transaction -> transaction.findTask(taskId));
    }

    /**
     * Changes the fields an update sets. When it changes the assignee to another agent and does not set
     * the previous assignee itself, the old assignee is recorded as the previous one, as in a {@linkplain
     * #move move}.
     *
     * <p>An update with an {@linkplain TaskUpdate#expectedVersion() expected version} fails when the task
     * changed since; one without applies to the task as it is now.
     *
     * @param update the change
     * @return the task after the change
     * @throws NullPointerException if {@code update} is null
     * @throws TaskNotFoundException if there is no such task
     * @throws StaleTaskException if the update expects a version the task no longer has
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task update(TaskUpdate update) {
        Objects.requireNonNull(update, "update");
        if (update.expectedVersion().isPresent()) {
            return updateOnce(update);
        }
        return retryingWhenStale(() -> updateOnce(update));
    }

    /**
     * Lists an agent's non-archived tasks of every status in claim order: highest priority first, then
     * oldest, then lowest id.
     *
     * @param agent the agent's name; not blank
     * @return the tasks; empty when the agent has none
     * @throws NullPointerException if {@code agent} is null
     * @throws IllegalArgumentException if {@code agent} is blank or too long
     */
    public List<Task> listQueue(String agent) {
        StoreArguments.name(agent, "agent");
        return store().inTransaction(transaction -> transaction.listQueue(agent));
    }

    /**
     * Adds a comment at the end of a task's comments.
     *
     * @param taskId the task's id; positive
     * @param author who writes it; not blank
     * @param text the comment, stored verbatim; not blank, at most {@link Task#MAX_TEXT_LENGTH} characters
     * @return the task after the change
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the id is not positive or a text is blank or too long
     * @throws TaskNotFoundException if there is no such task
     */
    public Task comment(long taskId, String author, String text) {
        StoreArguments.taskId(taskId);
        StoreArguments.name(author, "author");
        StoreArguments.text(text, "text");
        return runner.run((transaction, events) -> {
            Task task = transaction.addComment(taskId, author, text);
            events.add(new TaskEvent.Commented(
                    task, task.comments().get(task.comments().size() - 1)));
            return task;
        });
    }

    /**
     * Attaches a link at the end of a task's links.
     *
     * @param taskId the task's id; positive
     * @param url the address; not blank
     * @param description what the link is; may be empty
     * @param author who adds it; not blank
     * @return the task after the change
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the id is not positive or the url or author is blank or too long
     * @throws TaskNotFoundException if there is no such task
     */
    public Task link(long taskId, String url, String description, String author) {
        StoreArguments.taskId(taskId);
        StoreArguments.text(url, "url");
        Objects.requireNonNull(description, "description");
        StoreArguments.name(author, "author");
        return runner.run((transaction, events) -> {
            Task task = transaction.addLink(taskId, url, description, author);
            events.add(new TaskEvent.Updated(task));
            return task;
        });
    }

    /**
     * Archives a task: it leaves every queue (no claim returns it, no listing shows it, it cannot be
     * moved) but stays readable with {@link #get(long)}. Archiving an archived task changes nothing.
     *
     * @param taskId the task's id; positive
     * @return the archived task
     * @throws IllegalArgumentException if {@code taskId} is not positive
     * @throws TaskNotFoundException if there is no such task
     */
    public Task archive(long taskId) {
        StoreArguments.taskId(taskId);
        return runner.run((transaction, events) -> {
            Task task = existing(transaction, taskId);
            if (task.archived()) {
                return task;
            }
            Task archived =
                    transaction.updateTask(TaskUpdate.of(taskId).archived(true).build());
            events.add(new TaskEvent.Updated(archived));
            return archived;
        });
    }

    @Override
    public String toString() {
        return "TaskQueue[store=" + store() + ", sessionId=" + sessionId + "]";
    }

    private Task updateOnce(TaskUpdate update) {
        return runner.run((transaction, events) -> {
            Task before = existing(transaction, update.taskId());
            TaskUpdate effective = withPreviousAssignee(update, before);
            boolean versionHolds = update.expectedVersion().isEmpty()
                    || update.expectedVersion().getAsLong() == before.version();
            if (versionHolds && TaskSnapshots.applied(effective, before).build().equals(before)) {
                return before; // nothing would change: no write, no new version, no event
            }
            Task after = transaction.updateTask(effective);
            if (before.status() != after.status()) {
                events.add(new TaskEvent.StatusChanged(after, before.status(), after.status()));
            }
            if (update.fields().stream().anyMatch(field -> field != TaskUpdate.Field.STATUS)) {
                events.add(new TaskEvent.Updated(after));
            }
            return after;
        });
    }

    /**
     * Adds the previous assignee to an update that reassigns the task, and guards it with the version
     * read so that a concurrent hand-over cannot make the recorded previous assignee wrong.
     */
    private static TaskUpdate withPreviousAssignee(TaskUpdate update, Task before) {
        boolean reassigns = update.changes(TaskUpdate.Field.ASSIGNEE)
                && !update.changes(TaskUpdate.Field.PREVIOUS_ASSIGNEE)
                && before.assignee() != null
                && !before.assignee().equals(update.assignee());
        TaskUpdate.Builder copy = TaskUpdate.of(update.taskId());
        copy.expectVersion(update.expectedVersion().orElse(before.version()));
        for (TaskUpdate.Field field : update.fields()) {
            switch (field) {
                case DESCRIPTION -> copy.description(update.description());
                case STATUS -> copy.status(update.status());
                case PRIORITY -> copy.priority(update.priority());
                case ASSIGNEE -> copy.assignee(update.assignee());
                case PREVIOUS_ASSIGNEE -> copy.previousAssignee(update.previousAssignee());
                case USER_PREFERENCES -> copy.userPreferences(update.userPreferences());
                case STEPS -> copy.steps(update.steps());
                case CURRENT_STEP -> copy.currentStep(update.currentStep());
                case ARCHIVED -> copy.archived(update.archived());
            }
        }
        if (reassigns) {
            copy.previousAssignee(before.assignee());
        }
        return copy.build();
    }

    private static Task existing(TaskTransaction transaction, long taskId) {
        return transaction.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
    }

    private static void checkMovable(Task task, String fromAgent) {
        if (!fromAgent.equals(task.assignee())) {
            throw new TaskNotAssignedException(task.id(), fromAgent, task.assignee());
        }
        if (task.status().isTerminal()) {
            throw new TaskCompleteException(task.id(), task.status());
        }
        if (task.archived()) {
            throw new TaskArchivedException(task.id());
        }
    }

    /**
     * Runs a version-guarded operation again when another transaction changed the task between its read
     * and its write; each attempt is a new unit of work that reads and checks the task afresh.
     */
    private static Task retryingWhenStale(Supplier<Task> operation) {
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (StaleTaskException e) {
                if (attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Builds a {@link TaskQueue}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private final TaskStore store;
        private final List<TaskListener> listeners = new ArrayList<>();
        private String sessionId = DEFAULT_SESSION_ID;

        private Builder(TaskStore store) {
            this.store = Objects.requireNonNull(store, "store");
        }

        /**
         * Names the session that holds the tasks created through the queue.
         *
         * @param value a session id; not blank, at most {@link Task#MAX_ID_LENGTH} characters; default
         *     {@value TaskQueue#DEFAULT_SESSION_ID}
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if {@code value} is blank or too long
         */
        public Builder sessionId(String value) {
            sessionId = StoreArguments.sessionId(value);
            return this;
        }

        /**
         * Adds a listener, told about each operation's events after it committed, in the order added.
         *
         * @param listener the listener; must be thread-safe when the queue is used by several threads
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder listener(TaskListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Builds the queue.
         *
         * @return the queue
         */
        public TaskQueue build() {
            return new TaskQueue(this);
        }
    }
}
