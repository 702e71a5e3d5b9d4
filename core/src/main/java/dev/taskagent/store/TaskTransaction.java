package dev.taskagent.store;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The reads and writes of one unit of work of a {@link TaskStore}. The rules cited ({@code TS-…}) are
 * those of {@link TaskStore}.
 *
 * <p>Not thread-safe: use it only on the thread that runs the unit of work, and only until the work
 * returns (TS-1.4).
 */
public interface TaskTransaction {

    /**
     * Reads a task with every field (TS-2.1).
     *
     * @param taskId the id; positive
     * @return the task, or empty when there is no task with that id
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    Optional<Task> findTask(long taskId);

    /**
     * Lists a session's tasks by order (TS-2.2).
     *
     * @param sessionId the session; not blank
     * @return the tasks, order 1 first; empty for an unknown session
     * @throws IllegalArgumentException if {@code sessionId} is blank
     */
    List<Task> listTasks(String sessionId);

    /**
     * Reads the task at a position of a session (TS-2.3).
     *
     * @param sessionId the session; not blank
     * @param order the 1-based position
     * @return the task, or empty when the position is out of range
     */
    default Optional<Task> findTaskByOrder(String sessionId, int order) {
        List<Task> tasks = listTasks(sessionId);
        return order >= 1 && order <= tasks.size() ? Optional.of(tasks.get(order - 1)) : Optional.empty();
    }

    /**
     * Lists an assignee's non-archived tasks of every status in claim order (TS-2.5).
     *
     * @param assignee the agent's name; not blank
     * @return the tasks, highest priority first, then oldest, then lowest id
     */
    List<Task> listQueue(String assignee);

    /**
     * Lists one page of an assignee's queue in claim order, filtered as the query says (TS-2.6, TS-2.7).
     * Optional: a store without it throws {@link UnsupportedOperationException}, and {@code TaskQueue} then pages
     * {@link #listQueue(String)} in memory ({@link dev.taskagent.store.spi.QueuePaging} does it for a store too).
     *
     * @param query the agent, filters, page size and cursor
     * @return the page, with how many tasks follow and the next page's cursor
     * @throws NullPointerException if {@code query} is null
     * @throws PageCursorException if the query's cursor belongs to another query or was changed or cut
     * @throws UnsupportedOperationException if the store cannot page a queue
     */
    default TaskPage listQueuePage(QueueQuery query) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot page a queue; implement"
                + " TaskTransaction.listQueuePage (rules TS-2.6 and TS-2.7 of TaskStore; QueuePaging helps)");
    }

    /**
     * Lists the ids of the sessions that hold at least one task, archived or not, each once;
     * a session with only a planning section is not listed. Optional (not a numbered rule): added for
     * browsing tools such as the task board, and stores written before it throw.
     *
     * @return the session ids, sorted by their UTF-16 code units (as {@link String#compareTo})
     * @throws UnsupportedOperationException if the store cannot list sessions
     */
    default List<String> listSessionIds() {
        throw new UnsupportedOperationException(getClass().getName() + " cannot list sessions");
    }

    /**
     * Lists one page of the dead letters (TS-2.8): failed, non-archived tasks whose attempt reached their own
     * attempt limit, else {@code defaultMaxAttempts}, of every agent and session, lowest id first. The first
     * page fixes the highest id the listing covers; pass a page's cursor back for the next one. Optional: a
     * store without it throws {@link UnsupportedOperationException}, and {@code TaskQueue} then reads every
     * agent's queue ({@link dev.taskagent.store.spi.DeadLetterPaging} pages tasks held in memory for a store too).
     *
     * @param defaultMaxAttempts the attempt limit of a task that sets none; at least 1
     * @param limit the page size, 1 to {@value dev.taskagent.store.spi.DeadLetterPaging#MAX_LIMIT}
     * @param cursor the previous page's cursor; null for the first page
     * @return the page, with how many dead letters follow and the next page's cursor
     * @throws IllegalArgumentException if an argument is out of range
     * @throws PageCursorException if the cursor belongs to another listing or was changed or cut
     * @throws UnsupportedOperationException if the store cannot list dead letters
     */
    default TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot list dead letters; implement"
                + " TaskTransaction.listDeadLetters (rule TS-2.8 of TaskStore; DeadLetterPaging helps)");
    }

    /**
     * Lists the names of the agents that are assigned at least one non-archived task, each once.
     * Optional, as {@link #listSessionIds()}.
     *
     * @return the assignees, sorted by their UTF-16 code units (as {@link String#compareTo})
     * @throws UnsupportedOperationException if the store cannot list assignees
     */
    default List<String> listAssignees() {
        throw new UnsupportedOperationException(getClass().getName() + " cannot list assignees");
    }

    /**
     * Lists the message ids linked to a session's planning section (TS-6.3).
     *
     * @param sessionId the session; not blank
     * @return the ids in link order; empty when the session has no planning section
     */
    List<String> planningMessageIds(String sessionId);

    /**
     * Inserts a pending task after a position of its session, moving later tasks down (TS-3).
     *
     * @param task what to create
     * @param afterOrder 0 to insert at the start; at or past the end to append
     * @return the new task
     * @throws IllegalArgumentException if {@code afterOrder} is negative
     * @throws dev.taskagent.task.TaskExistsException if the spec has an idempotency key that a task of the store
     *     holds (TS-3.6); nothing written, the unit of work stays usable
     */
    Task insertTask(NewTask task, int afterOrder);

    /**
     * Appends a pending task at the end of its session (TS-3.2).
     *
     * @param task what to create
     * @return the new task
     */
    default Task appendTask(NewTask task) {
        return insertTask(task, Integer.MAX_VALUE);
    }

    /**
     * Changes the fields an update sets (TS-4).
     *
     * @param update the change
     * @return the task after the change
     * @throws StaleTaskException if the update expects a version the task no longer has
     * @throws TaskNotFoundException if there is no such task
     */
    Task updateTask(TaskUpdate update);

    /**
     * Appends one progress entry (TS-5.1).
     *
     * @param taskId the task
     * @param progress the entry, stored verbatim; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task appendProgress(long taskId, String progress);

    /**
     * Appends a comment (TS-5.2).
     *
     * @param taskId the task
     * @param author who wrote it; not blank
     * @param text the comment, verbatim; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task addComment(long taskId, String author, String text);

    /**
     * Appends a link (TS-5.2).
     *
     * @param taskId the task
     * @param url the address; not blank
     * @param description what it is; may be empty
     * @param author who added it; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task addLink(long taskId, String url, String description, String author);

    /**
     * Appends one progress entry unless the task holds the request id: a retry of an append whose reply was lost
     * writes nothing (TS-5.5 to TS-5.7). The task keeps the request ids of its last {@value
     * TaskStore#REQUEST_ID_WINDOW} appends that wrote with one. Optional: a store without request ids throws
     * {@link UnsupportedOperationException}.
     *
     * @param taskId the task
     * @param progress the entry, stored verbatim; not blank
     * @param requestId the caller's id of this append; a name (not blank, at most {@link Task#MAX_ID_LENGTH}
     *     characters, one line), compared exactly
     * @return the task after the append, or as it is when the request id was known ({@link AppendResult#replayed()})
     * @throws IllegalArgumentException if an argument is blank, too long or holds a character no store keeps;
     *     nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if the store does not keep request ids
     */
    default AppendResult appendProgress(long taskId, String progress, String requestId) {
        throw requestIdsUnsupported("appendProgress");
    }

    /**
     * Appends a comment unless the task holds the request id, as {@link #appendProgress(long, String, String)}
     * does (TS-5.5 to TS-5.7).
     *
     * @param taskId the task
     * @param author who wrote it; not blank
     * @param text the comment, verbatim; not blank
     * @param requestId the caller's id of this append, as for {@link #appendProgress(long, String, String)}
     * @return the task after the append, or as it is when the request id was known
     * @throws IllegalArgumentException if an argument is blank, too long or holds a character no store keeps;
     *     nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if the store does not keep request ids
     */
    default AppendResult addComment(long taskId, String author, String text, String requestId) {
        throw requestIdsUnsupported("addComment");
    }

    /**
     * Appends a link unless the task holds the request id, as {@link #appendProgress(long, String, String)} does
     * (TS-5.5 to TS-5.7).
     *
     * @param taskId the task
     * @param url the address; not blank
     * @param description what it is; may be empty
     * @param author who added it; not blank
     * @param requestId the caller's id of this append, as for {@link #appendProgress(long, String, String)}
     * @return the task after the append, or as it is when the request id was known
     * @throws IllegalArgumentException if an argument is blank, too long or holds a character no store keeps;
     *     nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if the store does not keep request ids
     */
    default AppendResult addLink(long taskId, String url, String description, String author, String requestId) {
        throw requestIdsUnsupported("addLink");
    }

    /**
     * Links host-application messages to a task, moving them from wherever they were (TS-6.1, TS-6.2).
     *
     * @param taskId the task
     * @param messageIds the ids; none blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task linkMessages(long taskId, List<String> messageIds);

    /**
     * Links messages to a session's planning section, creating it on first use (TS-6.2, TS-6.3).
     *
     * @param sessionId the session
     * @param messageIds the ids; none blank
     */
    void linkMessagesToPlanningSection(String sessionId, List<String> messageIds);

    /**
     * Claims the assignee's next pending, non-archived task: sets it running, counts the attempt and
     * gives the claim a lease (TS-7, TS-9.1).
     *
     * @param assignee the agent's name; not blank
     * @param lease how long the claim holds the task without a heartbeat; {@link Leases#MIN_LEASE} to
     *     {@link Leases#MAX_LEASE}
     * @return the task, now running, with its new attempt, lease expiry, comments and links; empty if none
     *     is claimable
     * @throws IllegalArgumentException if the assignee is blank or the lease out of bounds
     */
    Optional<Task> claimNext(String assignee, Duration lease);

    /**
     * Claims up to {@code limit} of the assignee's ready tasks, in claim order, each as {@link
     * #claimNext(String, Duration)} would claim it, its {@code claimed} event included (TS-7.8). The default
     * claims them one by one; a store may claim them in fewer statements.
     *
     * @param assignee the agent's name; not blank
     * @param lease how long each claim holds its task without a heartbeat
     * @param limit the most tasks to claim, 1..{@value TaskStore#MAX_CLAIM_BATCH}
     * @return the claimed tasks in claim order, now running; empty if none is claimable
     * @throws IllegalArgumentException if the assignee is blank, the lease or the limit out of bounds
     */
    default List<Task> claimUpTo(String assignee, Duration lease, int limit) {
        if (limit < 1 || limit > TaskStore.MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException(
                    "limit must be between 1 and " + TaskStore.MAX_CLAIM_BATCH + ", was " + limit);
        }
        List<Task> claimed = new java.util.ArrayList<>(Math.min(limit, 64));
        while (claimed.size() < limit) {
            Optional<Task> next = claimNext(assignee, lease);
            if (next.isEmpty()) {
                break;
            }
            claimed.add(next.get());
        }
        return List.copyOf(claimed);
    }

    /**
     * Renews the lease of a claim the agent still holds (TS-9.2).
     *
     * @param taskId the task
     * @param agent the agent that holds the claim
     * @param attempt the claim's attempt
     * @param lease the new lease, counted from now
     * @return the task with its new lease expiry
     * @throws ClaimLostException if the task is not running under that agent and attempt; nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
        throw leasesUnsupported("heartbeat");
    }

    /**
     * Ends a claim the agent still holds with a terminal status and clears its lease (TS-9.3).
     *
     * @param taskId the task
     * @param agent the agent that holds the claim
     * @param attempt the claim's attempt
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @return the task after the change
     * @throws ClaimLostException if the task is not running under that agent and attempt; nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws IllegalArgumentException if {@code outcome} is not terminal
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
        throw leasesUnsupported("complete");
    }

    /**
     * Ends a claim like {@link #complete(long, String, int, TaskStatus)}, and, when asked, with success even
     * though subtasks of the task are unfinished (TS-12.7).
     *
     * @param taskId the task
     * @param agent the agent that holds the claim
     * @param attempt the claim's attempt
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @param evenWithOpenChildren true to complete with success over unfinished subtasks
     * @return the task after the change
     * @throws dev.taskagent.task.TaskGraphException if {@code outcome} is success, a subtask is unfinished and
     *     {@code evenWithOpenChildren} is false; nothing written
     * @throws UnsupportedOperationException if the store does not implement leases or the work graph
     */
    default Task complete(long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
        if (evenWithOpenChildren) {
            throw graphUnsupported("complete over open subtasks");
        }
        return complete(taskId, agent, attempt, outcome);
    }

    /**
     * Ends several claims of one agent with one outcome (TS-9.6): each claim that {@link #complete(long, String,
     * int, TaskStatus)} would end without a refusal is ended as it would end it, the dependants of a success
     * included (TS-12.3); a claim it would refuse (lost, not found, a success over unfinished subtasks) is left
     * as it is and missing from the result, so that the caller can complete it alone to learn why. The
     * default completes them one by one; a store may do it in fewer statements.
     *
     * @param agent the agent that holds the claims
     * @param attempts the claims: each task's id mapped to its claim's attempt, in the order to complete them
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     * @return the completed tasks after the change, by id, in the order of {@code attempts}
     * @throws IllegalArgumentException if the outcome is not terminal, an id or attempt is out of range, or
     *     there are more than {@value TaskStore#MAX_CLAIM_BATCH} claims; nothing written
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Map<Long, Task> completeHeld(String agent, Map<Long, Integer> attempts, TaskStatus outcome) {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(attempts, "attempts");
        if (!outcome.isOutcome()) {
            throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName());
        }
        if (attempts.size() > TaskStore.MAX_CLAIM_BATCH) {
            throw new IllegalArgumentException(
                    "at most " + TaskStore.MAX_CLAIM_BATCH + " completions at once, were " + attempts.size());
        }
        attempts.forEach((taskId, attempt) -> {
            if (taskId <= 0 || attempt < 1) {
                throw new IllegalArgumentException(
                        "task ids must be positive and attempts at least 1, was " + taskId + " → " + attempt);
            }
        });
        Map<Long, Task> completed = new LinkedHashMap<>();
        attempts.forEach((taskId, attempt) -> {
            try {
                completed.put(taskId, complete(taskId, agent, attempt, outcome));
            } catch (TaskRefusedException e) {
                // left as it is: complete() alone tells the caller why
            }
        });
        return completed;
    }

    /**
     * Gives a claimed task back to its assignee's queue: pending again, lease cleared, the attempt still
     * counted (TS-9.3).
     *
     * @param taskId the task
     * @param agent the agent that holds the claim
     * @param attempt the claim's attempt
     * @return the task after the change
     * @throws ClaimLostException if the task is not running under that agent and attempt; nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Task release(long taskId, String agent, int attempt) {
        throw leasesUnsupported("release");
    }

    /**
     * Takes back running tasks whose lease expired: pending again while the task has attempts left,
     * otherwise failed (a dead letter); the lease is cleared and a comment by {@link Leases#REAPER} says
     * what happened ({@link Leases#reclaimComment}). Each write is guarded by status, attempt and expiry,
     * so a task completed or renewed meanwhile is never touched, and under concurrency each expired claim
     * is reclaimed exactly once (TS-9.4).
     *
     * @param defaultMaxAttempts the limit of tasks that have none of their own; at least 1
     * @param limit the most tasks to take back in this unit of work; at least 1
     * @return what was taken back, oldest expiry first; empty when nothing had expired
     * @throws IllegalArgumentException if an argument is out of range
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default List<ReclaimedTask> reclaimExpired(int defaultMaxAttempts, int limit) {
        throw leasesUnsupported("reclaimExpired");
    }

    /**
     * Like {@link #reclaimExpired(int, int)}, and each task that goes back to pending waits before its next claim:
     * its {@linkplain Task#notBefore() not-before time} becomes now plus {@code backoff} of its expired attempt
     * (none for a zero wait), in the same write (TS-9.4). The default reclaims, then {@linkplain #delay delays}
     * each task put back (a store without {@code delay} leaves them claimable at once); a store may do it in the
     * reclaim's own statements.
     *
     * @param defaultMaxAttempts the limit of tasks that have none of their own; at least 1
     * @param limit the most tasks to take back in this unit of work; at least 1
     * @param backoff the wait after an expired attempt (its number, from 1); zero to at most {@link
     *     dev.taskagent.task.NewTask#MAX_SCHEDULE_AHEAD}
     * @return what was taken back, oldest expiry first, each task as it is after the reclaim and its wait
     * @throws IllegalArgumentException if an argument is out of range, or the backoff returns a wait out of range
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default List<ReclaimedTask> reclaimExpired(
            int defaultMaxAttempts, int limit, java.util.function.IntFunction<Duration> backoff) {
        Objects.requireNonNull(backoff, "backoff");
        List<ReclaimedTask> reclaimed = reclaimExpired(defaultMaxAttempts, limit);
        List<ReclaimedTask> waiting = new java.util.ArrayList<>(reclaimed.size());
        for (ReclaimedTask task : reclaimed) {
            Duration wait = task.outcome() == ReclaimedTask.Outcome.REQUEUED
                    ? backoff.apply(task.expiredAttempt())
                    : Duration.ZERO;
            if (wait.isZero()) {
                waiting.add(task);
                continue;
            }
            try {
                waiting.add(new ReclaimedTask(delay(task.task().id(), wait), task.expiredAttempt(), task.outcome()));
            } catch (UnsupportedOperationException noScheduling) {
                waiting.add(task);
            }
        }
        return waiting;
    }

    /**
     * Sets when a task may next be claimed: its {@linkplain Task#notBefore() not-before time} becomes the
     * store's clock plus {@code delay}, or none for a zero delay (TS-9.8). The task keeps its status; a
     * pending task is not handed out by a claim before then, a running one not after it is released or taken
     * back (until then). A queue's retry sets it after an attempt that did not succeed (its backoff).
     *
     * @param taskId the task
     * @param delay how long from now; zero clears the not-before time
     * @return the task after the change
     * @throws IllegalArgumentException if {@code delay} is negative or longer than {@link
     *     dev.taskagent.task.NewTask#MAX_SCHEDULE_AHEAD}; nothing written
     * @throws TaskNotFoundException if there is no such task
     * @throws dev.taskagent.task.TaskCompleteException if the task ended (success, failed or cancelled); nothing
     *     written
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Task delay(long taskId, Duration delay) {
        throw leasesUnsupported("delay");
    }

    /**
     * Tells how long until the soonest of an agent's waiting tasks may be claimed: among its pending,
     * non-archived tasks whose blockers all succeeded, the earliest {@linkplain Task#notBefore() not-before
     * time} still ahead, as a duration from the store's clock (TS-9.9). A worker that found nothing to claim
     * sleeps that long, so that a scheduled task is picked up on time without polling.
     *
     * @param assignee the agent
     * @return the wait; empty when no such task waits for a time
     * @throws IllegalArgumentException if {@code assignee} is blank or too long
     * @throws UnsupportedOperationException if the store does not implement leases
     */
    default Optional<Duration> untilNextScheduled(String assignee) {
        throw leasesUnsupported("untilNextScheduled");
    }

    /**
     * Makes a task depend on another: it is not {@linkplain Task#isReady() ready} (and no claim hands it out)
     * until the blocker ends in success (TS-12.2, TS-12.3). Records a {@code dependency_added} event.
     *
     * @param dependantId the task that waits
     * @param blockerId the task it waits for; any session of the store
     * @return the dependant after the change, its version incremented
     * @throws dev.taskagent.task.TaskNotFoundException if either task does not exist; nothing written
     * @throws dev.taskagent.task.TaskGraphException if the ids are equal, the dependency exists, or it would
     *     close a cycle (the exception names the cycle); nothing written
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    default Task addDependency(long dependantId, long blockerId) {
        throw graphUnsupported("addDependency");
    }

    /**
     * Removes a dependency (TS-12.4). Records a {@code dependency_removed} event, and an {@code unblocked}
     * event when the dependant has no open blocker left.
     *
     * @param dependantId the task that waits
     * @param blockerId the task it waits for
     * @return the dependant after the change, its version incremented
     * @throws dev.taskagent.task.TaskNotFoundException if the dependant does not exist; nothing written
     * @throws dev.taskagent.task.TaskGraphException if there is no such dependency; nothing written
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    default Task removeDependency(long dependantId, long blockerId) {
        throw graphUnsupported("removeDependency");
    }

    /**
     * Lists the tasks that depend on a task, lowest id first (TS-12.5).
     *
     * @param taskId the blocker
     * @return its dependants; empty when none or when there is no such task
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    default List<Task> listDependants(long taskId) {
        throw graphUnsupported("listDependants");
    }

    /**
     * Lists a task's subtasks, lowest id first (TS-12.6).
     *
     * @param parentId the parent
     * @return its children (not their children); empty when none or when there is no such task
     * @throws UnsupportedOperationException if the store does not implement the work graph
     */
    default List<Task> listChildren(long parentId) {
        throw graphUnsupported("listChildren");
    }

    /**
     * Searches the store's tasks for the words of a query, filtered and paged as it says (TS-13). Optional: a
     * store without search throws {@link UnsupportedOperationException}.
     *
     * @param query the words, filters, page size and cursor
     * @return one page of the matches, best first, with how many follow and the next page's cursor
     * @throws dev.taskagent.store.SearchCursorException if the query's cursor belongs to another query or was
     *     changed or cut; nothing read or written
     * @throws UnsupportedOperationException if the store cannot search
     */
    default TaskPage searchTasks(SearchQuery query) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot search tasks; implement"
                + " TaskTransaction.searchTasks (rules TS-13 of TaskStore; the in-memory and JDBC stores do)");
    }

    /**
     * Records an event of this unit of work for the store's event feed, appended when the unit of work
     * commits and never when it rolls back (TS-10.1). The library's components record the events they
     * tell their listeners; a store that has no feed ignores it.
     *
     * @param event what happened
     */
    default void recordEvent(TaskEvent event) {}

    private UnsupportedOperationException requestIdsUnsupported(String operation) {
        return new UnsupportedOperationException(getClass().getName() + " cannot " + operation + " with a request"
                + " id; implement the appends of TaskTransaction that take one (rules TS-5.5 to TS-5.7 of TaskStore)"
                + " and prove them with the conformance kit, or append without a request id");
    }

    private UnsupportedOperationException graphUnsupported(String operation) {
        return new UnsupportedOperationException(getClass().getName() + " does not implement " + operation
                + " (the work graph); the in-memory and JDBC stores do");
    }

    private UnsupportedOperationException leasesUnsupported(String operation) {
        return new UnsupportedOperationException(getClass().getName() + " does not implement " + operation
                + ", so it cannot run a queue with leases; implement the lease operations of TaskTransaction"
                + " (rules TS-9 of TaskStore) and prove them with the conformance kit");
    }
}
