package dev.taskagent.queue;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.engine.TransactionRunner;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.spi.DeadLetterPaging;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.QueuePaging;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskSnapshots;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskArchivedException;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskExistsException;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskNotAssignedException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.Toolbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
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
 * TaskEvent.Updated}; {@code addDependency} → {@link TaskEvent.DependencyAdded}; {@code removeDependency}
 * → {@link TaskEvent.DependencyRemoved}; {@code createTree} → a {@link TaskEvent.Created} per task. A
 * {@code complete}, {@code update} or {@code removeDependency} after which a task waits for nothing
 * unfinished any more is followed by a {@link TaskEvent.Unblocked} for that task.
 *
 * <p>The work graph: a task may {@linkplain #addDependency(long, long) wait for} others and is claimed only
 * when each ended in success; {@link #createTree(TaskTree)} lays out a parent, its subtasks and their waits
 * in one call; {@link #listReady(String)} and {@link #listBlocked(String)} tell them apart. See {@code
 * docs/workgraph.md}.
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
    static final int MAX_STALE_RETRIES = 10;

    /** The lease of a claim unless the builder sets another. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(15);

    /** How many claims a task may use unless the builder or the task sets another limit. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    /** How many expired claims one transaction of {@link #reclaimExpired()} takes back. */
    static final int RECLAIM_BATCH = 500;

    /** How the comment of {@link #cancel} begins; 11 characters. */
    private static final String CANCELLED_PREFIX = "Cancelled: ";

    /** The longest reason {@link #cancel} takes, so that its comment stays within the store's text limit. */
    public static final int MAX_CANCEL_REASON = Task.MAX_TEXT_LENGTH - 11;

    /**
     * The longest comment {@link #retry} takes, so that what it appends ("The task goes back to the queue and
     * waits 10 min.", "That was the last of 3 attempts.") keeps the comment within the store's text limit.
     */
    public static final int MAX_RETRY_COMMENT = Task.MAX_TEXT_LENGTH - 100;

    /** The most dead letters one page of {@link #deadLetters(int, String)} lists. */
    public static final int MAX_DEAD_LETTER_LIMIT = DeadLetterPaging.MAX_LIMIT;

    private final TransactionRunner runner;
    private final String sessionId;
    private final Duration leaseDuration;
    private final int maxAttempts;
    private final Backoff backoff;
    private final Toolbox tools;
    private final Toolbox workerTools;
    private final Toolbox graphTools;
    private final TaskObserver observer;

    private TaskQueue(Builder builder) {
        this.runner = new TransactionRunner(builder.store, builder.listeners);
        this.sessionId = builder.sessionId;
        this.leaseDuration = builder.leaseDuration;
        this.maxAttempts = builder.maxAttempts;
        this.backoff = builder.backoff;
        this.observer = builder.observer;
        this.tools = QueueTools.toolbox(this);
        this.workerTools = QueueTools.workerToolbox(this);
        this.graphTools = QueueTools.graphToolbox(this);
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
     * Returns the queue's full toolset for a model: {@code signup_for_task}, {@code complete_task},
     * {@code heartbeat_task}, {@code move_task}, {@code create_task}, {@code get_task}, {@code
     * update_task}, {@code get_my_queue}, {@code add_comment}, {@code add_link}, {@code archive_task}, {@code
     * cancel_task}, {@code search_tasks} (words in descriptions, steps, progress and comments; filtered; paged by a
     * cursor) and {@code list_dead_letters} ({@link #deadLetters(int, String)}).
     * Their results are short texts, the task as compact JSON where the tool returns one; bad input,
     * refused moves and lost claims are soft errors ({@code isError}).
     *
     * <p>They know the work graph: {@code create_task} takes a parent, blockers, tags and metadata, {@code
     * get_task} shows what the task waits for, what waits for it and its subtasks, {@code get_my_queue}
     * lists ready or blocked tasks. The tools that change the graph itself are {@link #graphTools()}.
     *
     * @return the toolbox, immutable and thread-safe
     */
    public Toolbox tools() {
        return tools;
    }

    /**
     * Returns the work-graph toolset, to give a model beside {@link #tools()} ({@code
     * queue.tools().with(queue.graphTools())}): {@code add_dependency}, {@code remove_dependency} and {@code
     * create_task_tree}, which lays out a parent and its subtasks with the waits between them in one call. A
     * refused change (a cycle, a duplicate, an unknown task) is a soft error that says what to do instead.
     *
     * @return the toolbox, immutable and thread-safe
     */
    public Toolbox graphTools() {
        return graphTools;
    }

    /**
     * Returns the lean toolset of a model that only works tasks: {@code signup_for_task}, {@code
     * complete_task}, {@code move_task}, {@code add_comment} and {@code get_task}. Every request carries
     * the definitions of the tools a model is given, so a worker pays for five definitions instead of
     * fourteen.
     *
     * @return the toolbox, immutable and thread-safe
     */
    public Toolbox workerTools() {
        return workerTools;
    }

    /** @return the lease a claim gets unless it asks for another */
    public Duration leaseDuration() {
        return leaseDuration;
    }

    /** @return how many claims a task created through this queue may use, unless it sets its own limit */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Claims the agent's next idle task under the queue's {@linkplain Builder#leaseDuration(Duration)
     * lease}: among its pending, non-archived tasks the one with the highest priority, then the oldest,
     * then the lowest id; sets it running, counts the attempt, and returns it with its comments and
     * links. Atomic: under any concurrency each task is claimed by exactly one caller.
     *
     * <p>The claim holds the task until it is completed, released or handed over, or until its lease
     * expires without a {@linkplain #heartbeat(long, String, int) heartbeat} and a {@linkplain
     * #reclaimExpired() reclaim} takes it back. Keep the returned task's {@link Task#attempt()}: it is the
     * claim's fencing token.
     *
     * @param agent the agent's name; not blank
     * @return the claimed task, now running; empty when the agent has no idle task
     * @throws NullPointerException if {@code agent} is null
     * @throws IllegalArgumentException if {@code agent} is blank or longer than {@link Task#MAX_ID_LENGTH}
     * @throws TaskStoreException if the store fails (nothing was claimed, or the lease brings the task
     *     back)
     */
    public Optional<Task> claimNext(String agent) {
        return claimNext(agent, leaseDuration);
    }

    /**
     * Claims the agent's next idle task under a lease of its own; see {@link #claimNext(String)}.
     *
     * @param agent the agent's name; not blank
     * @param lease how long the claim holds the task without a heartbeat; 1 ms to 1 day
     * @return the claimed task, now running; empty when the agent has no idle task
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code agent} is blank or too long, or the lease out of bounds
     * @throws TaskStoreException if the store fails
     */
    public Optional<Task> claimNext(String agent, Duration lease) {
        StoreArguments.name(agent, "agent");
        Leases.lease(lease);
        TaskObserver.Scope<Task> observation = observer.claimStarted(agent);
        Optional<Task> claimed;
        try {
            // The store's own claim: a store may claim in fewer round trips than a unit of work takes. It
            // appends the claimed event to its feed itself (TS-10.7); the listeners hear of it here.
            claimed = store().claimNext(agent, lease);
            claimed.ifPresent(task -> runner.publish(List.of(new TaskEvent.Claimed(task, agent))));
        } catch (RuntimeException e) {
            observation.failed(e);
            throw e;
        }
        observation.succeeded(claimed.orElse(null));
        return claimed;
    }

    /**
     * Claims up to {@code limit} of the agent's ready tasks under the queue's lease, in one transaction: what
     * {@code limit} calls of {@link #claimNext(String)} would claim, for one round trip and one commit.
     * Publishes {@link TaskEvent.Claimed} for each.
     *
     * @param agent the agent's name; not blank
     * @param limit the most tasks to claim, 1..{@value Leases#MAX_CLAIM_BATCH}
     * @return the claimed tasks in claim order, now running; empty when the agent has no ready task
     * @throws NullPointerException if {@code agent} is null
     * @throws IllegalArgumentException if {@code agent} is blank or too long, or {@code limit} out of range
     * @throws TaskStoreException if the store fails (nothing was claimed)
     */
    public List<Task> claimUpTo(String agent, int limit) {
        StoreArguments.name(agent, "agent");
        Leases.claimLimit(limit);
        TaskObserver.Scope<Task> observation = observer.claimStarted(agent);
        List<Task> claimed;
        try {
            claimed = store().claimUpTo(agent, leaseDuration, limit);
            runner.publish(claimed.stream()
                    .<TaskEvent>map(task -> new TaskEvent.Claimed(task, agent))
                    .toList());
        } catch (RuntimeException e) {
            observation.failed(e);
            throw e;
        }
        observation.succeeded(claimed.isEmpty() ? null : claimed.get(0));
        return claimed;
    }

    /**
     * Ends several claims of one agent in one transaction, each as {@link #complete(long, String, int,
     * TaskStatus, String)} would: a worker that finished many tasks pays one commit for all of them. A claim
     * that was lost meanwhile, or is refused otherwise, is reported in the result and does not keep the others
     * from being written. Publishes {@link TaskEvent.Completed} for each completed task.
     *
     * @param agent the agent that claimed the tasks
     * @param completions what to complete, in order; at most {@value Leases#MAX_CLAIM_BATCH}
     * @return the completed tasks and the refused ones
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an argument is out of range (nothing was written)
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Completions completeAll(String agent, List<Completion> completions) {
        StoreArguments.name(agent, "agent");
        Objects.requireNonNull(completions, "completions");
        if (completions.size() > Leases.MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException(
                    "at most " + Leases.MAX_CLAIM_BATCH + " completions at once, were " + completions.size());
        }
        List<Completion> checked = List.copyOf(completions);
        Completions done = runner.run((transaction, events) -> {
            // Those without a comment in one write per outcome where the store can; a task it leaves out, and
            // a task named twice, is completed alone below, which says why it is refused.
            Map<Long, Task> batched = new HashMap<>();
            for (TaskStatus outcome : List.of(TaskStatus.SUCCESS, TaskStatus.FAILED)) {
                Map<Long, Integer> plain = new LinkedHashMap<>();
                for (Completion completion : checked) {
                    if (completion.comment() == null && completion.outcome() == outcome) {
                        plain.putIfAbsent(completion.taskId(), completion.attempt());
                    }
                }
                if (!plain.isEmpty()) {
                    batched.putAll(transaction.completeHeld(agent, plain, outcome));
                }
            }
            List<Task> completed = new ArrayList<>(checked.size());
            Map<Long, TaskRefusedException> refused = new LinkedHashMap<>();
            for (Completion completion : checked) {
                Task batchedTask = batched.remove(completion.taskId());
                if (batchedTask != null
                        && batchedTask.attempt() == completion.attempt()
                        && batchedTask.status() == completion.outcome()) {
                    events.add(new TaskEvent.Completed(batchedTask, agent, completion.outcome(), null));
                    completed.add(batchedTask);
                    continue;
                }
                try {
                    Task task = transaction.complete(
                            completion.taskId(), agent, completion.attempt(), completion.outcome());
                    if (completion.comment() != null) {
                        task = transaction.addComment(task.id(), agent, completion.comment());
                    }
                    events.add(new TaskEvent.Completed(task, agent, completion.outcome(), completion.comment()));
                    completed.add(task);
                } catch (TaskRefusedException e) {
                    refused.put(completion.taskId(), e);
                }
            }
            return new Completions(completed, refused);
        });
        for (Task task : done.completed()) {
            observer.taskCompleted(task, agent, task.status());
        }
        return done;
    }

    /**
     * Renews the lease of a claim the agent holds, by the queue's lease duration from now. No event is
     * published. Writing a comment or a link about the task through this queue renews it too.
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt, {@link Task#attempt()} of the claimed task
     * @return the task with its new lease expiry
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if an argument is out of range
     * @throws TaskStoreException if the store fails
     */
    public Task heartbeat(long taskId, String agent, int attempt) {
        checkClaim(taskId, agent, attempt);
        return store().inTransaction(transaction -> transaction.heartbeat(taskId, agent, attempt, leaseDuration));
    }

    /**
     * Renews the leases of several claims of one agent in one transaction, each as {@link #heartbeat(long,
     * String, int)} would: a worker holding many tasks pays one commit for all of them. A claim that was lost
     * meanwhile is not renewed and does not keep the others from being renewed.
     *
     * @param agent the agent that claimed the tasks
     * @param attempts each task's id mapped to its claim's attempt; at most {@value Leases#MAX_CLAIM_BATCH}
     * @return the ids of the tasks whose claims were lost (or that no longer exist), in the order given
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an argument is out of range (nothing was written)
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public List<Long> heartbeatAll(String agent, Map<Long, Integer> attempts) {
        StoreArguments.name(agent, "agent");
        Objects.requireNonNull(attempts, "attempts");
        if (attempts.size() > Leases.MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException(
                    "at most " + Leases.MAX_CLAIM_BATCH + " heartbeats at once, were " + attempts.size());
        }
        Map<Long, Integer> checked = new LinkedHashMap<>(attempts);
        checked.forEach((taskId, attempt) -> checkClaim(taskId, agent, attempt));
        if (checked.isEmpty()) {
            return List.of();
        }
        return store().inTransaction(transaction -> {
            List<Long> lost = new ArrayList<>();
            checked.forEach((taskId, attempt) -> {
                try {
                    transaction.heartbeat(taskId, agent, attempt, leaseDuration);
                } catch (TaskRefusedException e) {
                    lost.add(taskId);
                }
            });
            return List.copyOf(lost);
        });
    }

    /**
     * Ends a claim with success or failure, optionally with a closing comment by the agent, in one
     * transaction; publishes {@link TaskEvent.Completed}. A worker whose claim was lost (its lease expired
     * and the task was reclaimed, or it was moved) is refused, and the newer claim stands.
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @param comment what was done, or why it failed; null for none; not blank otherwise
     * @return the task after the change
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if the outcome is not terminal or an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task complete(long taskId, String agent, int attempt, TaskStatus outcome, String comment) {
        return complete(taskId, agent, attempt, outcome, comment, false);
    }

    /**
     * Ends a claim like {@link #complete(long, String, int, TaskStatus, String)}; with {@code
     * evenWithOpenChildren}, with success even though subtasks of the task are still pending or running
     * (which is refused otherwise). Dependants whose last open blocker this success was get an {@link
     * TaskEvent.Unblocked} after the {@link TaskEvent.Completed}.
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @param comment what was done, or why it failed; null for none; not blank otherwise
     * @param evenWithOpenChildren true to complete with success over unfinished subtasks
     * @return the task after the change
     * @throws TaskGraphException if the outcome is success, a subtask is unfinished and {@code
     *     evenWithOpenChildren} is false (its {@link TaskGraphException#tasks()} are those subtasks); nothing
     *     written
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if the outcome is not terminal or an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task complete(
            long taskId, String agent, int attempt, TaskStatus outcome, String comment, boolean evenWithOpenChildren) {
        checkClaim(taskId, agent, attempt);
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isOutcome()) {
            throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName()
                    + "; use release to give the" + " task back");
        }
        optionalComment(comment);
        Task done = runner.runWithStoreEvents((transaction, events, storeEvents) -> {
            Task completed = evenWithOpenChildren
                    ? transaction.complete(taskId, agent, attempt, outcome, true)
                    : transaction.complete(taskId, agent, attempt, outcome);
            if (comment != null) {
                completed = transaction.addComment(taskId, agent, comment);
            }
            events.add(new TaskEvent.Completed(completed, agent, outcome, comment));
            storeEvents.addAll(unblockedBy(transaction, TaskStatus.RUNNING, completed));
            return completed;
        });
        observer.taskCompleted(done, agent, outcome);
        return done;
    }

    /**
     * Gives a claimed task back to the agent's queue, pending again, optionally with a comment; the
     * attempt stays counted. Publishes {@link TaskEvent.Released}.
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt
     * @param comment why, or null for none; not blank otherwise
     * @return the task after the change
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task release(long taskId, String agent, int attempt, String comment) {
        checkClaim(taskId, agent, attempt);
        optionalComment(comment);
        return runner.run((transaction, events) -> {
            Task released = transaction.release(taskId, agent, attempt);
            if (comment != null) {
                released = transaction.addComment(taskId, agent, comment);
            }
            events.add(new TaskEvent.Released(released, agent, comment));
            return released;
        });
    }

    /**
     * Ends an attempt that did not succeed: while the task has attempts left (its own limit, else the queue's
     * {@linkplain Builder#maxAttempts(int) default}) it goes back to the queue, pending, and waits for the
     * queue's {@linkplain Builder#backoff(Backoff) backoff} before its next claim; after its last attempt it
     * fails (a dead letter). The comment says why, with what happens next appended. Publishes {@link
     * TaskEvent.Released} or {@link TaskEvent.Completed}.
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt
     * @param comment what went wrong; not blank, at most {@value #MAX_RETRY_COMMENT} characters
     * @return the task after the change
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task retry(long taskId, String agent, int attempt, String comment) {
        return retry(taskId, agent, attempt, comment, null);
    }

    /**
     * Like {@link #retry(long, String, int, String)}, with the wait before the next attempt given instead of
     * the queue's backoff: for a failure that says when to try again (a rate limit's retry-after).
     *
     * @param taskId the task
     * @param agent the agent that claimed it
     * @param attempt the claim's attempt
     * @param comment what went wrong; not blank, at most {@value #MAX_RETRY_COMMENT} characters
     * @param retryAfter the wait before the next claim, zero for none, at most {@link NewTask#MAX_SCHEDULE_AHEAD};
     *     null for the queue's backoff
     * @return the task after the change
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task retry(long taskId, String agent, int attempt, String comment, Duration retryAfter) {
        checkClaim(taskId, agent, attempt);
        StoreArguments.text(comment, "comment");
        if (comment.length() > MAX_RETRY_COMMENT) {
            throw new IllegalArgumentException(
                    "comment is " + comment.length() + " characters long; the limit is " + MAX_RETRY_COMMENT);
        }
        if (retryAfter != null) {
            Leases.delay(retryAfter, "retryAfter");
        }
        Task done = runner.run((transaction, events) -> {
            Task current = transaction.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
            int limit = Leases.maxAttemptsOf(current, maxAttempts);
            if (attempt >= limit
                    && current.status() == TaskStatus.RUNNING
                    && agent.equals(current.assignee())
                    && current.attempt() == attempt) {
                String last = comment + " That was the last of " + limit + " attempts.";
                Task failed = transaction.complete(taskId, agent, attempt, TaskStatus.FAILED);
                failed = transaction.addComment(taskId, agent, last);
                events.add(new TaskEvent.Completed(failed, agent, TaskStatus.FAILED, last));
                return failed;
            }
            Duration wait = retryAfter != null ? retryAfter : backoffAfter(attempt);
            Task back = transaction.release(taskId, agent, attempt);
            Task released = delayed(transaction, back, wait);
            String next = released == back || released.notBefore() == null
                    ? " The task goes back to the queue."
                    : " The task goes back to the queue and waits " + Texts.duration(wait) + ".";
            released = transaction.addComment(taskId, agent, comment + next);
            events.add(new TaskEvent.Released(released, agent, comment + next));
            return released;
        });
        if (done.status() == TaskStatus.FAILED) {
            observer.taskCompleted(done, agent, TaskStatus.FAILED);
        }
        return done;
    }

    /**
     * Makes a task wait: no claim hands it out before the store's clock plus {@code delay}; zero makes it
     * claimable at once. A running task keeps running; the wait applies when it is back in the queue.
     * Publishes {@link TaskEvent.Updated}.
     *
     * @param taskId the task
     * @param delay how long from now; zero to at most {@link NewTask#MAX_SCHEDULE_AHEAD}
     * @return the task after the change, its {@link Task#notBefore()} set
     * @throws TaskNotFoundException if there is no such task
     * @throws TaskCompleteException if the task ended
     * @throws IllegalArgumentException if an argument is out of range
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task delay(long taskId, Duration delay) {
        StoreArguments.taskId(taskId);
        Leases.delay(delay, "delay");
        return runner.run((transaction, events) -> {
            Task delayed = transaction.delay(taskId, delay);
            events.add(new TaskEvent.Updated(delayed));
            return delayed;
        });
    }

    /**
     * Tells how long until the soonest of an agent's ready tasks that wait for a time may be claimed, on the
     * store's clock: what an idle worker sleeps (see {@link TaskWorker}).
     *
     * @param agent the agent
     * @return the wait; empty when none of its ready tasks waits for a time
     * @throws IllegalArgumentException if {@code agent} is blank or too long
     * @throws TaskStoreException if the store fails
     */
    public Optional<Duration> untilNextScheduled(String agent) {
        StoreArguments.name(agent, "agent");
        return store().inTransaction(transaction -> transaction.untilNextScheduled(agent));
    }

    /**
     * Makes a task that is back in the queue wait; a store that cannot schedule (a store of your own written
     * before scheduling existed) leaves it claimable at once.
     */
    private static Task delayed(TaskTransaction transaction, Task task, Duration wait) {
        if (wait.isZero() && task.notBefore() == null) {
            return task;
        }
        try {
            return transaction.delay(task.id(), wait);
        } catch (UnsupportedOperationException e) {
            return task;
        }
    }

    /** The queue's backoff after an attempt, checked. */
    private Duration backoffAfter(int attempt) {
        return Leases.delay(backoff.delay(attempt), "the backoff's delay");
    }

    /**
     * Takes back every running task whose lease expired: pending again while it has attempts left
     * (its own limit, else the queue's {@linkplain Builder#maxAttempts(int) default}), failed otherwise,
     * each with a comment that says so; a task that goes back waits for the queue's {@linkplain
     * Builder#backoff(Backoff) backoff} before its next claim. Publishes {@link TaskEvent.LeaseExpired} for
     * each. Works in
     * batches of {@value #RECLAIM_BATCH}, one transaction each. Safe to run from many threads and
     * processes at once: each expired claim is taken back exactly once, and a task completed or renewed
     * meanwhile is never touched. A {@link LeaseReaper} runs it on a schedule.
     *
     * @return what was taken back, oldest expiry first; empty when nothing had expired
     * @throws TaskStoreException if the store fails (the batches before stay committed)
     */
    public List<ReclaimedTask> reclaimExpired() {
        List<ReclaimedTask> all = new ArrayList<>();
        while (true) {
            List<ReclaimedTask> batch = runner.run((transaction, events) -> {
                List<ReclaimedTask> reclaimed =
                        transaction.reclaimExpired(maxAttempts, RECLAIM_BATCH, this::backoffAfter);
                reclaimed.forEach(task -> events.add(new TaskEvent.LeaseExpired(task.task(), task.expiredAttempt())));
                return reclaimed;
            });
            all.addAll(batch);
            batch.forEach(observer::leaseExpired);
            if (batch.size() < RECLAIM_BATCH) {
                return List.copyOf(all);
            }
        }
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
        return move(taskId, fromAgent, OptionalInt.empty(), toAgent, comment);
    }

    /**
     * Hands over a task the agent holds by a claim, fenced by the claim's attempt: refused when the
     * claim was lost (the task is no longer running under {@code fromAgent} in that attempt). Otherwise
     * as {@link #move(long, String, String, String)}.
     *
     * @param taskId the task's id; positive
     * @param fromAgent the agent that claimed the task; not blank
     * @param attempt the claim's attempt; at least 1
     * @param toAgent the agent that takes it over; not blank, not {@code fromAgent}
     * @param comment why the task is handed over and what is left to do; not blank
     * @return the task after the move, with all its comments and links
     * @throws ClaimLostException if the task is no longer running under that agent and attempt
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if an argument is out of range
     * @throws StaleTaskException if the task kept changing concurrently (after 10 attempts)
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task move(long taskId, String fromAgent, int attempt, String toAgent, String comment) {
        return move(taskId, fromAgent, OptionalInt.of(Leases.attempt(attempt)), toAgent, comment);
    }

    private Task move(long taskId, String fromAgent, OptionalInt attempt, String toAgent, String comment) {
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
            if (attempt.isPresent()) {
                checkClaimHeld(task, fromAgent, attempt.getAsInt());
            }
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

    private static void checkClaimHeld(Task task, String agent, int attempt) {
        if (task.status() != TaskStatus.RUNNING || !agent.equals(task.assignee()) || task.attempt() != attempt) {
            throw new ClaimLostException(task, agent, attempt);
        }
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
     * <p>With an {@linkplain NewTask.Builder#idempotencyKey(String) idempotency key} that a task of the store
     * already holds, nothing is written and the answer is that task as it is now (it may be running, finished or
     * in another session); {@link #createOnce(NewTask)} says which happened.
     *
     * @param task what to create, e.g. from {@link #newTask(String)}; any session
     * @return the new task, or the task that holds its idempotency key
     * @throws NullPointerException if {@code task} is null
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task create(NewTask task) {
        return createOnce(task).task();
    }

    /**
     * Creates a task as {@link #create(NewTask)} does, and tells whether it did: a task whose {@linkplain
     * NewTask.Builder#idempotencyKey(String) idempotency key} a task of the store already holds (a create
     * retried after a lost reply, the same request from another process) is not created again; the answer is
     * that task, as it is now, and nothing is written or published.
     *
     * @param task what to create
     * @return the task and whether this call created it
     * @throws NullPointerException if {@code task} is null
     * @throws TaskNotFoundException if the parent or a blocker does not exist
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Creation createOnce(NewTask task) {
        Objects.requireNonNull(task, "task");
        NewTask spec = withDefaults(task, task.parentId(), task.blockedBy());
        try {
            return new Creation(
                    runner.run((transaction, events) -> {
                        Task created = transaction.appendTask(spec);
                        events.add(new TaskEvent.Created(created));
                        return created;
                    }),
                    true);
        } catch (TaskExistsException e) {
            return new Creation(e.existing(), false);
        }
    }

    /**
     * What {@link #createOnce(NewTask)} did.
     *
     * @param task the task created, or the one that already held the idempotency key
     * @param created true when this call created the task; false when the key's task existed
     */
    public record Creation(Task task, boolean created) {
        /**
         * Checks the task.
         *
         * @param task the task; not null
         * @param created whether the call created it
         */
        public Creation {
            Objects.requireNonNull(task, "task");
        }
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
     * Cancels a task that has not ended: it becomes {@link TaskStatus#CANCELLED}, its lease is cleared, and a
     * comment by {@code by} says why; publishes {@link TaskEvent.StatusChanged} and {@link TaskEvent.Commented}.
     * An agent that holds a claim of the task is refused its next heartbeat, completion or release with a
     * {@link ClaimLostException} whose {@link ClaimLostException#cancelled()} is true, so that it stops ({@link
     * TaskWorker} interrupts the handler at its next lease renewal). The task's dependants stay blocked: a
     * cancelled blocker never succeeds.
     *
     * @param taskId the task
     * @param by who cancels it; not blank
     * @param reason why, kept in the comment; not blank, at most {@value #MAX_CANCEL_REASON} characters
     * @return the cancelled task
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an argument is blank or too long
     * @throws TaskNotFoundException if there is no such task
     * @throws TaskCompleteException if the task has ended (success, failed or cancelled); nothing written
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task cancel(long taskId, String by, String reason) {
        StoreArguments.taskId(taskId);
        StoreArguments.name(by, "by");
        StoreArguments.text(reason, "reason");
        if (reason.length() > MAX_CANCEL_REASON) {
            throw new IllegalArgumentException(
                    "reason is " + reason.length() + " characters long; the limit is " + MAX_CANCEL_REASON);
        }
        return retryingWhenStale(() -> runner.run((transaction, events) -> {
            Task before = existing(transaction, taskId);
            if (before.status().isTerminal()) {
                throw new TaskCompleteException(taskId, before.status(), "cancelled");
            }
            transaction.updateTask(TaskUpdate.of(taskId)
                    .expectVersion(before.version())
                    .status(TaskStatus.CANCELLED)
                    .build());
            Task after = transaction.addComment(taskId, by, CANCELLED_PREFIX + reason);
            events.add(new TaskEvent.StatusChanged(after, before.status(), TaskStatus.CANCELLED));
            events.add(new TaskEvent.Commented(
                    after, after.comments().get(after.comments().size() - 1)));
            return after;
        }));
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
     * Lists one page of an agent's queue in claim order, all its tasks or only the ready or blocked ones, or those
     * with a tag, as the query says (rule TS-2.6 of {@link dev.taskagent.store.TaskStore}). Pass a page's {@link
     * TaskPage#nextCursor() cursor} back with {@link QueueQuery#withCursor(String)} for the next page: tasks
     * created between the pages never shift one, so no task is returned twice or left out.
     *
     * @param query the agent, filters, page size and cursor
     * @return one page, with how many tasks follow
     * @throws NullPointerException if {@code query} is null
     * @throws dev.taskagent.store.PageCursorException if the cursor belongs to another query or was changed or cut
     */
    public TaskPage listQueue(QueueQuery query) {
        Objects.requireNonNull(query, "query");
        try {
            return store().listQueuePage(query);
        } catch (UnsupportedOperationException e) {
            // A store written before paging: the same pages from its whole queue.
            return store().inTransaction(transaction -> {
                List<Task> queue = transaction.listQueue(query.assignee());
                return QueuePaging.page(query, QueuePaging.highestId(queue), queue);
            });
        }
    }

    /**
     * Searches the store's tasks for the words of a query, in every session unless the query names one: the tasks
     * whose description, steps, progress or comments hold every word, filtered and paged as the query says, best
     * first by the store's ranking (rules TS-13 of {@link dev.taskagent.store.TaskStore}). Pass a page's {@link
     * TaskPage#nextCursor() cursor} back with {@link SearchQuery#withCursor(String)} for the next page; tasks
     * created between the pages never shift them.
     *
     * @param query the words, filters, page size and cursor
     * @return one page of the matches, with how many follow
     * @throws NullPointerException if {@code query} is null
     * @throws dev.taskagent.store.SearchCursorException if the cursor belongs to another query or was changed or
     *     cut
     * @throws UnsupportedOperationException if the store cannot search
     */
    public TaskPage search(SearchQuery query) {
        Objects.requireNonNull(query, "query");
        return store().searchTasks(query);
    }

    /**
     * Lists one page of the dead letters: the tasks that failed after their last attempt (their attempt at least
     * their own limit, else the queue's {@linkplain Builder#maxAttempts(int) default}), whether a reclaim failed
     * them when their last lease expired or their last attempt ended with {@link #retry} or a failed completion;
     * not archived, of every agent, oldest (lowest id) first. Pass a page's {@link TaskPage#nextCursor() cursor}
     * back for the next page: the first page fixes which tasks the listing covers, so tasks that fail between the
     * pages never shift one, and no dead letter is returned twice or left out. Retrying a dead letter ({@link
     * #update} to pending) or archiving it takes it off the list. The task board's dead letters are this listing
     * (and its cards' flag {@link #isDeadLetter}), by the queue it was built with. The store lists them in one
     * query where it can ({@link dev.taskagent.store.TaskTransaction#listDeadLetters}, both stores of the
     * project); for a store without it, each page reads every agent's queue, so its cost grows with the store. A
     * failed MCP task (a tool call that answered with an error, one attempt) is a dead letter too.
     *
     * @param limit the page size, 1 to {@value #MAX_DEAD_LETTER_LIMIT}
     * @param cursor the cursor the previous page gave; null for the first page
     * @return one page, with how many dead letters follow
     * @throws IllegalArgumentException if the limit is out of range
     * @throws dev.taskagent.store.PageCursorException if the cursor is not one this listing returned, or was changed
     *     or cut
     * @throws UnsupportedOperationException if the store can neither list dead letters nor its agents ({@code
     *     listAssignees})
     */
    public TaskPage deadLetters(int limit, String cursor) {
        if (limit < 1 || limit > MAX_DEAD_LETTER_LIMIT) {
            throw new IllegalArgumentException(
                    "limit must be between 1 and " + MAX_DEAD_LETTER_LIMIT + ", was " + limit);
        }
        return store().inTransaction(transaction -> {
            try {
                return transaction.listDeadLetters(maxAttempts, limit, cursor);
            } catch (UnsupportedOperationException noListing) {
                List<Task> tasks = new ArrayList<>();
                for (String agent : transaction.listAssignees()) {
                    tasks.addAll(transaction.listQueue(agent));
                }
                return DeadLetterPaging.page(maxAttempts, limit, cursor, QueuePaging.highestId(tasks), tasks);
            }
        });
    }

    /**
     * Tells whether a task is a dead letter: failed after its last attempt (its attempt at least its own limit,
     * else the queue's default), and not archived.
     *
     * @param task the task
     * @return true for a dead letter
     */
    public boolean isDeadLetter(Task task) {
        return DeadLetterPaging.isDeadLetter(task, maxAttempts);
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
            Task task = renewedByActivity(transaction, transaction.addComment(taskId, author, text), author);
            events.add(new TaskEvent.Commented(
                    task, task.comments().get(task.comments().size() - 1)));
            return task;
        });
    }

    /**
     * Adds a comment as {@link #comment(long, String, String)} does, once per request id: a call retried with the
     * same request id (after its reply was lost, say) writes nothing, publishes nothing, and answers the task as it
     * is, marked {@linkplain AppendResult#replayed() replayed}. A task holds the request ids of its last {@value
     * TaskStore#REQUEST_ID_WINDOW} appends that wrote with one (rules TS-5.5 to TS-5.7 of {@link TaskStore}); a
     * request id is compared alone, not with the text, and per task.
     *
     * @param taskId the task's id; positive
     * @param author who writes it; not blank
     * @param text the comment, stored verbatim; not blank, at most {@link Task#MAX_TEXT_LENGTH} characters
     * @param requestId the caller's id of this call, the same on each retry; null to append without one. Not
     *     blank, at most {@link Task#MAX_ID_LENGTH} characters, one line
     * @return the task after the comment, or as it is when the request id was used before
     * @throws NullPointerException if an argument but {@code requestId} is null
     * @throws IllegalArgumentException if the id is not positive, a text is blank or too long, or the request id
     *     is blank, too long or not one line
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if a request id is given and the store does not keep them
     */
    public AppendResult comment(long taskId, String author, String text, String requestId) {
        if (requestId == null) {
            return AppendResult.written(comment(taskId, author, text));
        }
        StoreArguments.taskId(taskId);
        StoreArguments.name(author, "author");
        StoreArguments.text(text, "text");
        StoreArguments.requestId(requestId);
        return withRequestId(() -> runner.run((transaction, events) -> {
            AppendResult result = transaction.addComment(taskId, author, text, requestId);
            if (result.replayed()) {
                return result;
            }
            Task task = renewedByActivity(transaction, result.task(), author);
            events.add(new TaskEvent.Commented(
                    task, task.comments().get(task.comments().size() - 1)));
            return AppendResult.written(task);
        }));
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
            Task task = renewedByActivity(transaction, transaction.addLink(taskId, url, description, author), author);
            events.add(new TaskEvent.Updated(task));
            return task;
        });
    }

    /**
     * Attaches a link as {@link #link(long, String, String, String)} does, once per request id, as {@link
     * #comment(long, String, String, String)} adds a comment.
     *
     * @param taskId the task's id; positive
     * @param url the address; not blank
     * @param description what the link is; may be empty
     * @param author who adds it; not blank
     * @param requestId the caller's id of this call, the same on each retry; null to append without one
     * @return the task after the link, or as it is when the request id was used before
     * @throws NullPointerException if an argument but {@code requestId} is null
     * @throws IllegalArgumentException if the id is not positive, the url or author is blank or too long, or the
     *     request id is blank, too long or not one line
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if a request id is given and the store does not keep them
     */
    public AppendResult link(long taskId, String url, String description, String author, String requestId) {
        if (requestId == null) {
            return AppendResult.written(link(taskId, url, description, author));
        }
        StoreArguments.taskId(taskId);
        StoreArguments.text(url, "url");
        Objects.requireNonNull(description, "description");
        StoreArguments.name(author, "author");
        StoreArguments.requestId(requestId);
        return withRequestId(() -> runner.run((transaction, events) -> {
            AppendResult result = transaction.addLink(taskId, url, description, author, requestId);
            if (result.replayed()) {
                return result;
            }
            Task task = renewedByActivity(transaction, result.task(), author);
            events.add(new TaskEvent.Updated(task));
            return AppendResult.written(task);
        }));
    }

    /** Runs an append with a request id, naming what to do when the store keeps none. */
    private AppendResult withRequestId(Supplier<AppendResult> append) {
        try {
            return append.get();
        } catch (UnsupportedOperationException e) {
            throw new UnsupportedOperationException(
                    "The queue's store (" + store() + ") does not keep request ids on appends (rules TS-5.5 to"
                            + " TS-5.7 of TaskStore): append without a request id, or use a store that keeps them"
                            + " (the in-memory and JDBC stores do)",
                    e);
        }
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

    /**
     * Makes a task wait for another: no claim hands it out until the blocker ended in success. Publishes
     * {@link TaskEvent.DependencyAdded}.
     *
     * @param dependantId the task that waits; positive
     * @param blockerId the task it waits for; positive, any session
     * @return the dependant after the change
     * @throws IllegalArgumentException if an id is not positive
     * @throws TaskNotFoundException if either task does not exist; nothing written
     * @throws TaskGraphException if the ids are equal, the dependency exists, or it would close a cycle (its
     *     {@link TaskGraphException#tasks()} is the cycle); nothing written
     * @throws UnsupportedOperationException if the store does not implement the work graph
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task addDependency(long dependantId, long blockerId) {
        StoreArguments.taskId(dependantId);
        StoreArguments.taskId(blockerId);
        return runner.runWithStoreEvents((transaction, events, storeEvents) -> {
            Task dependant = transaction.addDependency(dependantId, blockerId);
            storeEvents.add(new TaskEvent.DependencyAdded(dependant, blockerId));
            return dependant;
        });
    }

    /**
     * Removes a dependency. Publishes {@link TaskEvent.DependencyRemoved}, and {@link TaskEvent.Unblocked}
     * when the dependant waits for nothing unfinished any more.
     *
     * @param dependantId the task that waits; positive
     * @param blockerId the task it waits for; positive
     * @return the dependant after the change
     * @throws IllegalArgumentException if an id is not positive
     * @throws TaskNotFoundException if a task does not exist; nothing written
     * @throws TaskGraphException if there is no such dependency; nothing written
     * @throws UnsupportedOperationException if the store does not implement the work graph
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public Task removeDependency(long dependantId, long blockerId) {
        StoreArguments.taskId(dependantId);
        StoreArguments.taskId(blockerId);
        return runner.runWithStoreEvents((transaction, events, storeEvents) -> {
            int openBefore = existing(transaction, dependantId).openBlockers();
            Task dependant = transaction.removeDependency(dependantId, blockerId);
            storeEvents.add(new TaskEvent.DependencyRemoved(dependant, blockerId));
            if (openBefore > 0 && dependant.openBlockers() == 0) {
                storeEvents.add(new TaskEvent.Unblocked(dependant));
            }
            return dependant;
        });
    }

    /**
     * Lists the tasks a task waits for, lowest id first, with their statuses: a failed one keeps the task
     * blocked until it is retried or the dependency removed.
     *
     * @param taskId the dependant; positive
     * @return its blockers; empty when none
     * @throws IllegalArgumentException if {@code taskId} is not positive
     * @throws TaskNotFoundException if there is no such task
     */
    public List<Task> blockers(long taskId) {
        StoreArguments.taskId(taskId);
        return store().inTransaction(transaction -> {
            List<Task> blockers = new ArrayList<>();
            for (long blockerId : existing(transaction, taskId).blockedBy()) {
                transaction.findTask(blockerId).ifPresent(blockers::add);
            }
            return List.copyOf(blockers);
        });
    }

    /**
     * Lists the tasks that wait for a task, lowest id first.
     *
     * @param taskId the blocker; positive
     * @return its dependants; empty when none or when there is no such task
     * @throws IllegalArgumentException if {@code taskId} is not positive
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    public List<Task> dependants(long taskId) {
        StoreArguments.taskId(taskId);
        return store().inTransaction(transaction -> transaction.listDependants(taskId));
    }

    /**
     * Lists a task's subtasks (not theirs), lowest id first, archived ones included.
     *
     * @param taskId the parent; positive
     * @return its subtasks; empty when none or when there is no such task
     * @throws IllegalArgumentException if {@code taskId} is not positive
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    public List<Task> children(long taskId) {
        StoreArguments.taskId(taskId);
        return store().inTransaction(transaction -> transaction.listChildren(taskId));
    }

    /** The dependants and subtasks of a task for a view; both empty on a store without the work graph. */
    List<List<Task>> dependantsAndChildrenIfKept(long taskId) {
        StoreArguments.taskId(taskId);
        return store().inTransaction(transaction -> {
            try {
                return List.of(transaction.listDependants(taskId), transaction.listChildren(taskId));
            } catch (UnsupportedOperationException noGraph) {
                return List.of(List.of(), List.of());
            }
        });
    }

    /**
     * Lists the agent's tasks a claim may hand out now ({@link Task#isReady()}), in claim order.
     *
     * @param agent the agent's name; not blank
     * @return the ready tasks; the first is the one {@link #claimNext(String)} would claim
     * @throws IllegalArgumentException if {@code agent} is blank or too long
     */
    public List<Task> listReady(String agent) {
        return listQueue(agent).stream().filter(Task::isReady).toList();
    }

    /**
     * Lists the agent's unfinished tasks that wait for a task not (yet) ended in success, in claim order.
     *
     * @param agent the agent's name; not blank
     * @return the blocked tasks
     * @throws IllegalArgumentException if {@code agent} is blank or too long
     */
    public List<Task> listBlocked(String agent) {
        return listQueue(agent).stream().filter(TaskQueue::isOpenAndBlocked).toList();
    }

    /**
     * Lists a session's tasks a claim may hand out now, in the session's order.
     *
     * @param sessionId the session; not blank
     * @return the ready tasks
     * @throws IllegalArgumentException if {@code sessionId} is blank or too long
     */
    public List<Task> listReadyInSession(String sessionId) {
        StoreArguments.sessionId(sessionId);
        return store().inTransaction(transaction -> transaction.listTasks(sessionId)).stream()
                .filter(Task::isReady)
                .toList();
    }

    /**
     * Lists a session's unfinished, non-archived tasks that wait for a task not (yet) ended in success, in
     * the session's order.
     *
     * @param sessionId the session; not blank
     * @return the blocked tasks
     * @throws IllegalArgumentException if {@code sessionId} is blank or too long
     */
    public List<Task> listBlockedInSession(String sessionId) {
        StoreArguments.sessionId(sessionId);
        return store().inTransaction(transaction -> transaction.listTasks(sessionId)).stream()
                .filter(task -> !task.archived() && isOpenAndBlocked(task))
                .toList();
    }

    /**
     * Lays out a plan in one transaction: creates the parent, then its subtasks (each a subtask of the
     * parent, blockers first), each waiting for the subtasks its keys name. Publishes a {@link
     * TaskEvent.Created} for each task. Either the whole tree is written or nothing.
     *
     * @param tree the plan, checked when it was built
     * @return the new parent and the new subtasks by key
     * @throws NullPointerException if {@code tree} is null
     * @throws TaskNotFoundException if the parent's parent or a blocker given by id does not exist; nothing
     *     written
     * @throws TaskExistsException if a task of the tree has an idempotency key a task of the store holds;
     *     nothing written
     * @throws UnsupportedOperationException if the store does not implement the work graph
     * @throws TaskStoreException if the store fails (nothing was written)
     */
    public TaskTree.Created createTree(TaskTree tree) {
        Objects.requireNonNull(tree, "tree");
        return runner.run((transaction, events) -> {
            NewTask parentSpec = tree.parent();
            Task parent =
                    transaction.appendTask(withDefaults(parentSpec, parentSpec.parentId(), parentSpec.blockedBy()));
            events.add(new TaskEvent.Created(parent));
            Map<String, Task> byKey = new java.util.HashMap<>();
            for (TaskTree.Child child : tree.creationOrder()) {
                java.util.TreeSet<Long> blockers =
                        new java.util.TreeSet<>(child.spec().blockedBy());
                child.blockedBy().forEach(key -> blockers.add(byKey.get(key).id()));
                Task created = transaction.appendTask(withDefaults(child.spec(), parent.id(), List.copyOf(blockers)));
                events.add(new TaskEvent.Created(created));
                byKey.put(child.key(), created);
            }
            Map<String, Task> declared = new LinkedHashMap<>();
            tree.children().forEach(child -> declared.put(child.key(), byKey.get(child.key())));
            return new TaskTree.Created(parent, declared);
        });
    }

    @Override
    public String toString() {
        return "TaskQueue[store=" + store() + ", sessionId=" + sessionId + "]";
    }

    private static boolean isOpenAndBlocked(Task task) {
        return task.isBlocked() && !task.status().isTerminal();
    }

    private Task updateOnce(TaskUpdate update) {
        return runner.runWithStoreEvents((transaction, events, storeEvents) -> {
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
            storeEvents.addAll(unblockedBy(transaction, before.status(), after));
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
                case PARENT -> copy.parent(update.parentId());
                case TAGS -> copy.tags(update.tags());
                case METADATA -> copy.metadata(update.metadata());
            }
        }
        if (update.evenWithOpenChildren()) {
            copy.evenWithOpenChildren();
        }
        if (reassigns) {
            copy.previousAssignee(before.assignee());
        }
        return copy.build();
    }

    /**
     * Renews the lease of a task its claiming agent is writing about, as a heartbeat would: a model
     * working through tools need not heartbeat by hand.
     */
    private Task renewedByActivity(TaskTransaction transaction, Task task, String author) {
        if (task.isLeased() && author.equals(task.assignee())) {
            return transaction.heartbeat(task.id(), author, task.attempt(), leaseDuration);
        }
        return task;
    }

    private static void checkClaim(long taskId, String agent, int attempt) {
        StoreArguments.taskId(taskId);
        StoreArguments.name(agent, "agent");
        Leases.attempt(attempt);
    }

    private static void optionalComment(String comment) {
        if (comment != null) {
            StoreArguments.text(comment, "comment");
        }
    }

    private NewTask withDefaults(NewTask task, long parentId, List<Long> blockedBy) {
        return new NewTask(
                task.sessionId(),
                task.description(),
                task.priority(),
                task.assignee(),
                task.createdBy(),
                task.steps(),
                task.maxAttempts() > 0 ? task.maxAttempts() : maxAttempts,
                parentId,
                blockedBy,
                task.tags(),
                task.metadata(),
                task.notBefore(),
                task.idempotencyKey());
    }

    /**
     * The {@link TaskEvent.Unblocked} events the store recorded in its feed when a task's change to success
     * left dependants without an open blocker (TS-12.3), for the listeners.
     */
    private static List<TaskEvent> unblockedBy(TaskTransaction transaction, TaskStatus before, Task after) {
        if (before == TaskStatus.SUCCESS || after.status() != TaskStatus.SUCCESS) {
            return List.of();
        }
        List<Task> dependants;
        try {
            dependants = transaction.listDependants(after.id());
        } catch (UnsupportedOperationException noGraph) {
            return List.of(); // a store without the work graph: nothing waits for anything
        }
        List<TaskEvent> unblocked = new ArrayList<>();
        for (Task dependant : dependants) {
            if (dependant.openBlockers() == 0) {
                unblocked.add(new TaskEvent.Unblocked(dependant));
            }
        }
        return unblocked;
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
                if (attempt >= MAX_STALE_RETRIES) {
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
        private Duration leaseDuration = DEFAULT_LEASE;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private TaskObserver observer = TaskObserver.none();
        private Backoff backoff = Backoff.DEFAULT;

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
         * Sets the lease of a claim: how long a claimed task stays with its worker without a heartbeat
         * (or a comment or link by it) before a reclaim may take it back. Longer than the longest pause
         * between two writes of a worker, or slow workers lose their tasks and the work is done twice.
         *
         * @param value 1 ms to 1 day; default 15 minutes
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         * @throws IllegalArgumentException if {@code value} is out of bounds
         */
        public Builder leaseDuration(Duration value) {
            leaseDuration = Leases.lease(value);
            return this;
        }

        /**
         * Sets how many claims a task created through this queue may use, and the limit of tasks without
         * one of their own at a reclaim: when the lease of its last allowed claim expires, the task fails
         * (a dead letter) instead of going back to the queue.
         *
         * @param value 1..{@value NewTask#MAX_ATTEMPTS_LIMIT}; default {@value #DEFAULT_MAX_ATTEMPTS}
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is out of range
         */
        public Builder maxAttempts(int value) {
            maxAttempts = Leases.maxAttempts(value);
            return this;
        }

        /**
         * Sets how long a task waits before its next attempt after one that did not succeed while attempts
         * remain: a {@link TaskQueue#retry(long, String, int, String) retry}, an expired lease taken back by
         * {@link TaskQueue#reclaimExpired()}, a {@link TaskWorker} handler that threw.
         *
         * @param value the policy; default {@link Backoff#DEFAULT} (10 s, doubling, at most 1 h, with jitter);
         *     {@link Backoff#none()} for no wait
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder backoff(Backoff value) {
            backoff = Objects.requireNonNull(value, "backoff");
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
         * Sets the observer told about claims (with their latency and whether they found a task),
         * completions and expired leases. Default {@link TaskObserver#none()}; the Spring Boot starter gives
         * one that records Micrometer metrics.
         *
         * @param value the observer
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder observer(TaskObserver value) {
            observer = Objects.requireNonNull(value, "observer");
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
