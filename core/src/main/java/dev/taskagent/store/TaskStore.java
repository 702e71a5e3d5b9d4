package dev.taskagent.store;

import dev.taskagent.event.EventFeed;
import dev.taskagent.task.Task;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where tasks live: the storage SPI. Implementations ship in {@code taskagent-storage-inmemory} and
 * {@code taskagent-storage-jdbc}; third parties prove theirs with the conformance kit in {@code
 * taskagent-testkit} ({@code TaskStoreConformanceTest}), whose test names cite the rules below.
 *
 * <p>The SPI is small and aggregate-oriented: every read and write goes through a {@link
 * TaskTransaction} handed to a unit of work by {@link #inTransaction(TransactionWork)}. New operations
 * arrive as {@code default} methods so that existing stores keep compiling.
 *
 * <h2>Contract</h2>
 *
 * <p><b>TS-1 Transactions</b>
 *
 * <ul>
 *   <li>TS-1.1 When the unit of work returns, all of its writes are committed together, and its result
 *       is returned.
 *   <li>TS-1.2 When the unit of work throws, none of its writes is kept, and the exception it threw
 *       reaches the caller unchanged: runtime exceptions, errors, and checked exceptions thrown without
 *       declaration (as Kotlin, Groovy or Lombok's {@code @SneakyThrows} do).
 *   <li>TS-1.3 Other transactions never see a write of a unit of work that has not committed, nor a part
 *       of one that has.
 *   <li>TS-1.4 A {@link TaskTransaction} may only be used inside its unit of work, on the thread that
 *       runs it; afterwards every method throws {@link IllegalStateException}.
 *   <li>TS-1.5 Calling {@code inTransaction} from inside a unit of work of the same store, on the same
 *       thread, throws {@link IllegalStateException} and leaves the outer unit of work usable.
 *   <li>TS-1.6 A failure of the storage itself surfaces as a {@link TaskStoreException} (or a subclass)
 *       and rolls the unit of work back.
 *   <li>TS-1.7 A store may run the unit of work again after a transient conflict of the database
 *       (deadlock, serialisation failure) rolled it back, a bounded number of times. A unit of work must
 *       therefore keep no state of its own across attempts other than what it resets at its start.
 *   <li>TS-1.8 A unit of work that returned survives a kill -9 of the process, on every store that
 *       persists: once {@code inTransaction} has returned, all of its writes are there when the store is
 *       opened again, however soon afterwards the process was killed. (The kit's {@code
 *       DurabilityConformanceTest} checks it.)
 * </ul>
 *
 * <p><b>TS-2 Reads</b>
 *
 * <ul>
 *   <li>TS-2.1 {@code findTask} returns every field of the task, including its comments, links,
 *       progresses, preferences and message ids; an unknown id gives an empty result.
 *   <li>TS-2.2 {@code listTasks} returns a session's tasks in {@code order}, 1..N; an unknown session
 *       gives an empty list; the planning section is never listed.
 *   <li>TS-2.3 {@code findTaskByOrder} returns the task at that position of the session, or empty.
 *   <li>TS-2.4 A unit of work reads its own writes.
 *   <li>TS-2.5 {@code listQueue} returns an assignee's non-archived tasks of every status, by priority
 *       (highest first), then {@code createdAt} (oldest first), then id (lowest first).
 *   <li>TS-2.6 (optional: a store without it throws {@link UnsupportedOperationException} from {@link
 *       TaskTransaction#listQueuePage}, and the kit skips TS-2.6 and TS-2.7) {@code listQueuePage} returns, of the tasks {@code listQueue} returns, those the query keeps
 *       ({@link QueueQuery#keeps}: all, ready or blocked ones, with a tag), in the same order, at most the query's
 *       limit; {@code remaining} counts the kept tasks after the page, and only a page followed by more has a
 *       cursor.
 *   <li>TS-2.7 Following the cursors from the first page returns every task the listing held when the first page
 *       was read, and still holds at its place in claim order, exactly once, also when tasks of any priority are
 *       created between the pages; the total of a page and its {@code remaining} never grows along the pages. A
 *       cursor of another query (another assignee or filter), or one changed or cut, throws {@link
 *       PageCursorException} and nothing is written.
 *   <li>TS-2.8 (optional: a store without it throws {@link UnsupportedOperationException} from {@link
 *       TaskTransaction#listDeadLetters}, and the kit skips TS-2.8) {@code listDeadLetters(defaultMaxAttempts,
 *       limit, cursor)} returns the dead letters ({@link dev.taskagent.store.spi.DeadLetterPaging#isDeadLetter}:
 *       failed, not archived, the attempt at least the task's own limit, else the default) of every agent and
 *       session, lowest id first, at most {@code limit}; {@code remaining} counts those after the page, and only a
 *       page followed by more has a cursor. Following the cursors returns every dead letter that existed when the
 *       first page was read, and still is one, exactly once; a task that fails after the first page is not listed.
 *       A cursor of another listing (or another default), or one changed or cut, throws {@link
 *       PageCursorException}; a limit outside 1 to 100 or a default below 1 throws {@link
 *       IllegalArgumentException}; nothing is written.
 * </ul>
 *
 * <p><b>TS-3 Inserting</b>
 *
 * <ul>
 *   <li>TS-3.1 {@code insertTask(spec, k)} puts the new task at order {@code k + 1} and moves every task
 *       of the session at order {@code > k} one place down; {@code k = 0} inserts at the start.
 *   <li>TS-3.2 A {@code k} at or past the end appends the task at order N + 1.
 *   <li>TS-3.3 A negative {@code k} throws {@link IllegalArgumentException} and writes nothing.
 *   <li>TS-3.4 A new task is {@code pending}, not archived, at version 1, with {@code createdAt ==
 *       updatedAt} from the store's clock, empty progresses, preferences, comments, links and message
 *       ids, current step 0, and the priority, assignee, creator and steps of its spec.
 *   <li>TS-3.5 Ids are positive and unique across all sessions of the store; orders of a session stay
 *       contiguous 1..N after any sequence of inserts, also when transactions insert into one session
 *       concurrently.
 *   <li>TS-3.6 A spec with an idempotency key that a task of the store holds, in any session, is refused with
 *       {@link dev.taskagent.task.TaskExistsException} carrying that task as a read returns it, before any other
 *       check of the spec (its parent, its blockers); nothing is written and the unit of work goes on. Of concurrent inserts with one key, in one process or many,
 *       exactly one creates a task and the others are refused so. Keys compare exactly (case included).
 * </ul>
 *
 * <p><b>TS-4 Updating</b>
 *
 * <ul>
 *   <li>TS-4.1 {@code updateTask} changes exactly the fields the update sets and returns the new
 *       snapshot.
 *   <li>TS-4.2 Every write to a task (update, append, message link, claim) increments its version by one
 *       and sets {@code updatedAt} from the store's clock.
 *   <li>TS-4.3 An update whose expected version is not the task's current version throws {@link
 *       dev.taskagent.task.StaleTaskException} and writes nothing; of two concurrent updates expecting the same version,
 *       exactly one succeeds.
 *   <li>TS-4.4 A write to an unknown task id throws {@link dev.taskagent.task.TaskNotFoundException} and writes nothing.
 * </ul>
 *
 * <p><b>TS-5 Appending</b>
 *
 * <ul>
 *   <li>TS-5.1 {@code appendProgress} adds one entry at the end of the progresses, verbatim, and changes
 *       neither the status nor the preferences.
 *   <li>TS-5.2 {@code addComment} and {@code addLink} add one entry at the end, with the author given
 *       and the time from the store's clock.
 *   <li>TS-5.3 Appends never lose a concurrent append: after N concurrent committed appends to one task,
 *       all N entries are there.
 *   <li>TS-5.4 Text is stored verbatim: quotes, SQL metacharacters, backslashes, new lines, non-ASCII
 *       text and emoji, and texts up to {@link Task#MAX_TEXT_LENGTH} characters come back unchanged.
 *   <li>TS-5.5 (optional: a store without request ids throws {@link UnsupportedOperationException} from the
 *       appends that take one, and the kit skips TS-5.5 to TS-5.7) An append given a request id ({@code
 *       appendProgress}, {@code addComment} or {@code addLink} with a {@code requestId}) whose id the task does not
 *       hold writes as the append without one does (TS-5.1, TS-5.2) and answers an {@link AppendResult} that is not
 *       a replay; the task then holds the id. An append whose request id the task holds writes nothing (no entry,
 *       no new version, no event) and answers the task as a read returns it, as a replay: the content is not
 *       compared, so a reuse of the id with another text, or by another of the three appends, is a replay too.
 *       Request ids compare exactly (case included); the same id on another task is another request. The
 *       arguments are checked as without a request id, and a request id that is blank, longer than {@link
 *       Task#MAX_ID_LENGTH}, or holds a NUL character, an unpaired surrogate or a control character throws {@link
 *       IllegalArgumentException} whose message starts with {@code requestId}; an unknown task throws {@link
 *       dev.taskagent.task.TaskNotFoundException}; nothing is written either way.
 *   <li>TS-5.6 A task holds the request ids of its last {@value #REQUEST_ID_WINDOW} appends that wrote with one
 *       (the window): an older id is forgotten, in the same write, so that what a store keeps per task stays
 *       bounded, and an append with a forgotten id writes again. A replay does not count. A unit of work that
 *       rolls back leaves the ids a task holds as they were.
 *   <li>TS-5.7 Of concurrent appends with one request id to one task, in one process or many, exactly one
 *       writes and the others are replays.
 * </ul>
 *
 * <p><b>TS-6 Messages and the planning section</b>
 *
 * <ul>
 *   <li>TS-6.1 {@code linkMessages} appends the ids to the task's message ids in the order given,
 *       skipping ids the task already holds and duplicates within the call.
 *   <li>TS-6.2 Within a session a message belongs to at most one task or to the planning section:
 *       linking it again moves it, and the previous holder no longer lists it.
 *   <li>TS-6.3 {@code linkMessagesToPlanningSection} creates the session's planning section on first use
 *       and appends the ids to it; {@code planningMessageIds} lists them in link order (empty when the
 *       section does not exist).
 *   <li>TS-6.4 The planning section takes no order and is never a task.
 * </ul>
 *
 * <p><b>TS-7 Claiming</b>
 *
 * <ul>
 *   <li>TS-7.1 {@code claimNext(assignee, lease)} picks, among the assignee's pending, non-archived
 *       tasks, the one with the highest priority, then the oldest {@code createdAt}, then the lowest id;
 *       sets it running; and returns it with its comments and links.
 *   <li>TS-7.2 A claimed task is never returned by another claim while it is not pending again: under
 *       any concurrency each pending task is claimed by exactly one caller.
 *   <li>TS-7.3 With no claimable task the claim returns empty and writes nothing.
 *   <li>TS-7.4 A claim never returns a task of another assignee, an archived task or a task that is not
 *       pending.
 *   <li>TS-7.5 Concurrent claimers never come back empty while a claimable task stays unclaimed after
 *       they finish.
 *   <li>TS-7.6 A claim never comes back empty because a claimable task is locked by a unit of work that
 *       is not a claim (adding a comment, a link, an update in progress): it waits for that unit of work
 *       or tries again. Only tasks held by other claims may be stepped over.
 *   <li>TS-7.7 A claim returns exactly what a read returns: after any write the SPI offers (create, every
 *       update, every append, preferences replaced, messages linked or moved, a move between agents,
 *       complete, release, heartbeat, reclaim, archive), the task {@code claimNext} returns, in a unit of
 *       work or on its own, equals {@code findTask} of it right after the claim, every field and every
 *       child in order.
 *   <li>TS-7.8 {@code claimUpTo(assignee, lease, limit)} claims what {@code limit} calls of {@code claimNext}
 *       in one unit of work would: at most {@code limit} tasks, in claim order, each once under any
 *       concurrency (TS-7.2, TS-7.5), each with its {@code claimed} event; a limit outside 1..{@link
 *       #MAX_CLAIM_BATCH} throws {@link IllegalArgumentException} and writes
 *       nothing.
 * </ul>
 *
 * <p><b>TS-8 Bad input</b>
 *
 * <ul>
 *   <li>TS-8.1 Null arguments throw {@link NullPointerException}; blank session ids or assignees,
 *       negative positions, ids that are not positive and texts over the limit throw {@link
 *       IllegalArgumentException}. Nothing is written either way.
 *   <li>TS-8.2 A text, name or id holding a NUL character (U+0000) or an unpaired UTF-16 surrogate
 *       throws {@link IllegalArgumentException} whose message starts with the parameter's name, and
 *       nothing is written; supplementary characters in pairs (emoji) are kept verbatim. Every store
 *       thereby accepts and refuses the same texts ({@link dev.taskagent.store.spi.StoreArguments} does these checks).
 *   <li>TS-8.3 An agent name (an assignee, a comment's or a link's author, a task's creator, a claimer)
 *       holding a control character (C0, DEL or C1: a newline, a tab, an escape) throws {@link
 *       IllegalArgumentException} whose message starts with the parameter's name, and nothing is written:
 *       agent names are shown in tool results and logs, where such a character could forge a line.
 * </ul>
 *
 * <p><b>TS-9 Leases</b> (a claim holds its task for a while; a dead worker's tasks come back)
 *
 * <ul>
 *   <li>TS-9.1 A claim sets the task's attempt to one more than before and its lease expiry to now plus
 *       the lease. "Now" is the store's clock; a JDBC store uses the database's clock, so that the clocks
 *       of the workers' hosts need not agree.
 *   <li>TS-9.2 {@code heartbeat}, {@code complete} and {@code release} are fenced: they change the task
 *       only while it is running under the agent and attempt they name; otherwise they throw {@link
 *       dev.taskagent.task.ClaimLostException} (or {@link dev.taskagent.task.TaskNotFoundException}) and
 *       write nothing. A heartbeat sets the lease expiry to now plus the lease.
 *   <li>TS-9.3 {@code complete} sets success or failed and clears the lease; {@code release} sets the
 *       task pending for the same assignee, keeps its attempt and clears the lease. Any other write that
 *       takes a task out of running (an update of its status, a hand-over) clears its lease too.
 *   <li>TS-9.4 {@code reclaimExpired} takes back exactly the running tasks whose lease expired: pending
 *       while the attempt is below the task's maximum (its own, else the default), failed otherwise; the
 *       lease cleared and a comment by {@link dev.taskagent.store.spi.Leases#REAPER} added. It never
 *       touches a task that is not running, whose lease has not expired, or that a heartbeat renewed;
 *       concurrent reclaims, in one process or many, take each expired claim exactly once. Given a backoff, a
 *       task put back gets the not-before time now plus the backoff of its expired attempt.
 *   <li>TS-9.5 A lease shorter than 1 ms or longer than 1 day, an attempt below 1, or a maximum of
 *       attempts below 1 throws {@link IllegalArgumentException} and writes nothing.
 *   <li>TS-9.6 {@code completeHeld(agent, attempts, outcome)} ends each listed claim that {@code complete}
 *       would end without a refusal exactly as {@code complete} would (TS-9.3, TS-12.3), and leaves every
 *       other listed task as it was (a lost claim, a missing task, a success over unfinished subtasks),
 *       missing from its result; more than {@link #MAX_CLAIM_BATCH} claims throw {@link
 *       IllegalArgumentException} and write nothing.
 *   <li>TS-9.7 A task created with a not-before time keeps it (to the microsecond) and reads show it; no
 *       claim ({@code claimNext}, {@code claimUpTo}) hands it out while that time is ahead of the store's clock
 *       ("now" as in TS-9.1), and the claim after it has passed does, in the usual order (TS-7.1). A time that
 *       has passed makes it claimable at once. A claim clears the time: it was for that claim.
 *   <li>TS-9.8 {@code delay(task, d)} sets the not-before time to now plus {@code d} (none for zero) and
 *       changes nothing else but the version and update time; a task that ended is refused with {@link
 *       dev.taskagent.task.TaskCompleteException}, a negative or too long delay with {@link
 *       IllegalArgumentException}; nothing is written then.
 *   <li>TS-9.9 {@code untilNextScheduled(agent)} is the time from now to the earliest not-before time still
 *       ahead among the agent's pending, non-archived, unblocked tasks; empty when there is none.
 * </ul>
 *
 * <p><b>TS-10 The event feed</b> ({@link #eventFeed()}: every committed change, readable from every process)
 *
 * <ul>
 *   <li>TS-10.1 A committed unit of work appends the events recorded in it ({@code recordEvent}), in
 *       the order recorded, and an {@code updated} event for each task it changed without recording one; a
 *       unit of work that rolled back appends nothing. Kinds and payloads are those of {@link
 *       dev.taskagent.store.spi.FeedEncoding}; an event's time comes from the store's clock.
 *   <li>TS-10.2 {@code read(after, limit)} returns the events after a position in position order, each
 *       position one more than the one before, at most {@code limit}; {@code lastPosition()} is the newest.
 *   <li>TS-10.3 Positions are given to committed events only: an event whose unit of work commits after
 *       a later-started one was read still comes after every position read, never behind.
 *   <li>TS-10.4 A negative position, a limit outside 1..{@link dev.taskagent.event.EventFeed#MAX_READ} or a
 *       position ahead of the feed throws {@link IllegalArgumentException}; a position whose following
 *       events were pruned throws {@link dev.taskagent.event.EventsPrunedException} naming the first
 *       position held.
 *   <li>TS-10.5 A subscription delivers every event after its position, in order, on a thread of its own,
 *       goes on after a listener throws, and resumes from {@code lastDeliveredPosition()} when started again.
 *   <li>TS-10.6 The events of concurrent units of work are each read once, without gaps, and the events of
 *       one task in the order its changes committed.
 *   <li>TS-10.7 A claim ({@code claimNext}) appends a {@code claimed} event naming the assignee, its
 *       attempt and its lease, whether or not the unit of work records one; a {@link
 *       dev.taskagent.event.TaskEvent.Claimed} recorded for a task the unit of work claimed is not appended a
 *       second time.
 * </ul>
 *
 * <p><b>TS-11 Counting</b> (optional: {@link #countTasks()} may throw {@link UnsupportedOperationException})
 *
 * <ul>
 *   <li>TS-11.1 {@code countTasks} counts the non-archived pending and running tasks, and among the running
 *       ones those whose lease expired ("now" as in TS-9.1).
 * </ul>
 *
 * <p><b>TS-12 The work graph</b> (optional: a store without it throws {@link UnsupportedOperationException}
 * from {@link TaskTransaction#addDependency}, and the kit skips these rules)
 *
 * <ul>
 *   <li>TS-12.1 A new task keeps its spec's parent, blockers, tags and metadata (the metadata text verbatim);
 *       {@code blockedBy} lists its blockers, lowest id first, and {@code openBlockers} counts those not in
 *       success. A parent or blocker that does not exist throws {@link dev.taskagent.task.TaskNotFoundException}
 *       naming it, and nothing is written.
 *   <li>TS-12.2 A task is ready when it is pending, not archived and has no open blocker. {@code claimNext}
 *       hands out ready tasks only, in the order of TS-7.1 among them; TS-7.2 to TS-7.6 hold with "claimable"
 *       read as "ready": a blocked task never makes a claim come back empty while a ready one is unclaimed.
 *   <li>TS-12.3 When a task's status becomes success (by {@code complete} or {@code updateTask}), the open
 *       blocker count of each of its dependants drops by one in the same unit of work, and each dependant that
 *       reaches none gets an {@code unblocked} event there; when it leaves success, the counts rise again. A
 *       blocker that fails, is archived or is pending keeps its dependants blocked. The count is derived: a
 *       change of it alone does not increment the dependant's version.
 *   <li>TS-12.4 {@code addDependency} and {@code removeDependency} change the dependant only (its version,
 *       {@code blockedBy}, {@code openBlockers}; a running dependant keeps running) and record {@code
 *       dependency_added} / {@code dependency_removed}, plus {@code unblocked} when a removal leaves no open
 *       blocker. A self-dependency, a duplicate, a missing dependency to remove or an unknown task is refused
 *       ({@link dev.taskagent.task.TaskGraphException}, {@link dev.taskagent.task.TaskNotFoundException}); a
 *       dependency that would close a cycle of any length is refused with a {@code TaskGraphException} whose
 *       {@code tasks()} is the cycle. Nothing is written on refusal. Of two concurrent units of work whose
 *       dependencies together would close a cycle, exactly one commits.
 *   <li>TS-12.5 {@code listDependants} returns the tasks that depend on a task, lowest id first.
 *   <li>TS-12.6 {@code listChildren} returns a task's subtasks, lowest id first. A parent that is the task
 *       itself or one of its descendants is refused ({@code PARENT_CYCLE}), an unknown parent with {@code
 *       TaskNotFoundException}; nothing is written. Archiving a task archives its whole subtree in the same
 *       unit of work.
 *   <li>TS-12.7 Setting success on a task (by {@code complete} or {@code updateTask}) while one of its
 *       non-archived subtasks is pending or running is refused ({@code OPEN_CHILDREN}, naming them), unless the
 *       call asks for it explicitly; failing it is always allowed.
 *   <li>TS-12.8 {@code updateTask} replaces tags and metadata; TS-7.7 covers parent, blockers, open blocker
 *       count, tags and metadata.
 * </ul>
 *
 * <p><b>TS-13 Search</b> (optional: a store without it throws {@link UnsupportedOperationException} from {@link
 * TaskTransaction#searchTasks}, and the kit skips these rules)
 *
 * <ul>
 *   <li>TS-13.1 {@code searchTasks} finds the tasks whose description, steps, progress entries or comment texts
 *       hold every word of the query ({@link SearchQuery#words(String)}), compared without regard to case, in
 *       any script (accented, German, Cyrillic, Greek letters), and no other task: a word found only in a
 *       link, a preference, a comment's author, the metadata or a tag does not match. A store may leave out
 *       words its engine does not index (very short words, the engine's stop words) and must say which.
 *   <li>TS-13.2 The filters narrow the matches to any of the given statuses, one assignee, one session and
 *       one tag; archived tasks match only when the query includes them.
 *   <li>TS-13.3 A page holds at most the query's limit of matches, best first by a ranking of the store's
 *       own that depends only on the task and the query; {@code remaining} counts the matches after the page,
 *       and only a page followed by more has a cursor.
 *   <li>TS-13.4 Following the cursors from the first page returns every task that matched when the first
 *       page was read exactly once, also when tasks are created between the pages; the total of a page and
 *       its {@code remaining} never grows along the pages.
 *   <li>TS-13.5 A search sees what committed before it: a comment or progress added, a description changed,
 *       are found by the next search.
 *   <li>TS-13.6 A cursor of another query (other words or filters), or one changed or cut, throws {@link
 *       SearchCursorException} and nothing is written.
 * </ul>
 *
 * <p>Implementations are thread-safe: one store is shared by every thread of the application.
 */
public interface TaskStore extends AutoCloseable {

    /** The most tasks one {@link #claimUpTo(String, Duration, int)} may claim (TS-7.8). */
    int MAX_CLAIM_BATCH = 1_000;

    /**
     * How many request ids a task holds (TS-5.6): those of its last 32 appends that wrote with one. A retry after
     * a lost reply comes soon, before 32 other appends with a request id reached the same task.
     */
    int REQUEST_ID_WINDOW = 32;

    /**
     * Runs a unit of work in one transaction: all of its writes are kept, or none (TS-1).
     *
     * @param work what to do with the transaction; must not keep it beyond its return
     * @param <R> the result type
     * @return what the work returned
     * @throws NullPointerException if {@code work} is null
     * @throws IllegalStateException if called from inside a unit of work of this store on this thread
     * @throws TaskStoreException if the storage fails (the work is rolled back)
     */
    <R> R inTransaction(TransactionWork<R> work);

    /**
     * Reads a task with all its fields, in a transaction of its own (TS-2.1).
     *
     * @param taskId the task's id
     * @return the task, or empty if there is none with that id
     */
    default Optional<Task> findTask(long taskId) {
        return inTransaction(transaction -> transaction.findTask(taskId));
    }

    /**
     * Lists a session's tasks in order, in a transaction of its own (TS-2.2).
     *
     * @param sessionId the session
     * @return the tasks, order 1 first; empty for an unknown session
     */
    default List<Task> listTasks(String sessionId) {
        return inTransaction(transaction -> transaction.listTasks(sessionId));
    }

    /**
     * Lists the sessions that hold tasks, in a transaction of its own (see {@link
     * TaskTransaction#listSessionIds()}).
     *
     * @return the session ids, sorted
     * @throws UnsupportedOperationException if the store cannot list sessions
     */
    default List<String> listSessionIds() {
        return inTransaction(TaskTransaction::listSessionIds);
    }

    /**
     * Lists the agents that hold non-archived tasks, in a transaction of its own (see {@link
     * TaskTransaction#listAssignees()}).
     *
     * @return the assignees, sorted
     * @throws UnsupportedOperationException if the store cannot list assignees
     */
    default List<String> listAssignees() {
        return inTransaction(TaskTransaction::listAssignees);
    }

    /**
     * Claims the assignee's next pending task under a lease, in a transaction of its own (TS-7, TS-9).
     * {@code TaskQueue} claims through this method: a store may override it to claim in fewer round trips
     * than a unit of work takes, keeping the rules, the {@code claimed} event of TS-10.7 included.
     *
     * @param assignee the agent's name
     * @param lease how long the claim holds the task without a heartbeat
     * @return the claimed task, now running, with its comments and links; empty if none is claimable
     */
    default Optional<Task> claimNext(String assignee, Duration lease) {
        return inTransaction(transaction -> transaction.claimNext(assignee, lease));
    }

    /**
     * Claims up to {@code limit} of the assignee's ready tasks under a lease, in one transaction of its own
     * (TS-7.8): a worker with free threads pays one round trip and one commit for all of them.
     *
     * @param assignee the agent's name
     * @param lease how long each claim holds its task without a heartbeat
     * @param limit the most tasks to claim, 1..{@value #MAX_CLAIM_BATCH}
     * @return the claimed tasks in claim order, now running; empty if none is claimable
     */
    default List<Task> claimUpTo(String assignee, Duration lease, int limit) {
        return inTransaction(transaction -> transaction.claimUpTo(assignee, lease, limit));
    }

    /**
     * Lists one page of an assignee's queue in a transaction of its own (TS-2.6, see {@link
     * TaskTransaction#listQueuePage(QueueQuery)}).
     *
     * @param query the agent, filters, page size and cursor
     * @return the page, in claim order
     * @throws PageCursorException if the query's cursor belongs to another query or was changed or cut
     * @throws UnsupportedOperationException if the store cannot page a queue
     */
    default TaskPage listQueuePage(QueueQuery query) {
        java.util.Objects.requireNonNull(query, "query");
        return inTransaction(transaction -> transaction.listQueuePage(query));
    }

    /**
     * Searches the store's tasks in a transaction of its own (TS-13, see {@link
     * TaskTransaction#searchTasks(SearchQuery)}).
     *
     * @param query the words, filters, page size and cursor
     * @return one page of the matches, best first
     * @throws SearchCursorException if the query's cursor belongs to another query or was changed or cut
     * @throws UnsupportedOperationException if the store cannot search
     */
    default TaskPage searchTasks(SearchQuery query) {
        java.util.Objects.requireNonNull(query, "query");
        return inTransaction(transaction -> transaction.searchTasks(query));
    }

    /**
     * Returns the store's feed of committed task changes, readable from every process that shares the
     * store (TS-10).
     *
     * @return the feed
     * @throws UnsupportedOperationException if the store has no feed
     */
    default EventFeed eventFeed() {
        throw new UnsupportedOperationException(getClass().getName() + " has no event feed; use a store that has"
                + " one (the in-memory and JDBC stores do), or listen in-process with a TaskListener");
    }

    /**
     * Counts the non-archived pending and running tasks, and the running ones whose lease expired (TS-11.1),
     * in a transaction of its own; for gauges and health checks, so it may be called often.
     *
     * @return the counts
     * @throws UnsupportedOperationException if the store cannot count (the default)
     * @throws TaskStoreException if the storage fails
     */
    default TaskCounts countTasks() {
        throw new UnsupportedOperationException(getClass().getName() + " cannot count its tasks; implement"
                + " TaskStore.countTasks() (the in-memory and JDBC stores do)");
    }

    /**
     * Releases the store's resources (connections it opened itself, threads). A store built on a
     * caller's {@code DataSource} does not close that data source. Idempotent.
     */
    @Override
    default void close() {}
}
