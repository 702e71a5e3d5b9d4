package dev.taskagent.store.inmemory;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.spi.DeadLetterPaging;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.InProcessEventFeed;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.QueuePaging;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.store.spi.TaskGraphs;
import dev.taskagent.store.spi.TaskSearch;
import dev.taskagent.store.spi.TaskSnapshots;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskExistsException;
import dev.taskagent.task.TaskGraphException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.task.TextLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link TaskStore} held in memory: for tests, demos and single-process applications. Passes the
 * conformance kit of {@code taskagent-testkit}.
 *
 * <p>Units of work are serialised by one lock, which makes them atomic and isolated at the cost of
 * parallelism (each one is short: model calls always happen outside a transaction). A failed unit of work
 * is undone from an undo log, so nobody ever sees half of one. Claims pick from a per-assignee ordered set
 * of claimable tasks, so a claim costs O(log n) whatever the queue's length. A search finds its candidates
 * in an inverted index (word to task ids) kept by every write, so it reads only the tasks that hold every
 * word of the query.
 *
 * <p>Nothing is persisted: the tasks are gone when the JVM exits. Thread-safe.
 */
public final class InMemoryTaskStore implements TaskStore {

    /** Claim order: priority descending, then createdAt ascending, then id ascending (TS-7.1). */
    private static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

    /** Soonest not-before time first (for the tasks that wait for one). */
    private static final Comparator<Task> SCHEDULE_ORDER = Comparator.comparing(
                    Task::notBefore, Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
            .thenComparingLong(Task::id);

    private static final TreeSet<Task> EMPTY_QUEUE = new TreeSet<>(CLAIM_ORDER);

    private static final Comparator<Task> LEASE_ORDER =
            Comparator.comparing(Task::leaseExpiresAt).thenComparingLong(Task::id);

    private static final long PLANNING_SECTION = 0L;

    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final ThreadLocal<Boolean> inUnitOfWork = new ThreadLocal<>();

    // All state below is guarded by lock.
    private long lastId;
    private final Map<Long, Task> tasksById = new HashMap<>();
    private final Map<String, List<Long>> taskIdsBySession = new HashMap<>();
    private final Map<String, List<String>> planningBySession = new HashMap<>();
    /** session → message id → owning task id, or PLANNING_SECTION. */
    private final Map<String, Map<String, Long>> messageOwners = new HashMap<>();
    /**
     * assignee → its claimable (pending, non-archived, unblocked) tasks in claim order, but for those whose
     * not-before time was ahead when they were indexed: those are in {@link #scheduled} until it passes.
     */
    private final Map<String, TreeSet<Task>> claimable = new HashMap<>();
    /**
     * assignee → its otherwise claimable tasks whose not-before time was ahead when they were indexed, soonest
     * first; a claim moves those whose time passed into {@link #claimable} ({@link #promoteDue}).
     */
    private final Map<String, TreeSet<Task>> scheduled = new HashMap<>();
    /** assignee → all its non-archived tasks, in claim order (for listQueue). */
    private final Map<String, TreeSet<Task>> queues = new HashMap<>();
    /** Running tasks under a lease, soonest expiry first (for reclaimExpired). */
    private final TreeSet<Task> leased = new TreeSet<>(LEASE_ORDER);
    /** blocker id → the ids of the tasks that depend on it (the reverse of Task.blockedBy). */
    private final Map<Long, TreeSet<Long>> dependantsOf = new HashMap<>();
    /** parent id → the ids of its subtasks. */
    private final Map<Long, TreeSet<Long>> childrenOf = new HashMap<>();
    /** The search's inverted index: each word of a task's searchable texts to the ids of the tasks that hold it. */
    private final Map<String, Set<Long>> tasksByWord = new HashMap<>();
    /** The words each task is indexed under, to take it out again. */
    private final Map<Long, Set<String>> wordsByTask = new HashMap<>();
    /** Idempotency key → the id of the task created with it (TS-3.6). */
    private final Map<String, Long> tasksByKey = new HashMap<>();
    /** Task id → the request ids of its last appends that wrote with one, oldest first (TS-5.5, TS-5.6). */
    private final Map<Long, List<String>> requestIdsByTask = new HashMap<>();

    /** How long the event feed keeps events unless the builder says otherwise. */
    public static final Duration DEFAULT_EVENT_RETENTION = Duration.ofDays(7);

    private final InProcessEventFeed feed;

    /** Creates an empty store on the system clock (UTC). */
    public InMemoryTaskStore() {
        this(Clock.systemUTC());
    }

    /**
     * Creates an empty store whose timestamps come from a clock.
     *
     * @param clock the source of {@code createdAt}, {@code updatedAt}, comment, lease and event times
     */
    public InMemoryTaskStore(Clock clock) {
        this(Objects.requireNonNull(clock, "clock"), DEFAULT_EVENT_RETENTION);
    }

    private InMemoryTaskStore(Clock clock, Duration eventRetention) {
        this.clock = clock;
        this.feed = new InProcessEventFeed(clock, eventRetention);
    }

    /**
     * Starts configuring a store, for settings beyond the clock.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the store's event feed: every committed change, in commit order, for readers in this
     * process (the store is in memory).
     *
     * @return the feed
     */
    @Override
    public EventFeed eventFeed() {
        return feed;
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        Objects.requireNonNull(work, "work");
        if (inUnitOfWork.get() != null) {
            throw new IllegalStateException(
                    "inTransaction was called inside a unit of work of the same store; use the TaskTransaction"
                            + " you were given instead");
        }
        lock.lock();
        inUnitOfWork.set(Boolean.TRUE);
        Transaction transaction = new Transaction();
        try {
            R result = work.execute(transaction);
            feed.append(transaction.committedEvents());
            transaction.commit();
            return result;
        } catch (Throwable e) { // also checked exceptions thrown sneakily: never keep half a unit of work
            transaction.rollback();
            throw e;
        } finally {
            transaction.end();
            inUnitOfWork.remove();
            lock.unlock();
        }
    }

    /**
     * Counts the non-archived pending and running tasks and the running ones whose lease expired on the
     * store's clock. Walks every task under the store's lock: meant for gauges read every few seconds.
     *
     * @return the counts
     */
    @Override
    public TaskCounts countTasks() {
        return inTransaction(transaction -> {
            Instant now = clock.instant();
            long pending = 0;
            long running = 0;
            long expired = 0;
            for (Task task : tasksById.values()) {
                if (task.archived()) {
                    continue;
                }
                if (task.status() == TaskStatus.PENDING) {
                    pending++;
                } else if (task.status() == TaskStatus.RUNNING) {
                    running++;
                    if (task.isLeased() && task.leaseExpiresAt().isBefore(now)) {
                        expired++;
                    }
                }
            }
            return new TaskCounts(pending, running, expired);
        });
    }

    @Override
    public String toString() {
        return "InMemoryTaskStore";
    }

    /** Configures an {@link InMemoryTaskStore}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private Clock clock = Clock.systemUTC();
        private Duration eventRetention = DEFAULT_EVENT_RETENTION;

        private Builder() {}

        /**
         * Sets where timestamps come from. Default: the UTC system clock.
         *
         * @param value the clock
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Sets how long the event feed keeps events before it drops them.
         *
         * @param value positive; default 7 days
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is not positive
         */
        public Builder eventRetention(Duration value) {
            Objects.requireNonNull(value, "eventRetention");
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("eventRetention must be positive, was " + value);
            }
            eventRetention = value;
            return this;
        }

        /**
         * Builds an empty store.
         *
         * @return the store
         */
        public InMemoryTaskStore build() {
            return new InMemoryTaskStore(clock, eventRetention);
        }
    }

    private final class Transaction implements TaskTransaction {
        private final Deque<Runnable> undoLog = new ArrayDeque<>();
        private final List<FeedEncoding.Encoded> recorded = new ArrayList<>();
        /** The tasks this unit of work wrote, as they are now: each gets an event (TS-10.1). */
        private final Map<Long, Task> written = new LinkedHashMap<>();
        /** The tasks this unit of work claimed: their claimed event is recorded by the claim itself. */
        private final Set<Long> claimedHere = new HashSet<>();

        private final Thread owner = Thread.currentThread();
        private boolean ended;

        void commit() {
            undoLog.clear();
        }

        @Override
        public void recordEvent(TaskEvent event) {
            checkUsable();
            Objects.requireNonNull(event, "event");
            if (event instanceof TaskEvent.Claimed claimed
                    && claimedHere.contains(claimed.task().id())) {
                return; // the claim recorded it (TS-10.7)
            }
            recorded.add(FeedEncoding.encode(event));
        }

        /** The events to append at commit: those recorded, and an "updated" for a task written without one. */
        List<FeedEncoding.Encoded> committedEvents() {
            List<FeedEncoding.Encoded> events = new ArrayList<>(recorded);
            Set<Long> told = new HashSet<>();
            recorded.forEach(event -> told.add(event.taskId()));
            for (Task task : written.values()) {
                if (!told.contains(task.id())) {
                    events.add(FeedEncoding.updated(task));
                }
            }
            return events;
        }

        void rollback() {
            while (!undoLog.isEmpty()) {
                undoLog.pop().run();
            }
        }

        void end() {
            ended = true;
        }

        private void checkUsable() {
            if (ended) {
                throw new IllegalStateException("This TaskTransaction ended with its unit of work");
            }
            if (Thread.currentThread() != owner) {
                throw new IllegalStateException("A TaskTransaction may only be used on the thread of its unit of work");
            }
        }

        @Override
        public Optional<Task> findTask(long taskId) {
            checkUsable();
            StoreArguments.taskId(taskId);
            return Optional.ofNullable(tasksById.get(taskId));
        }

        @Override
        public List<Task> listTasks(String sessionId) {
            checkUsable();
            StoreArguments.sessionId(sessionId);
            List<Long> ids = taskIdsBySession.getOrDefault(sessionId, List.of());
            List<Task> result = new ArrayList<>(ids.size());
            for (Long id : ids) {
                result.add(tasksById.get(id));
            }
            return List.copyOf(result);
        }

        @Override
        public Optional<Task> findTaskByOrder(String sessionId, int order) {
            checkUsable();
            StoreArguments.sessionId(sessionId);
            List<Long> ids = taskIdsBySession.getOrDefault(sessionId, List.of());
            return order >= 1 && order <= ids.size()
                    ? Optional.of(tasksById.get(ids.get(order - 1)))
                    : Optional.empty();
        }

        @Override
        public List<Task> listQueue(String assignee) {
            checkUsable();
            StoreArguments.name(assignee, "assignee");
            TreeSet<Task> queue = queues.get(assignee);
            return queue == null ? List.of() : List.copyOf(queue);
        }

        @Override
        public TaskPage listQueuePage(QueueQuery query) {
            checkUsable();
            Objects.requireNonNull(query, "query");
            // The live claim-ordered set, not a copy: a page reads it under the store's lock.
            return QueuePaging.page(query, lastId, queues.getOrDefault(query.assignee(), EMPTY_QUEUE));
        }

        @Override
        public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
            checkUsable();
            return DeadLetterPaging.page(defaultMaxAttempts, limit, cursor, lastId, tasksById.values());
        }

        @Override
        public List<String> listSessionIds() {
            checkUsable();
            return taskIdsBySession.entrySet().stream()
                    .filter(entry -> !entry.getValue().isEmpty())
                    .map(Map.Entry::getKey)
                    .sorted()
                    .toList();
        }

        @Override
        public List<String> listAssignees() {
            checkUsable();
            return queues.entrySet().stream()
                    .filter(entry -> !entry.getValue().isEmpty())
                    .map(Map.Entry::getKey)
                    .sorted()
                    .toList();
        }

        @Override
        public List<String> planningMessageIds(String sessionId) {
            checkUsable();
            StoreArguments.sessionId(sessionId);
            return List.copyOf(planningBySession.getOrDefault(sessionId, List.of()));
        }

        @Override
        public Task insertTask(NewTask spec, int afterOrder) {
            checkUsable();
            Objects.requireNonNull(spec, "task");
            StoreArguments.afterOrder(afterOrder);
            String sessionId = spec.sessionId();
            int position = Math.min(
                    afterOrder,
                    taskIdsBySession.getOrDefault(sessionId, List.of()).size());
            String idempotencyKey = spec.idempotencyKey();
            if (idempotencyKey != null && tasksByKey.containsKey(idempotencyKey)) {
                throw new TaskExistsException(existing(tasksByKey.get(idempotencyKey)), idempotencyKey);
            }
            if (spec.parentId() != 0) {
                existing(spec.parentId());
            }
            int openBlockers = 0;
            for (long blockerId : spec.blockedBy()) {
                if (existing(blockerId).status() != TaskStatus.SUCCESS) {
                    openBlockers++;
                }
            }
            Instant now = clock.instant();
            long previousLastId = lastId;
            long id = ++lastId;
            undoLog.push(() -> lastId = previousLastId);
            if (idempotencyKey != null) {
                tasksByKey.put(idempotencyKey, id);
                undoLog.push(() -> tasksByKey.remove(idempotencyKey));
            }
            Task task = TaskBuilder.from(TaskSnapshots.created(spec, id, position + 1, now))
                    .openBlockers(openBlockers)
                    .build();
            for (long blockerId : spec.blockedBy()) {
                link(dependantsOf, blockerId, id);
            }
            if (spec.parentId() != 0) {
                link(childrenOf, spec.parentId(), id);
            }
            written.put(id, task);
            // Mutated in place with an undo entry, so that appending to a long session costs O(1).
            List<Long> ids = taskIdsBySession.computeIfAbsent(sessionId, key -> new ArrayList<>());
            boolean newSession = ids.isEmpty();
            ids.add(position, id);
            undoLog.push(() -> {
                ids.remove(position);
                if (newSession) {
                    taskIdsBySession.remove(sessionId);
                }
            });
            put(task);
            for (int index = position + 1; index < ids.size(); index++) {
                Task later = tasksById.get(ids.get(index));
                put(TaskBuilder.from(later).order(index + 1).build());
            }
            return task;
        }

        @Override
        public Task updateTask(TaskUpdate update) {
            checkUsable();
            Objects.requireNonNull(update, "update");
            Task current = existing(update.taskId());
            if (update.expectedVersion().isPresent() && update.expectedVersion().getAsLong() != current.version()) {
                throw new StaleTaskException(
                        current.id(), update.expectedVersion().getAsLong(), current.version());
            }
            if (update.changes(TaskUpdate.Field.PARENT) && update.parentId() != current.parentId()) {
                moveUnder(current, update.parentId());
            }
            if (update.changes(TaskUpdate.Field.STATUS)
                    && update.status() == TaskStatus.SUCCESS
                    && current.status() != TaskStatus.SUCCESS
                    && !update.evenWithOpenChildren()) {
                refuseOpenChildren(current.id());
            }
            Task updated = write(TaskSnapshots.applied(update, current), current);
            if (update.changes(TaskUpdate.Field.ARCHIVED) && update.archived()) {
                archiveSubtree(updated.id());
            }
            return updated;
        }

        private void moveUnder(Task task, long parentId) {
            if (parentId != 0) {
                existing(parentId);
                // The new parent must not be the task or lie in its subtree: walk up from the parent.
                List<Long> chain = new ArrayList<>();
                for (long up = parentId; up != 0; up = tasksById.get(up).parentId()) {
                    chain.add(up);
                    if (up == task.id()) {
                        throw TaskGraphException.parentCycle(task.id(), parentId, chain);
                    }
                }
            }
            if (task.parentId() != 0) {
                unlink(childrenOf, task.parentId(), task.id());
            }
            if (parentId != 0) {
                link(childrenOf, parentId, task.id());
            }
        }

        private void refuseOpenChildren(long taskId) {
            List<Task> open = TaskGraphs.openChildren(listChildren(taskId));
            if (!open.isEmpty()) {
                throw TaskGraphException.openChildren(taskId, open);
            }
        }

        private void archiveSubtree(long parentId) {
            for (long childId : List.copyOf(childrenOf.getOrDefault(parentId, new TreeSet<>()))) {
                Task child = tasksById.get(childId);
                if (!child.archived()) {
                    write(TaskBuilder.from(child).archived(true), child);
                }
                archiveSubtree(childId);
            }
        }

        @Override
        public Task addDependency(long dependantId, long blockerId) {
            checkUsable();
            Task dependant = existing(dependantId);
            Task blocker = existing(blockerId);
            if (dependantId == blockerId) {
                throw TaskGraphException.selfDependency(dependantId);
            }
            if (dependant.blockedBy().contains(blockerId)) {
                throw TaskGraphException.duplicateDependency(dependantId, blockerId);
            }
            Optional<List<Long>> path =
                    TaskGraphs.path(dependantId, blockerId, id -> dependantsOf.getOrDefault(id, new TreeSet<>()));
            if (path.isPresent()) {
                throw TaskGraphException.dependencyCycle(dependantId, blockerId, path.get());
            }
            List<Long> blockers = new ArrayList<>(dependant.blockedBy());
            blockers.add(blockerId);
            int open = dependant.openBlockers() + (blocker.status() == TaskStatus.SUCCESS ? 0 : 1);
            link(dependantsOf, blockerId, dependantId);
            Task after = write(TaskBuilder.from(dependant).blockedBy(blockers).openBlockers(open), dependant);
            recorded.add(FeedEncoding.encode(new TaskEvent.DependencyAdded(after, blockerId)));
            return after;
        }

        @Override
        public Task removeDependency(long dependantId, long blockerId) {
            checkUsable();
            Task dependant = existing(dependantId);
            StoreArguments.taskId(blockerId);
            if (!dependant.blockedBy().contains(blockerId)) {
                existing(blockerId);
                throw TaskGraphException.noSuchDependency(dependantId, blockerId);
            }
            Task blocker = tasksById.get(blockerId);
            List<Long> blockers = new ArrayList<>(dependant.blockedBy());
            blockers.remove(blockerId);
            int open = dependant.openBlockers() - (blocker.status() == TaskStatus.SUCCESS ? 0 : 1);
            unlink(dependantsOf, blockerId, dependantId);
            Task after = write(TaskBuilder.from(dependant).blockedBy(blockers).openBlockers(open), dependant);
            recorded.add(FeedEncoding.encode(new TaskEvent.DependencyRemoved(after, blockerId)));
            if (dependant.openBlockers() > 0 && open == 0) {
                recorded.add(FeedEncoding.encode(new TaskEvent.Unblocked(after)));
            }
            return after;
        }

        @Override
        public List<Task> listDependants(long taskId) {
            checkUsable();
            StoreArguments.taskId(taskId);
            return dependantsOf.getOrDefault(taskId, new TreeSet<>()).stream()
                    .map(tasksById::get)
                    .toList();
        }

        @Override
        public List<Task> listChildren(long parentId) {
            checkUsable();
            StoreArguments.taskId(parentId);
            return childrenOf.getOrDefault(parentId, new TreeSet<>()).stream()
                    .map(tasksById::get)
                    .toList();
        }

        private void link(Map<Long, TreeSet<Long>> edges, long from, long to) {
            edges.computeIfAbsent(from, key -> new TreeSet<>()).add(to);
            undoLog.push(() -> unlinkNow(edges, from, to));
        }

        private void unlink(Map<Long, TreeSet<Long>> edges, long from, long to) {
            unlinkNow(edges, from, to);
            undoLog.push(
                    () -> edges.computeIfAbsent(from, key -> new TreeSet<>()).add(to));
        }

        private void unlinkNow(Map<Long, TreeSet<Long>> edges, long from, long to) {
            TreeSet<Long> targets = edges.get(from);
            if (targets != null) {
                targets.remove(to);
                if (targets.isEmpty()) {
                    edges.remove(from);
                }
            }
        }

        @Override
        public Task appendProgress(long taskId, String progress) {
            checkUsable();
            StoreArguments.text(progress, "progress");
            Task current = existing(taskId);
            return write(TaskBuilder.from(current).progresses(append(current.progresses(), progress)), current);
        }

        @Override
        public Task addComment(long taskId, String author, String text) {
            checkUsable();
            StoreArguments.name(author, "author");
            StoreArguments.text(text, "text");
            Task current = existing(taskId);
            Comment comment = new Comment(author, text, clock.instant());
            return write(TaskBuilder.from(current).comments(append(current.comments(), comment)), current);
        }

        @Override
        public Task addLink(long taskId, String url, String description, String author) {
            checkUsable();
            StoreArguments.text(url, "url");
            TextLimits.check(description, "description");
            StoreArguments.name(author, "author");
            Task current = existing(taskId);
            Link link = new Link(url, description, author, clock.instant());
            return write(TaskBuilder.from(current).links(append(current.links(), link)), current);
        }

        @Override
        public AppendResult appendProgress(long taskId, String progress, String requestId) {
            checkUsable();
            StoreArguments.text(progress, "progress");
            StoreArguments.requestId(requestId);
            return once(taskId, requestId, () -> appendProgress(taskId, progress));
        }

        @Override
        public AppendResult addComment(long taskId, String author, String text, String requestId) {
            checkUsable();
            StoreArguments.name(author, "author");
            StoreArguments.text(text, "text");
            StoreArguments.requestId(requestId);
            return once(taskId, requestId, () -> addComment(taskId, author, text));
        }

        @Override
        public AppendResult addLink(long taskId, String url, String description, String author, String requestId) {
            checkUsable();
            StoreArguments.text(url, "url");
            TextLimits.check(description, "description");
            StoreArguments.name(author, "author");
            StoreArguments.requestId(requestId);
            return once(taskId, requestId, () -> addLink(taskId, url, description, author));
        }

        /**
         * Runs an append unless the task holds its request id, and then remembers the id, forgetting the oldest
         * beyond the window (TS-5.5, TS-5.6); units of work are serialised by the store's lock (TS-5.7).
         */
        private AppendResult once(long taskId, String requestId, Supplier<Task> append) {
            Task current = existing(taskId);
            List<String> held = requestIdsByTask.getOrDefault(taskId, List.of());
            if (held.contains(requestId)) {
                return AppendResult.replayOf(current);
            }
            Task after = append.get();
            List<String> next = new ArrayList<>(held);
            next.add(requestId);
            if (next.size() > REQUEST_ID_WINDOW) {
                next.remove(0);
            }
            requestIdsByTask.put(taskId, List.copyOf(next));
            undoLog.push(() -> {
                if (held.isEmpty()) {
                    requestIdsByTask.remove(taskId);
                } else {
                    requestIdsByTask.put(taskId, held);
                }
            });
            return AppendResult.written(after);
        }

        @Override
        public Task linkMessages(long taskId, List<String> messageIds) {
            checkUsable();
            List<String> ids = StoreArguments.messageIds(messageIds);
            Task current = existing(taskId);
            LinkedHashSet<String> linked = new LinkedHashSet<>(current.messageIds());
            List<String> added = new ArrayList<>();
            for (String messageId : new LinkedHashSet<>(ids)) {
                if (linked.add(messageId)) {
                    added.add(messageId);
                }
            }
            for (String messageId : added) {
                detachFromPreviousOwner(current.sessionId(), messageId, taskId);
                setOwner(current.sessionId(), messageId, taskId);
            }
            // Re-read: detaching cannot touch this task (its ids were skipped), but keep the snapshot fresh.
            Task fresh = tasksById.get(taskId);
            return write(TaskBuilder.from(fresh).messageIds(List.copyOf(linked)), fresh);
        }

        @Override
        public void linkMessagesToPlanningSection(String sessionId, List<String> messageIds) {
            checkUsable();
            StoreArguments.sessionId(sessionId);
            List<String> ids = StoreArguments.messageIds(messageIds);
            List<String> planning = new ArrayList<>(planningBySession.getOrDefault(sessionId, List.of()));
            boolean existed = planningBySession.containsKey(sessionId);
            for (String messageId : new LinkedHashSet<>(ids)) {
                if (!planning.contains(messageId)) {
                    detachFromPreviousOwner(sessionId, messageId, PLANNING_SECTION);
                    setOwner(sessionId, messageId, PLANNING_SECTION);
                    planning.add(messageId);
                }
            }
            List<String> previous = planningBySession.put(sessionId, List.copyOf(planning));
            undoLog.push(() -> {
                if (existed) {
                    planningBySession.put(sessionId, previous);
                } else {
                    planningBySession.remove(sessionId);
                }
            });
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            checkUsable();
            StoreArguments.name(assignee, "assignee");
            Leases.lease(lease);
            promoteDue(assignee, clock.instant());
            TreeSet<Task> candidates = claimable.get(assignee);
            if (candidates == null || candidates.isEmpty()) {
                return Optional.empty();
            }
            Task next = candidates.first();
            Task claimed = write(
                    TaskBuilder.from(next)
                            .status(TaskStatus.RUNNING)
                            .attempt(next.attempt() + 1)
                            .leaseExpiresAt(clock.instant().plus(lease))
                            .notBefore(null),
                    next);
            claimedHere.add(claimed.id());
            recorded.add(FeedEncoding.encode(new TaskEvent.Claimed(claimed, assignee)));
            return Optional.of(claimed);
        }

        @Override
        public Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
            checkUsable();
            Leases.lease(lease);
            Task current = claimed(taskId, agent, attempt);
            return write(
                    TaskBuilder.from(current).leaseExpiresAt(clock.instant().plus(lease)), current);
        }

        @Override
        public Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
            return complete(taskId, agent, attempt, outcome, false);
        }

        @Override
        public Task complete(long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
            checkUsable();
            Objects.requireNonNull(outcome, "outcome");
            if (!outcome.isOutcome()) {
                throw new IllegalArgumentException("outcome must be success or failed, was " + outcome.wireName());
            }
            Task current = claimed(taskId, agent, attempt);
            if (outcome == TaskStatus.SUCCESS && !evenWithOpenChildren) {
                refuseOpenChildren(taskId);
            }
            return write(TaskBuilder.from(current).status(outcome), current);
        }

        @Override
        public Task release(long taskId, String agent, int attempt) {
            checkUsable();
            Task current = claimed(taskId, agent, attempt);
            return write(TaskBuilder.from(current).status(TaskStatus.PENDING), current);
        }

        @Override
        public Task delay(long taskId, Duration delay) {
            checkUsable();
            StoreArguments.taskId(taskId);
            Leases.delay(delay, "delay");
            Task current = existing(taskId);
            if (current.status().isTerminal()) {
                throw new TaskCompleteException(taskId, current.status(), "delayed");
            }
            Instant notBefore =
                    delay.isZero() ? null : clock.instant().plus(delay).truncatedTo(ChronoUnit.MICROS);
            return write(TaskBuilder.from(current).notBefore(notBefore), current);
        }

        @Override
        public Optional<Duration> untilNextScheduled(String assignee) {
            checkUsable();
            StoreArguments.name(assignee, "assignee");
            Instant now = clock.instant();
            promoteDue(assignee, now);
            TreeSet<Task> waiting = scheduled.get(assignee);
            return waiting == null
                    ? Optional.empty()
                    : Optional.of(Duration.between(now, waiting.first().notBefore()));
        }

        @Override
        public List<ReclaimedTask> reclaimExpired(int defaultMaxAttempts, int limit) {
            return reclaimExpired(defaultMaxAttempts, limit, attempt -> Duration.ZERO);
        }

        @Override
        public List<ReclaimedTask> reclaimExpired(
                int defaultMaxAttempts, int limit, java.util.function.IntFunction<Duration> backoff) {
            checkUsable();
            Objects.requireNonNull(backoff, "backoff");
            Leases.maxAttempts(defaultMaxAttempts);
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
            Instant now = clock.instant();
            List<Task> expired = new ArrayList<>();
            for (Task task : leased) {
                if (expired.size() == limit || !task.leaseExpiresAt().isBefore(now)) {
                    break;
                }
                expired.add(task);
            }
            List<ReclaimedTask> reclaimed = new ArrayList<>(expired.size());
            for (Task task : expired) {
                int maxAttempts = Leases.maxAttemptsOf(task, defaultMaxAttempts);
                ReclaimedTask.Outcome outcome = Leases.outcome(task.attempt(), maxAttempts);
                Comment comment = new Comment(
                        Leases.REAPER, Leases.reclaimComment(task.attempt(), maxAttempts, task.leaseExpiresAt()), now);
                Duration wait = outcome == ReclaimedTask.Outcome.REQUEUED
                        ? Leases.delay(backoff.apply(task.attempt()), "backoff")
                        : Duration.ZERO;
                Task after = write(
                        TaskBuilder.from(task)
                                .status(
                                        outcome == ReclaimedTask.Outcome.REQUEUED
                                                ? TaskStatus.PENDING
                                                : TaskStatus.FAILED)
                                .comments(append(task.comments(), comment))
                                .notBefore(wait.isZero() ? null : now.plus(wait).truncatedTo(ChronoUnit.MICROS)),
                        task);
                reclaimed.add(new ReclaimedTask(after, task.attempt(), outcome));
            }
            return List.copyOf(reclaimed);
        }

        /** The task if it is running under the agent and attempt (TS-9.2), else why not. */
        private Task claimed(long taskId, String agent, int attempt) {
            StoreArguments.name(agent, "agent");
            Leases.attempt(attempt);
            Task current = existing(taskId);
            if (current.status() != TaskStatus.RUNNING
                    || !agent.equals(current.assignee())
                    || current.attempt() != attempt) {
                throw new ClaimLostException(current, agent, attempt);
            }
            return current;
        }

        private Task existing(long taskId) {
            StoreArguments.taskId(taskId);
            Task task = tasksById.get(taskId);
            if (task == null) {
                throw new TaskNotFoundException(taskId);
            }
            return task;
        }

        /**
         * Stores a changed task with the next version and a fresh updatedAt (TS-4.2); a task that is no
         * longer running loses its lease (TS-9.3).
         */
        private Task write(TaskBuilder changed, Task current) {
            Task task = changed.version(current.version() + 1)
                    .updatedAt(clock.instant())
                    .build();
            if (task.status() != TaskStatus.RUNNING && task.leaseExpiresAt() != null) {
                task = TaskBuilder.from(task).leaseExpiresAt(null).build();
            }
            put(task);
            written.put(task.id(), task);
            int delta = TaskGraphs.openBlockerDelta(current.status(), task.status());
            if (delta != 0) {
                countBlocker(task.id(), delta);
            }
            return task;
        }

        /** Moves the open blocker count of a task's dependants (TS-12.3); the count is not versioned. */
        private void countBlocker(long blockerId, int delta) {
            for (long dependantId : dependantsOf.getOrDefault(blockerId, new TreeSet<>())) {
                Task dependant = tasksById.get(dependantId);
                Task after = TaskBuilder.from(dependant)
                        .openBlockers(dependant.openBlockers() + delta)
                        .build();
                put(after);
                if (written.containsKey(dependantId)) {
                    written.put(dependantId, after);
                }
                if (after.openBlockers() == 0) {
                    recorded.add(FeedEncoding.encode(new TaskEvent.Unblocked(after)));
                }
            }
        }

        @Override
        public TaskPage searchTasks(SearchQuery query) {
            checkUsable();
            Objects.requireNonNull(query, "query");
            Set<Long> rarest = null;
            for (String word : query.words()) {
                Set<Long> ids = tasksByWord.getOrDefault(word, Set.of());
                if (rarest == null || ids.size() < rarest.size()) {
                    rarest = ids;
                }
            }
            List<Task> candidates = new ArrayList<>(rarest.size());
            for (long id : rarest) {
                boolean inEvery = true;
                for (String word : query.words()) {
                    inEvery &= tasksByWord.getOrDefault(word, Set.of()).contains(id);
                }
                if (inEvery) {
                    candidates.add(tasksById.get(id));
                }
            }
            return TaskSearch.page(query, lastId, candidates);
        }

        private void put(Task task) {
            Task previous = tasksById.put(task.id(), task);
            reindex(previous, task);
            undoLog.push(() -> {
                if (previous == null) {
                    tasksById.remove(task.id());
                } else {
                    tasksById.put(task.id(), previous);
                }
                reindex(task, previous);
            });
        }

        private void detachFromPreviousOwner(String sessionId, String messageId, long newOwner) {
            Long owner = messageOwners.getOrDefault(sessionId, Map.of()).get(messageId);
            if (owner == null || owner == newOwner) {
                return;
            }
            if (owner == PLANNING_SECTION) {
                List<String> planning = new ArrayList<>(planningBySession.get(sessionId));
                planning.remove(messageId);
                List<String> previous = planningBySession.put(sessionId, List.copyOf(planning));
                undoLog.push(() -> planningBySession.put(sessionId, previous));
            } else {
                Task holder = tasksById.get(owner);
                List<String> remaining = new ArrayList<>(holder.messageIds());
                remaining.remove(messageId);
                write(TaskBuilder.from(holder).messageIds(remaining), holder);
            }
        }

        private void setOwner(String sessionId, String messageId, long owner) {
            Map<String, Long> owners = messageOwners.computeIfAbsent(sessionId, key -> new HashMap<>());
            Long previous = owners.put(messageId, owner);
            undoLog.push(() -> {
                if (previous == null) {
                    owners.remove(messageId);
                } else {
                    owners.put(messageId, previous);
                }
            });
        }
    }

    private void reindex(Task removed, Task added) {
        reindexWords(removed, added);
        if (removed != null) {
            removeFrom(claimable, removed);
            removeFrom(scheduled, removed);
            removeFrom(queues, removed);
            if (removed.isLeased()) {
                leased.remove(removed);
            }
        }
        if (added != null && added.isLeased()) {
            leased.add(added);
        }
        if (added != null && added.assignee() != null && !added.archived()) {
            queues.computeIfAbsent(added.assignee(), key -> new TreeSet<>(CLAIM_ORDER))
                    .add(added);
            if (added.status() == TaskStatus.PENDING && added.openBlockers() == 0) {
                if (added.isScheduledAfter(clock.instant())) {
                    scheduled
                            .computeIfAbsent(added.assignee(), key -> new TreeSet<>(SCHEDULE_ORDER))
                            .add(added);
                } else {
                    claimable
                            .computeIfAbsent(added.assignee(), key -> new TreeSet<>(CLAIM_ORDER))
                            .add(added);
                }
            }
        }
    }

    /**
     * Keeps the inverted index of the search: an append adds the words of its new entries only; any other change
     * of a searchable text indexes the task again.
     */
    private void reindexWords(Task removed, Task added) {
        if (removed != null && added != null && sameTextPrefix(removed, added)) {
            List<String> texts = new ArrayList<>();
            texts.addAll(added.progresses()
                    .subList(removed.progresses().size(), added.progresses().size()));
            added.comments()
                    .subList(removed.comments().size(), added.comments().size())
                    .forEach(comment -> texts.add(comment.text()));
            Set<String> words = wordsByTask.get(added.id());
            for (String text : texts) {
                for (String word : SearchQuery.words(text)) {
                    if (words.add(word)) {
                        tasksByWord
                                .computeIfAbsent(word, key -> new HashSet<>())
                                .add(added.id());
                    }
                }
            }
            return;
        }
        if (removed != null) {
            for (String word : wordsByTask.remove(removed.id())) {
                Set<Long> ids = tasksByWord.get(word);
                ids.remove(removed.id());
                if (ids.isEmpty()) {
                    tasksByWord.remove(word);
                }
            }
        }
        if (added != null) {
            Set<String> words = new HashSet<>(TaskSearch.words(added));
            wordsByTask.put(added.id(), words);
            for (String word : words) {
                tasksByWord.computeIfAbsent(word, key -> new HashSet<>()).add(added.id());
            }
        }
    }

    /** Whether a task's searchable texts are those of before with entries appended at most. */
    private static boolean sameTextPrefix(Task before, Task after) {
        return before.description().equals(after.description())
                && Objects.equals(before.steps(), after.steps())
                && before.progresses().size() <= after.progresses().size()
                && before.comments().size() <= after.comments().size()
                && after.progresses().subList(0, before.progresses().size()).equals(before.progresses())
                && after.comments().subList(0, before.comments().size()).equals(before.comments());
    }

    /**
     * Moves an agent's scheduled tasks whose not-before time passed into its claimable ones, and back a
     * claimable task whose time is ahead again (a clock set back). Each task moves once per time it passes, so
     * claims stay O(log n).
     */
    private void promoteDue(String assignee, Instant now) {
        TreeSet<Task> waiting = scheduled.get(assignee);
        while (waiting != null && !waiting.isEmpty() && !waiting.first().isScheduledAfter(now)) {
            Task due = waiting.pollFirst();
            claimable
                    .computeIfAbsent(assignee, key -> new TreeSet<>(CLAIM_ORDER))
                    .add(due);
        }
        if (waiting != null && waiting.isEmpty()) {
            scheduled.remove(assignee);
        }
        TreeSet<Task> candidates = claimable.get(assignee);
        while (candidates != null && !candidates.isEmpty() && candidates.first().isScheduledAfter(now)) {
            Task early = candidates.pollFirst();
            scheduled
                    .computeIfAbsent(assignee, key -> new TreeSet<>(SCHEDULE_ORDER))
                    .add(early);
        }
        if (candidates != null && candidates.isEmpty()) {
            claimable.remove(assignee);
        }
    }

    private static void removeFrom(Map<String, TreeSet<Task>> index, Task task) {
        if (task.assignee() == null) {
            return;
        }
        TreeSet<Task> set = index.get(task.assignee());
        if (set != null) {
            set.remove(task);
            if (set.isEmpty()) {
                index.remove(task.assignee());
            }
        }
    }

    private static <T> List<T> append(List<T> list, T element) {
        List<T> result = new ArrayList<>(list.size() + 1);
        result.addAll(list);
        result.add(element);
        return result;
    }
}
