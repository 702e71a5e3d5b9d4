package dev.taskagent.testkit;

import dev.taskagent.event.EventFeed;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.AppendResult;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.spi.DeadLetterPaging;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.store.spi.InProcessEventFeed;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.store.spi.QueuePaging;
import dev.taskagent.store.spi.SearchCursors;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskBuilder;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A small, obviously correct {@link TaskStore} for the kit's own tests (testkit cannot depend on
 * storage-inmemory: that module depends on the testkit), with {@linkplain Defect defects} that can be
 * switched on one at a time to prove that the kit fails broken stores.
 *
 * <p>Design: one lock serialises units of work; writes go straight to concurrent maps of immutable
 * values and are undone from an undo log on rollback. Every lookup but the claim is a linear scan: slow,
 * but too simple to be wrong; the claim reads a skip list of pending tasks kept in step with every
 * write, so that the kit's claim races run in a blink.
 *
 * <p>Thread-safe.
 */
final class ReferenceTaskStore implements TaskStore {

    /** Deliberate bugs, each modelled on a mistake real stores make. */
    enum Defect {
        /** Claim reads the next task, lets other transactions in, then writes it: SELECT-then-UPDATE. */
        RACY_CLAIM,
        /** Claim that loses the race to another claimer gives up and returns empty instead of retrying. */
        CLAIM_GIVES_UP_ON_CONFLICT,
        /** Claims archived tasks too (the filter was forgotten). */
        CLAIMS_ARCHIVED,
        /** A unit of work that throws keeps its writes (auto-commit). */
        NO_ROLLBACK,
        /** Units of work that only read take no lock and see writes of open units of work. */
        DIRTY_READS,
        /** Progress append reads the list, lets others in, writes the list back: read-modify-write. */
        LOSES_CONCURRENT_APPENDS,
        /** Updates ignore the expected version. */
        IGNORES_EXPECTED_VERSION,
        /** Insert puts the task at its position without moving later tasks down. */
        INSERT_DOES_NOT_RENUMBER,
        /** Appends (progress, comments, links) keep the version and updatedAt as they were. */
        APPENDS_KEEP_VERSION,
        /** Linking a message adds it without taking it from its previous holder. */
        MESSAGES_NOT_MOVED,
        /** Session ids, assignees and message ids compare ignoring case, like a _ci collation. */
        CASE_INSENSITIVE_IDS,
        /** Descriptions and progress are trimmed before they are stored. */
        TRIMS_TEXT,
        /** Arguments are not checked: negative positions, blank ids, long texts go through. */
        LENIENT_ARGUMENTS,
        /** A transaction keeps working after its unit of work and on other threads. */
        LEAKY_TRANSACTION,
        /** A nested inTransaction joins the outer unit of work instead of being refused. */
        NESTED_JOINS_OUTER,
        /** A storage failure surfaces as an UncheckedIOException instead of a TaskStoreException. */
        RAW_STORAGE_FAILURES,
        /** A claim does not count its attempt: every claim is attempt 1. */
        ATTEMPT_NOT_COUNTED,
        /** Heartbeat, complete and release check only that the task exists, not whose claim it is. */
        UNFENCED_LEASE_WRITES,
        /** A task taken out of running by an update keeps its lease expiry. */
        LEASE_KEPT_OFF_RUNNING,
        /**
         * A claim returns the task's comments from a copy that a reclaim does not update, so the reaper's
         * comment is missing from the claimed task although a read shows it.
         */
        CLAIM_MISSES_REAPER_COMMENTS,
        /** A reclaim takes back every leased task, expired or not. */
        RECLAIMS_LIVE_LEASES,
        /** A reclaim reads the expired tasks, lets others in, then writes them without checking again. */
        RACY_RECLAIM,
        /** A claim steps over a task locked by another unit of work, whatever that unit of work does. */
        CLAIM_SKIPS_LOCKED_TASKS,
        /** Events go into the feed as they are recorded, not when their unit of work commits. */
        FEED_APPENDS_BEFORE_COMMIT,
        /** A change made without an event of its own leaves no trace in the feed. */
        FEED_MISSES_UNRECORDED_CHANGES,
        /** A claim's event is appended a second time when the caller records it as well. */
        CLAIM_EVENT_TWICE,
        /** The counts take archived tasks too (the filter was forgotten). */
        COUNTS_ARCHIVED_TASKS,
        /** A claim hands out pending tasks whose blockers have not succeeded. */
        CLAIMS_BLOCKED_TASKS,
        /** A dependency is added without checking for a cycle. */
        NO_CYCLE_CHECK,
        /** A task is completed with success over its unfinished subtasks. */
        CLOSES_OVER_OPEN_CHILDREN,
        /**
         * A search's cursor counts the matches already returned (an offset) instead of naming the last one, so
         * tasks created between pages push matches back onto a page already read.
         */
        SEARCH_PAGES_BY_OFFSET,
        /** A claim hands out pending tasks whose not-before time is still ahead. */
        CLAIMS_SCHEDULED_TASKS,
        /**
         * Breaks TS-2.7: a queue cursor carries how many tasks the pages before held, not the place of the last
         * one in claim order, so tasks created between pages push tasks back onto a page already read.
         */
        QUEUE_PAGES_BY_OFFSET,
        /**
         * Breaks TS-2.8: the dead-letter listing has no watermark, so a task that fails between the pages is listed
         * on a later page of a listing that began before it failed.
         */
        DEAD_LETTERS_WITHOUT_WATERMARK,
        /**
         * Breaks TS-5.7: an append with a request id looks the id up, lets other transactions in, then writes,
         * as a SELECT followed by an INSERT without a lock or a unique key does; two retries both write.
         */
        RACY_REQUEST_IDS,
        /** Breaks TS-5.6: a task's request ids are never forgotten, so what the store keeps grows without end. */
        REQUEST_IDS_NEVER_FORGOTTEN,
        /** Breaks TS-5.5: request ids are held per store, not per task, so one task's id refuses another's append. */
        REQUEST_IDS_PER_STORE
    }

    private static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

    private final Clock clock;
    private final Set<Defect> defects;
    private final ReentrantLock lock;
    private final ThreadLocal<Unit> currentUnit = new ThreadLocal<>();
    private final AtomicLong lastId = new AtomicLong();
    private final Map<Long, Task> tasks = new ConcurrentHashMap<>();
    private final Map<String, List<String>> planning = new ConcurrentHashMap<>();
    /** Idempotency key → the task created with it. */
    private final Map<String, Long> keys = new ConcurrentHashMap<>();
    /** Task id → the request ids of its last appends that wrote with one, oldest first (TS-5.5, TS-5.6). */
    private final Map<Long, List<String>> requestIds = new ConcurrentHashMap<>();
    /** The pending tasks that have an assignee, by assignee, then in claim order: the claim's index. */
    private final NavigableMap<ClaimKey, Task> pending = new ConcurrentSkipListMap<>();

    private volatile boolean storageBroken;

    private final InProcessEventFeed feed;

    ReferenceTaskStore(Clock clock, Set<Defect> defects) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.defects = defects.isEmpty() ? EnumSet.noneOf(Defect.class) : EnumSet.copyOf(defects);
        // A fair lock queues the thread that lets others in behind them, so the races these defects open
        // show up on every run; the correct store does not need the (slower) fairness.
        boolean racy = has(Defect.RACY_CLAIM)
                || has(Defect.CLAIM_GIVES_UP_ON_CONFLICT)
                || has(Defect.LOSES_CONCURRENT_APPENDS)
                || has(Defect.RACY_RECLAIM)
                || has(Defect.RACY_REQUEST_IDS);
        this.lock = new ReentrantLock(racy);
        this.feed = new InProcessEventFeed(clock, Duration.ofDays(7));
    }

    @Override
    public EventFeed eventFeed() {
        return feed;
    }

    /** A switch for the kit's TS-1.6 test: while on, every operation fails like a dead disk. */
    TaskStoreConformanceTest.StorageFault storageFault() {
        return new TaskStoreConformanceTest.StorageFault() {
            @Override
            public void inject() {
                storageBroken = true;
            }

            @Override
            public void clear() {
                storageBroken = false;
            }
        };
    }

    @Override
    public TaskCounts countTasks() {
        return inTransaction(transaction -> {
            Instant now = clock.instant();
            List<Task> counted = tasks.values().stream()
                    .filter(task -> has(Defect.COUNTS_ARCHIVED_TASKS) || !task.archived())
                    .toList();
            long running = counted.stream()
                    .filter(task -> task.status() == TaskStatus.RUNNING)
                    .count();
            long expired = counted.stream()
                    .filter(task -> task.status() == TaskStatus.RUNNING && task.isLeased())
                    .filter(task -> task.leaseExpiresAt().isBefore(now))
                    .count();
            long pending = counted.stream()
                    .filter(task -> task.status() == TaskStatus.PENDING)
                    .count();
            return new TaskCounts(pending, running, expired);
        });
    }

    @Override
    public <R> R inTransaction(TransactionWork<R> work) {
        Objects.requireNonNull(work, "work");
        Unit outer = currentUnit.get();
        if (outer != null) {
            if (has(Defect.NESTED_JOINS_OUTER)) {
                return work.execute(outer);
            }
            throw new IllegalStateException("inTransaction called inside a unit of work of this store");
        }
        checkStorage();
        Unit unit = new Unit();
        if (has(Defect.CLAIM_SKIPS_LOCKED_TASKS)) {
            unit.tryLockForWrites();
        } else if (!has(Defect.DIRTY_READS)) {
            unit.lockForWrites();
        }
        currentUnit.set(unit);
        try {
            R result = work.execute(unit);
            checkStorage();
            feed.append(unit.committedEvents());
            return result;
        } catch (Throwable e) {
            if (!has(Defect.NO_ROLLBACK)) {
                unit.rollback();
            }
            throw e;
        } finally {
            unit.ended = true;
            currentUnit.remove();
            unit.unlock();
        }
    }

    private boolean has(Defect defect) {
        return defects.contains(defect);
    }

    private void checkStorage() {
        if (storageBroken) {
            IOException cause = new IOException("disk unavailable");
            throw has(Defect.RAW_STORAGE_FAILURES)
                    ? new UncheckedIOException(cause)
                    : new TaskStoreException("The reference store's storage failed", cause);
        }
    }

    private String key(String id) {
        return has(Defect.CASE_INSENSITIVE_IDS) ? id.toLowerCase(Locale.ROOT).strip() : id;
    }

    /** Stores a task (or removes it, when {@code next} is null), keeping the claim index in step. */
    private void replace(long id, Task previous, Task next) {
        if (previous != null) {
            pending.remove(ClaimKey.of(previous, key(previous.assignee() == null ? "" : previous.assignee())));
        }
        if (next == null) {
            tasks.remove(id);
            return;
        }
        tasks.put(id, next);
        if (next.assignee() != null && next.status() == TaskStatus.PENDING) {
            pending.put(ClaimKey.of(next, key(next.assignee())), next);
        }
    }

    /** A pending task's place in the claim index. */
    private record ClaimKey(String assignee, int priority, Instant createdAt, long id) implements Comparable<ClaimKey> {
        private static final Comparator<ClaimKey> ORDER = Comparator.comparing(ClaimKey::assignee)
                .thenComparing(ClaimKey::priority, Comparator.reverseOrder())
                .thenComparing(ClaimKey::createdAt)
                .thenComparingLong(ClaimKey::id);

        static ClaimKey of(Task task, String assigneeKey) {
            return new ClaimKey(assigneeKey, task.priority(), task.createdAt(), task.id());
        }

        static ClaimKey first(String assigneeKey) {
            return new ClaimKey(assigneeKey, Integer.MAX_VALUE, Instant.MIN, Long.MIN_VALUE);
        }

        @Override
        public int compareTo(ClaimKey other) {
            return ORDER.compare(this, other);
        }
    }

    private boolean sameId(String left, String right) {
        return left != null && right != null && key(left).equals(key(right));
    }

    private String stored(String text) {
        return has(Defect.TRIMS_TEXT) ? text.strip() : text;
    }

    /** One unit of work: writes apply at once and are logged for undo. */
    private final class Unit implements TaskTransaction {
        private final Thread owner = Thread.currentThread();
        private final Deque<Runnable> undo = new ArrayDeque<>();
        private final List<FeedEncoding.Encoded> recorded = new ArrayList<>();
        private final Map<Long, Task> written = new LinkedHashMap<>();
        private final Set<Long> toldAlready = new HashSet<>();
        private final Set<Long> claimedHere = new HashSet<>();
        private volatile boolean ended;
        private boolean locked;
        private boolean contended;

        void lockForWrites() {
            if (!locked) {
                lock.lock();
                locked = true;
            }
        }

        /** Takes the lock if it is free; a unit that found it taken is contended until it takes it. */
        void tryLockForWrites() {
            locked = lock.tryLock();
            contended = !locked;
        }

        void unlock() {
            if (locked) {
                locked = false;
                lock.unlock();
            }
        }

        /** Lets the other transactions in, as a database does between two statements without locks. */
        void letOthersIn() {
            lock.unlock();
            Thread.yield();
            lock.lock();
        }

        /**
         * Lets others in as {@link #letOthersIn()} does, once another thread waits for the lock (for at most 50 ms):
         * on a slow machine the threads of a race may otherwise run one after the other, and the defect would go
         * unseen.
         */
        void letOthersInOnceOneWaits() {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            while (!lock.hasQueuedThreads() && System.nanoTime() < until) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            letOthersIn();
        }

        @Override
        public void recordEvent(TaskEvent event) {
            check();
            if (event instanceof TaskEvent.Claimed claimed
                    && claimedHere.contains(claimed.task().id())
                    && !has(Defect.CLAIM_EVENT_TWICE)) {
                return; // the claim recorded it
            }
            record(FeedEncoding.encode(event));
        }

        private void record(FeedEncoding.Encoded encoded) {
            if (has(Defect.FEED_APPENDS_BEFORE_COMMIT)) {
                feed.append(List.of(encoded));
                toldAlready.add(encoded.taskId());
            } else {
                recorded.add(encoded);
            }
        }

        List<FeedEncoding.Encoded> committedEvents() {
            List<FeedEncoding.Encoded> events = new ArrayList<>(recorded);
            if (!has(Defect.FEED_MISSES_UNRECORDED_CHANGES)) {
                Set<Long> told = new HashSet<>(toldAlready);
                recorded.forEach(event -> told.add(event.taskId()));
                written.values().stream()
                        .filter(task -> !told.contains(task.id()))
                        .forEach(task -> events.add(FeedEncoding.updated(task)));
            }
            return events;
        }

        void rollback() {
            while (!undo.isEmpty()) {
                undo.pop().run();
            }
        }

        private void check() {
            if (has(Defect.LEAKY_TRANSACTION)) {
                return;
            }
            if (ended) {
                throw new IllegalStateException("the unit of work of this transaction has ended");
            }
            if (Thread.currentThread() != owner) {
                throw new IllegalStateException("a transaction may only be used on the thread of its unit of work");
            }
        }

        private void write() {
            check();
            checkStorage();
            lockForWrites();
        }

        private void read() {
            check();
            checkStorage();
            if (contended) {
                lockForWrites();
            }
        }

        @Override
        public Optional<Task> findTask(long taskId) {
            read();
            taskId(taskId);
            return Optional.ofNullable(tasks.get(taskId));
        }

        @Override
        public List<Task> listTasks(String sessionId) {
            read();
            sessionId(sessionId);
            return tasks.values().stream()
                    .filter(task -> sameId(task.sessionId(), sessionId))
                    .sorted(Comparator.comparingInt(Task::order).thenComparingLong(Task::id))
                    .toList();
        }

        @Override
        public List<Task> listQueue(String assignee) {
            read();
            name(assignee, "assignee");
            return tasks.values().stream()
                    .filter(task -> sameId(task.assignee(), assignee) && !task.archived())
                    .sorted(CLAIM_ORDER)
                    .toList();
        }

        @Override
        public List<String> planningMessageIds(String sessionId) {
            read();
            sessionId(sessionId);
            return planning.getOrDefault(key(sessionId), List.of());
        }

        @Override
        public Task insertTask(NewTask spec, int afterOrder) {
            check();
            Objects.requireNonNull(spec, "task");
            int position =
                    has(Defect.LENIENT_ARGUMENTS) ? Math.max(0, afterOrder) : StoreArguments.afterOrder(afterOrder);
            write();
            String key = spec.idempotencyKey();
            if (key != null && keys.containsKey(key)) {
                throw new TaskExistsException(existing(keys.get(key)), key);
            }
            List<Task> session = listTasks(spec.sessionId());
            int index = Math.min(position, session.size());
            Instant now = clock.instant();
            if (spec.parentId() != 0) {
                existing(spec.parentId());
            }
            int open = 0;
            for (long blocker : spec.blockedBy()) {
                open += existing(blocker).status() == TaskStatus.SUCCESS ? 0 : 1;
            }
            Task task = TaskBuilder.newBuilder()
                    .id(lastId.incrementAndGet())
                    .sessionId(spec.sessionId())
                    .order(index + 1)
                    .description(stored(spec.description()))
                    .steps(spec.steps())
                    .priority(spec.priority())
                    .assignee(spec.assignee())
                    .createdBy(spec.createdBy())
                    .maxAttempts(spec.maxAttempts())
                    .parentId(spec.parentId())
                    .blockedBy(spec.blockedBy())
                    .openBlockers(open)
                    .tags(spec.tags())
                    .metadata(spec.metadata())
                    .notBefore(spec.notBefore())
                    .createdAt(now)
                    .updatedAt(now)
                    .version(1)
                    .build();
            put(task);
            written.put(task.id(), task);
            if (key != null) {
                keys.put(key, task.id());
                undo.push(() -> keys.remove(key));
            }
            if (!has(Defect.INSERT_DOES_NOT_RENUMBER)) {
                for (int later = index; later < session.size(); later++) {
                    put(TaskBuilder.from(session.get(later)).order(later + 2).build());
                }
            }
            return task;
        }

        @Override
        public Task updateTask(TaskUpdate update) {
            check();
            Objects.requireNonNull(update, "update");
            write();
            Task current = existing(update.taskId());
            if (!has(Defect.IGNORES_EXPECTED_VERSION)
                    && update.expectedVersion().isPresent()
                    && update.expectedVersion().getAsLong() != current.version()) {
                throw new StaleTaskException(
                        current.id(), update.expectedVersion().getAsLong(), current.version());
            }
            if (update.changes(TaskUpdate.Field.PARENT) && update.parentId() != 0) {
                existing(update.parentId());
                List<Long> chain = new ArrayList<>();
                for (long up = update.parentId(); up != 0; up = tasks.get(up).parentId()) {
                    chain.add(up);
                    if (up == current.id()) {
                        throw TaskGraphException.parentCycle(current.id(), update.parentId(), chain);
                    }
                }
            }
            if (update.changes(TaskUpdate.Field.STATUS)
                    && update.status() == TaskStatus.SUCCESS
                    && !update.evenWithOpenChildren()) {
                refuseOpenChildren(current.id());
            }
            Task saved = save(TaskSnapshots.applied(update, current), current);
            if (update.changes(TaskUpdate.Field.ARCHIVED) && update.archived()) {
                archiveBelow(saved.id());
            }
            return saved;
        }

        private void refuseOpenChildren(long taskId) {
            if (has(Defect.CLOSES_OVER_OPEN_CHILDREN)) {
                return;
            }
            List<Task> open = listChildren(taskId).stream()
                    .filter(child -> !child.archived() && !child.status().isTerminal())
                    .toList();
            if (!open.isEmpty()) {
                throw TaskGraphException.openChildren(taskId, open);
            }
        }

        private void archiveBelow(long parentId) {
            for (Task child : listChildren(parentId)) {
                if (!child.archived()) {
                    save(TaskBuilder.from(child).archived(true), child);
                }
                archiveBelow(child.id());
            }
        }

        @Override
        public Task addDependency(long dependantId, long blockerId) {
            check();
            write();
            Task dependant = existing(dependantId);
            Task blocker = existing(blockerId);
            if (dependantId == blockerId) {
                throw TaskGraphException.selfDependency(dependantId);
            }
            if (dependant.blockedBy().contains(blockerId)) {
                throw TaskGraphException.duplicateDependency(dependantId, blockerId);
            }
            if (!has(Defect.NO_CYCLE_CHECK)) {
                // Depth first from the dependant along "is waited for by" edges, looking for the blocker.
                Deque<List<Long>> paths = new ArrayDeque<>();
                paths.push(List.of(dependantId));
                Set<Long> seen = new HashSet<>();
                while (!paths.isEmpty()) {
                    List<Long> path = paths.pop();
                    long last = path.get(path.size() - 1);
                    if (last == blockerId) {
                        throw TaskGraphException.dependencyCycle(dependantId, blockerId, path);
                    }
                    if (seen.add(last)) {
                        for (Task next : listDependants(last)) {
                            paths.push(plus(path, next.id()));
                        }
                    }
                }
            }
            Task added = save(
                    TaskBuilder.from(dependant)
                            .blockedBy(plus(dependant.blockedBy(), blockerId))
                            .openBlockers(dependant.openBlockers() + (blocker.status() == TaskStatus.SUCCESS ? 0 : 1)),
                    dependant);
            record(FeedEncoding.encode(new TaskEvent.DependencyAdded(added, blockerId)));
            return added;
        }

        @Override
        public Task removeDependency(long dependantId, long blockerId) {
            check();
            write();
            Task dependant = existing(dependantId);
            taskId(blockerId);
            if (!dependant.blockedBy().contains(blockerId)) {
                existing(blockerId);
                throw TaskGraphException.noSuchDependency(dependantId, blockerId);
            }
            boolean open = tasks.get(blockerId).status() != TaskStatus.SUCCESS;
            Task removed = save(
                    TaskBuilder.from(dependant)
                            .blockedBy(dependant.blockedBy().stream()
                                    .filter(id -> id != blockerId)
                                    .toList())
                            .openBlockers(dependant.openBlockers() - (open ? 1 : 0)),
                    dependant);
            record(FeedEncoding.encode(new TaskEvent.DependencyRemoved(removed, blockerId)));
            if (open && removed.openBlockers() == 0) {
                record(FeedEncoding.encode(new TaskEvent.Unblocked(removed)));
            }
            return removed;
        }

        @Override
        public List<Task> listDependants(long taskId) {
            check();
            taskId(taskId);
            read();
            return tasks.values().stream()
                    .filter(task -> task.blockedBy().contains(taskId))
                    .sorted(Comparator.comparingLong(Task::id))
                    .toList();
        }

        @Override
        public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
            check();
            read();
            long highestId = has(Defect.DEAD_LETTERS_WITHOUT_WATERMARK) ? Long.MAX_VALUE : lastId.get();
            if (has(Defect.DEAD_LETTERS_WITHOUT_WATERMARK) && cursor != null) {
                // The cursor's watermark is ignored as well: every later failure lies below it.
                long lastListed = DeadLetterPaging.after(defaultMaxAttempts, cursor)
                        .orElseThrow()
                        .lastId();
                cursor = DeadLetterPaging.cursor(defaultMaxAttempts, Long.MAX_VALUE, lastListed);
            }
            return DeadLetterPaging.page(defaultMaxAttempts, limit, cursor, highestId, tasks.values());
        }

        @Override
        public TaskPage listQueuePage(QueueQuery query) {
            check();
            Objects.requireNonNull(query, "query");
            if (!has(Defect.QUEUE_PAGES_BY_OFFSET)) {
                return QueuePaging.page(query, lastId.get(), listQueue(query.assignee()));
            }
            int offset = SearchCursors.decode(query)
                    .map(position -> (int) position.lastId() - 1)
                    .orElse(0);
            List<Task> kept =
                    listQueue(query.assignee()).stream().filter(query::keeps).toList();
            List<Task> page =
                    kept.subList(Math.min(offset, kept.size()), Math.min(offset + query.limit(), kept.size()));
            long remaining = Math.max(kept.size() - offset - page.size(), 0);
            String cursor = remaining > 0
                    ? SearchCursors.encode(
                            query, new SearchCursors.QueuePosition(0, 0, Instant.EPOCH, offset + page.size() + 1))
                    : null;
            return new TaskPage(page, remaining, cursor);
        }

        @Override
        public TaskPage searchTasks(SearchQuery query) {
            check();
            Objects.requireNonNull(query, "query");
            read();
            if (!has(Defect.SEARCH_PAGES_BY_OFFSET)) {
                return TaskSearch.page(query, lastId.get(), tasks.values());
            }
            int offset = SearchCursors.decode(query)
                    .map(position -> (int) position.rank())
                    .orElse(0);
            List<Task> matches = tasks.values().stream()
                    .filter(task -> TaskSearch.matches(task, query))
                    .sorted(Comparator.comparingLong(Task::id).reversed())
                    .toList();
            List<Task> page =
                    matches.subList(Math.min(offset, matches.size()), Math.min(offset + query.limit(), matches.size()));
            long remaining = matches.size() - offset - page.size();
            String cursor = remaining > 0
                    ? SearchCursors.encode(query, new SearchCursors.Position(0, offset + page.size(), 1))
                    : null;
            return new TaskPage(page, Math.max(remaining, 0), remaining > 0 ? cursor : null);
        }

        @Override
        public List<Task> listChildren(long parentId) {
            check();
            taskId(parentId);
            read();
            return tasks.values().stream()
                    .filter(task -> task.parentId() == parentId)
                    .sorted(Comparator.comparingLong(Task::id))
                    .toList();
        }

        @Override
        public Task appendProgress(long taskId, String progress) {
            check();
            text(progress, "progress");
            write();
            Task current = existing(taskId);
            if (has(Defect.LOSES_CONCURRENT_APPENDS)) {
                letOthersIn();
            }
            return saveAppend(
                    TaskBuilder.from(current).progresses(plus(current.progresses(), stored(progress))), current);
        }

        @Override
        public Task addComment(long taskId, String author, String text) {
            check();
            name(author, "author");
            text(text, "text");
            write();
            Task current = existing(taskId);
            Comment comment = new Comment(author, text, clock.instant());
            return saveAppend(TaskBuilder.from(current).comments(plus(current.comments(), comment)), current);
        }

        @Override
        public Task addLink(long taskId, String url, String description, String author) {
            check();
            text(url, "url");
            Objects.requireNonNull(description, "description");
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                TextLimits.check(description, "description");
            }
            name(author, "author");
            write();
            Task current = existing(taskId);
            Link link = new Link(url, description, author, clock.instant());
            return saveAppend(TaskBuilder.from(current).links(plus(current.links(), link)), current);
        }

        @Override
        public AppendResult appendProgress(long taskId, String progress, String requestId) {
            check();
            text(progress, "progress");
            name(requestId, "requestId");
            return once(taskId, requestId, () -> appendProgress(taskId, progress));
        }

        @Override
        public AppendResult addComment(long taskId, String author, String text, String requestId) {
            check();
            name(author, "author");
            text(text, "text");
            name(requestId, "requestId");
            return once(taskId, requestId, () -> addComment(taskId, author, text));
        }

        @Override
        public AppendResult addLink(long taskId, String url, String description, String author, String requestId) {
            check();
            text(url, "url");
            Objects.requireNonNull(description, "description");
            name(author, "author");
            name(requestId, "requestId");
            return once(taskId, requestId, () -> addLink(taskId, url, description, author));
        }

        /** Remembers the request id, forgetting the oldest beyond the window, then appends; or replays. */
        private AppendResult once(long taskId, String requestId, Supplier<Task> append) {
            write();
            Task current = existing(taskId);
            long holder = has(Defect.REQUEST_IDS_PER_STORE) ? 0 : taskId;
            List<String> held = requestIds.getOrDefault(holder, List.of());
            if (held.contains(requestId)) {
                return AppendResult.replayOf(current);
            }
            if (has(Defect.RACY_REQUEST_IDS)) {
                letOthersInOnceOneWaits();
                held = requestIds.getOrDefault(holder, List.of());
            }
            List<String> next = plus(held, requestId);
            if (next.size() > REQUEST_ID_WINDOW && !has(Defect.REQUEST_IDS_NEVER_FORGOTTEN)) {
                next.remove(0);
            }
            List<String> previous = requestIds.put(holder, next);
            undo.push(() -> {
                if (previous == null) {
                    requestIds.remove(holder);
                } else {
                    requestIds.put(holder, previous);
                }
            });
            return AppendResult.written(append.get());
        }

        @Override
        public Task linkMessages(long taskId, List<String> messageIds) {
            check();
            List<String> ids = messageIds(messageIds);
            write();
            Task current = existing(taskId);
            LinkedHashSet<String> linked = new LinkedHashSet<>(current.messageIds());
            for (String messageId : ids) {
                if (current.messageIds().stream().noneMatch(held -> sameId(held, messageId)) && linked.add(messageId)) {
                    detach(current.sessionId(), messageId, taskId);
                }
            }
            Task fresh = tasks.get(taskId);
            return save(TaskBuilder.from(fresh).messageIds(List.copyOf(linked)), fresh);
        }

        @Override
        public void linkMessagesToPlanningSection(String sessionId, List<String> messageIds) {
            check();
            sessionId(sessionId);
            List<String> ids = messageIds(messageIds);
            write();
            List<String> section = new ArrayList<>(planning.getOrDefault(key(sessionId), List.of()));
            for (String messageId : ids) {
                if (section.stream().noneMatch(held -> sameId(held, messageId))) {
                    detach(sessionId, messageId, 0);
                    section.add(messageId);
                }
            }
            putPlanning(key(sessionId), List.copyOf(section));
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            check();
            name(assignee, "assignee");
            lease(lease);
            if (contended && !locked) {
                return Optional.empty(); // like SKIP LOCKED over a row that a comment's transaction holds
            }
            write();
            Optional<Task> candidate = pending.tailMap(ClaimKey.first(key(assignee))).entrySet().stream()
                    .takeWhile(entry -> entry.getKey().assignee().equals(key(assignee)))
                    .map(Map.Entry::getValue)
                    .filter(task -> !task.archived() || has(Defect.CLAIMS_ARCHIVED))
                    .filter(task -> task.openBlockers() == 0 || has(Defect.CLAIMS_BLOCKED_TASKS))
                    .filter(task -> !task.isScheduledAfter(clock.instant()) || has(Defect.CLAIMS_SCHEDULED_TASKS))
                    .findFirst();
            if (candidate.isEmpty()) {
                return Optional.empty();
            }
            if (has(Defect.RACY_CLAIM) || has(Defect.CLAIM_GIVES_UP_ON_CONFLICT)) {
                letOthersIn();
            }
            Task current = tasks.get(candidate.get().id());
            if (has(Defect.CLAIM_GIVES_UP_ON_CONFLICT) && current.status() != TaskStatus.PENDING) {
                return Optional.empty();
            }
            Task claimed = save(
                    TaskBuilder.from(current)
                            .status(TaskStatus.RUNNING)
                            .attempt(has(Defect.ATTEMPT_NOT_COUNTED) ? 1 : current.attempt() + 1)
                            .leaseExpiresAt(clock.instant().plus(lease))
                            .notBefore(null),
                    current);
            claimedHere.add(claimed.id());
            record(FeedEncoding.encode(new TaskEvent.Claimed(claimed, assignee)));
            if (has(Defect.CLAIM_MISSES_REAPER_COMMENTS)) {
                return Optional.of(TaskBuilder.from(claimed)
                        .comments(claimed.comments().stream()
                                .filter(comment -> !comment.author().equals(Leases.REAPER))
                                .toList())
                        .build());
            }
            return Optional.of(claimed);
        }

        @Override
        public Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
            check();
            lease(lease);
            write();
            Task current = claimed(taskId, agent, attempt);
            return save(TaskBuilder.from(current).leaseExpiresAt(clock.instant().plus(lease)), current);
        }

        @Override
        public Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
            check();
            Objects.requireNonNull(outcome, "outcome");
            if (!outcome.isTerminal()) {
                throw new IllegalArgumentException("outcome must be success or failed, was " + outcome);
            }
            write();
            Task current = claimed(taskId, agent, attempt);
            if (outcome == TaskStatus.SUCCESS) {
                refuseOpenChildren(taskId);
            }
            return save(TaskBuilder.from(current).status(outcome), current);
        }

        @Override
        public Task complete(long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
            if (!evenWithOpenChildren) {
                return complete(taskId, agent, attempt, outcome);
            }
            check();
            write();
            Task current = claimed(taskId, agent, attempt);
            return save(TaskBuilder.from(current).status(outcome), current);
        }

        @Override
        public Task release(long taskId, String agent, int attempt) {
            check();
            write();
            Task current = claimed(taskId, agent, attempt);
            return save(TaskBuilder.from(current).status(TaskStatus.PENDING), current);
        }

        @Override
        public Task delay(long taskId, Duration delay) {
            check();
            StoreArguments.taskId(taskId);
            Leases.delay(delay, "delay");
            write();
            Task current = existing(taskId);
            if (current.status().isTerminal()) {
                throw new TaskCompleteException(taskId, current.status(), "delayed");
            }
            return save(
                    TaskBuilder.from(current)
                            .notBefore(delay.isZero() ? null : clock.instant().plus(delay)),
                    current);
        }

        @Override
        public Optional<Duration> untilNextScheduled(String assignee) {
            check();
            name(assignee, "assignee");
            Instant now = clock.instant();
            return pending.tailMap(ClaimKey.first(key(assignee))).entrySet().stream()
                    .takeWhile(entry -> entry.getKey().assignee().equals(key(assignee)))
                    .map(Map.Entry::getValue)
                    .filter(task -> !task.archived() && task.openBlockers() == 0 && task.isScheduledAfter(now))
                    .map(task -> Duration.between(now, task.notBefore()))
                    .min(Comparator.naturalOrder());
        }

        @Override
        public List<ReclaimedTask> reclaimExpired(int defaultMaxAttempts, int limit) {
            check();
            Leases.maxAttempts(defaultMaxAttempts);
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
            write();
            Instant now = clock.instant();
            List<Task> expired = tasks.values().stream()
                    .filter(Task::isLeased)
                    .filter(task -> has(Defect.RECLAIMS_LIVE_LEASES)
                            || task.leaseExpiresAt().isBefore(now))
                    .sorted(Comparator.comparing(Task::leaseExpiresAt).thenComparingLong(Task::id))
                    .limit(limit)
                    .toList();
            if (has(Defect.RACY_RECLAIM)) {
                letOthersIn();
            }
            List<ReclaimedTask> reclaimed = new ArrayList<>();
            for (Task seen : expired) {
                Task current = has(Defect.RACY_RECLAIM) ? seen : tasks.get(seen.id());
                int maxAttempts = Leases.maxAttemptsOf(current, defaultMaxAttempts);
                ReclaimedTask.Outcome outcome = Leases.outcome(current.attempt(), maxAttempts);
                Comment comment = new Comment(
                        Leases.REAPER,
                        Leases.reclaimComment(current.attempt(), maxAttempts, current.leaseExpiresAt()),
                        now);
                Task after = save(
                        TaskBuilder.from(current)
                                .status(
                                        outcome == ReclaimedTask.Outcome.REQUEUED
                                                ? TaskStatus.PENDING
                                                : TaskStatus.FAILED)
                                .comments(plus(current.comments(), comment)),
                        tasks.get(seen.id()));
                reclaimed.add(new ReclaimedTask(after, current.attempt(), outcome));
            }
            return reclaimed;
        }

        private Task claimed(long taskId, String agent, int attempt) {
            name(agent, "agent");
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                Leases.attempt(attempt);
            }
            Task current = existing(taskId);
            if (!has(Defect.UNFENCED_LEASE_WRITES)
                    && (current.status() != TaskStatus.RUNNING
                            || !sameId(current.assignee(), agent)
                            || current.attempt() != attempt)) {
                throw new ClaimLostException(current, agent, attempt);
            }
            return current;
        }

        private void lease(Duration lease) {
            Objects.requireNonNull(lease, "lease");
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                Leases.lease(lease);
            }
        }

        private void detach(String sessionId, String messageId, long newHolder) {
            if (has(Defect.MESSAGES_NOT_MOVED)) {
                return;
            }
            List<String> section = planning.get(key(sessionId));
            if (newHolder != 0 && section != null && section.stream().anyMatch(held -> sameId(held, messageId))) {
                putPlanning(
                        key(sessionId),
                        section.stream()
                                .filter(held -> !sameId(held, messageId))
                                .toList());
            }
            for (Task holder : List.copyOf(tasks.values())) {
                if (holder.id() != newHolder
                        && sameId(holder.sessionId(), sessionId)
                        && holder.messageIds().stream().anyMatch(held -> sameId(held, messageId))) {
                    List<String> remaining = holder.messageIds().stream()
                            .filter(held -> !sameId(held, messageId))
                            .toList();
                    save(TaskBuilder.from(holder).messageIds(remaining), holder);
                }
            }
        }

        private Task existing(long taskId) {
            taskId(taskId);
            Task task = tasks.get(taskId);
            if (task == null) {
                throw new TaskNotFoundException(taskId);
            }
            return task;
        }

        private Task save(TaskBuilder changed, Task current) {
            Task task = changed.version(current.version() + 1)
                    .updatedAt(clock.instant())
                    .build();
            if (!has(Defect.LEASE_KEPT_OFF_RUNNING)
                    && task.status() != TaskStatus.RUNNING
                    && task.leaseExpiresAt() != null) {
                task = TaskBuilder.from(task).leaseExpiresAt(null).build();
            }
            put(task);
            written.put(task.id(), task);
            boolean wasSuccess = current.status() == TaskStatus.SUCCESS;
            boolean isSuccess = task.status() == TaskStatus.SUCCESS;
            if (wasSuccess != isSuccess) {
                for (Task dependant : listDependants(task.id())) {
                    Task counted = TaskBuilder.from(dependant)
                            .openBlockers(dependant.openBlockers() + (isSuccess ? -1 : 1))
                            .build();
                    put(counted);
                    if (written.containsKey(counted.id())) {
                        written.put(counted.id(), counted);
                    }
                    if (counted.openBlockers() == 0) {
                        record(FeedEncoding.encode(new TaskEvent.Unblocked(counted)));
                    }
                }
            }
            return task;
        }

        private Task saveAppend(TaskBuilder changed, Task current) {
            if (has(Defect.APPENDS_KEEP_VERSION)) {
                Task task = changed.build();
                put(task);
                written.put(task.id(), task);
                return task;
            }
            return save(changed, current);
        }

        private void put(Task task) {
            Task previous = tasks.get(task.id());
            replace(task.id(), previous, task);
            undo.push(() -> replace(task.id(), task, previous));
        }

        private void putPlanning(String sessionKey, List<String> section) {
            List<String> previous = planning.put(sessionKey, section);
            undo.push(() -> {
                if (previous == null) {
                    planning.remove(sessionKey);
                } else {
                    planning.put(sessionKey, previous);
                }
            });
        }

        // The argument checks of TS-8.1, or, with LENIENT_ARGUMENTS, only what Java enforces anyway.

        private void taskId(long taskId) {
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                StoreArguments.taskId(taskId);
            }
        }

        private void sessionId(String sessionId) {
            Objects.requireNonNull(sessionId, "sessionId");
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                StoreArguments.sessionId(sessionId);
            }
        }

        private void name(String value, String what) {
            Objects.requireNonNull(value, what);
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                StoreArguments.name(value, what);
            }
        }

        private void text(String value, String what) {
            Objects.requireNonNull(value, what);
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                StoreArguments.text(value, what);
            }
        }

        private List<String> messageIds(List<String> ids) {
            List<String> copy = List.copyOf(ids);
            if (!has(Defect.LENIENT_ARGUMENTS)) {
                StoreArguments.messageIds(copy);
            }
            return copy;
        }
    }

    private static <T> List<T> plus(List<T> list, T element) {
        List<T> result = new ArrayList<>(list);
        result.add(element);
        return result;
    }
}
