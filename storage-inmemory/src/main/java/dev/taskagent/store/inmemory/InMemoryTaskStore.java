package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.store.spi.TaskSnapshots;
import dev.taskagent.store.spi.TextLimits;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TaskStore} held in memory: for tests, demos and single-process applications. Passes the
 * conformance kit of {@code taskagent-testkit}.
 *
 * <p>Units of work are serialised by one lock, which makes them atomic and isolated at the cost of
 * parallelism (each one is short: model calls always happen outside a transaction). A failed unit of work
 * is undone from an undo log, so nobody ever sees half of one. Claims pick from a per-assignee ordered set
 * of claimable tasks, so a claim costs O(log n) whatever the queue's length.
 *
 * <p>Nothing is persisted: the tasks are gone when the JVM exits. Thread-safe.
 */
public final class InMemoryTaskStore implements TaskStore {

    /** Claim order: priority descending, then createdAt ascending, then id ascending (TS-7.1). */
    private static final Comparator<Task> CLAIM_ORDER = Comparator.comparingInt(Task::priority)
            .reversed()
            .thenComparing(Task::createdAt)
            .thenComparingLong(Task::id);

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
    /** assignee → its claimable (pending, non-archived) tasks in claim order. */
    private final Map<String, TreeSet<Task>> claimable = new HashMap<>();
    /** assignee → all its non-archived tasks, in claim order (for listQueue). */
    private final Map<String, TreeSet<Task>> queues = new HashMap<>();

    /** Creates an empty store on the system clock (UTC). */
    public InMemoryTaskStore() {
        this(Clock.systemUTC());
    }

    /**
     * Creates an empty store whose timestamps come from a clock.
     *
     * @param clock the source of {@code createdAt}, {@code updatedAt} and comment times
     */
    public InMemoryTaskStore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
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

    @Override
    public String toString() {
        return "InMemoryTaskStore";
    }

    private final class Transaction implements TaskTransaction {
        private final Deque<Runnable> undoLog = new ArrayDeque<>();
        private final Thread owner = Thread.currentThread();
        private boolean ended;

        void commit() {
            undoLog.clear();
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
            Instant now = clock.instant();
            long previousLastId = lastId;
            long id = ++lastId;
            undoLog.push(() -> lastId = previousLastId);
            Task task = TaskSnapshots.created(spec, id, position + 1, now);
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
            return write(TaskSnapshots.applied(update, current), current);
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
        public Optional<Task> claimNext(String assignee) {
            checkUsable();
            StoreArguments.name(assignee, "assignee");
            TreeSet<Task> candidates = claimable.get(assignee);
            if (candidates == null || candidates.isEmpty()) {
                return Optional.empty();
            }
            Task next = candidates.first();
            return Optional.of(write(TaskBuilder.from(next).status(TaskStatus.RUNNING), next));
        }

        private Task existing(long taskId) {
            StoreArguments.taskId(taskId);
            Task task = tasksById.get(taskId);
            if (task == null) {
                throw new TaskNotFoundException(taskId);
            }
            return task;
        }

        /** Stores a changed task with the next version and a fresh updatedAt (TS-4.2). */
        private Task write(TaskBuilder changed, Task current) {
            Task task = changed.version(current.version() + 1)
                    .updatedAt(clock.instant())
                    .build();
            put(task);
            return task;
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
        if (removed != null) {
            removeFrom(claimable, removed);
            removeFrom(queues, removed);
        }
        if (added != null && added.assignee() != null && !added.archived()) {
            queues.computeIfAbsent(added.assignee(), key -> new TreeSet<>(CLAIM_ORDER))
                    .add(added);
            if (added.status() == TaskStatus.PENDING) {
                claimable
                        .computeIfAbsent(added.assignee(), key -> new TreeSet<>(CLAIM_ORDER))
                        .add(added);
            }
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
