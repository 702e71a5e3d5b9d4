package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Claims through {@link TaskStore#claimNext}: the figure the targets speak of. Tasks are added and made
 * pending again through the store's own API, in batches of one transaction each, or, for the JDBC store,
 * by a {@link JdbcStoreLoader} with plain batched SQL.
 */
final class StoreClaimTarget implements ClaimTarget {
    /** Tasks per session: in-memory inserts copy the session's order list, so sessions stay small. */
    private static final int TASKS_PER_SESSION = 100;

    private static final int RECYCLE_BATCH = 250;

    private final TaskStore store;
    private final JdbcStoreLoader loader;
    private final AtomicBoolean verified = new AtomicBoolean();
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong tasksCreated = new AtomicLong();

    /** @param store the store under test, stocked through its API; closed with this target */
    StoreClaimTarget(TaskStore store) {
        this(store, null);
    }

    /**
     * @param store the store under test; closed with this target
     * @param loader stocks the store's tables directly, or null to stock through the API
     */
    StoreClaimTarget(TaskStore store, JdbcStoreLoader loader) {
        this.store = store;
        this.loader = loader;
    }

    @Override
    public long claim(String assignee, Blackhole blackhole) {
        Optional<Task> claimed = store.claimNext(assignee, TaskQueue.DEFAULT_LEASE);
        if (claimed.isEmpty()) {
            return -1;
        }
        Task task = claimed.get();
        blackhole.consume(task);
        return task.id();
    }

    @Override
    public void recycle(long[] ids, int count) {
        if (loader != null) {
            loader.makePending(ids, count);
            return;
        }
        for (int start = 0; start < count; start += RECYCLE_BATCH) {
            int from = start;
            int to = Math.min(count, start + RECYCLE_BATCH);
            store.inTransaction(transaction -> {
                for (int index = from; index < to; index++) {
                    transaction.updateTask(
                            TaskUpdate.of(ids[index]).status(TaskStatus.PENDING).build());
                }
                return null;
            });
        }
    }

    @Override
    public void addTasks(String assignee, int count) {
        if (loader != null) {
            long[] ids = loader.addTasks(assignee, count);
            if (ids.length > 0 && verified.compareAndSet(false, true)) {
                JdbcStoreLoader.verify(store, ids[0], assignee);
            }
            return;
        }
        for (int remaining = count; remaining > 0; remaining -= TASKS_PER_SESSION) {
            int batch = Math.min(remaining, TASKS_PER_SESSION);
            String sessionId = "bench-session-" + sessions.incrementAndGet();
            long firstNumber = tasksCreated.getAndAdd(batch);
            store.inTransaction(transaction -> {
                for (int index = 0; index < batch; index++) {
                    addTask(transaction, sessionId, assignee, firstNumber + index);
                }
                return null;
            });
        }
    }

    private static void addTask(TaskTransaction transaction, String sessionId, String assignee, long number) {
        Task task = transaction.appendTask(NewTask.builder(sessionId, Fixtures.description(number))
                .priority((int) (number % 3))
                .assignee(assignee)
                .createdBy(Fixtures.CREATED_BY)
                .build());
        transaction.addComment(task.id(), Fixtures.COMMENT_AUTHOR, Fixtures.FIRST_COMMENT);
        transaction.addComment(task.id(), Fixtures.COMMENT_AUTHOR, Fixtures.SECOND_COMMENT);
        transaction.addLink(task.id(), Fixtures.FIRST_LINK, Fixtures.FIRST_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
        transaction.addLink(task.id(), Fixtures.SECOND_LINK, Fixtures.SECOND_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "taskagent " + store;
    }
}
