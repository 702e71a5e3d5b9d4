package dev.taskagent.testkit;

import dev.taskagent.store.AppendResult;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link TaskTransaction} that passes every call to another one: extend it and override only the
 * operations a store decorator changes (to inject a fault, count, or trace). Four operations are deliberately
 * not forwarded, so that a decorator that intercepts the operation their defaults go through sees them too:
 * {@link #appendTask(NewTask)} (through {@link #insertTask(NewTask, int)}), {@link #claimUpTo(String, Duration,
 * int)} (through {@link #claimNext(String, Duration)}), {@link #completeHeld(String, java.util.Map, TaskStatus)}
 * (through {@code complete}) and the reclaim with a backoff (through {@link
 * #reclaimExpired(int, int)} and {@code delay}). The price is the delegate's batched statements: override
 * them to forward when a decorator needs a store's own batches.
 *
 * <p>As thread-safe as the transaction it wraps (that is, used on one thread only).
 */
public abstract class ForwardingTaskTransaction implements TaskTransaction {
    private final TaskTransaction delegate;

    /**
     * Wraps a transaction.
     *
     * @param delegate the transaction every call goes to
     */
    protected ForwardingTaskTransaction(TaskTransaction delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** @return the wrapped transaction */
    protected final TaskTransaction delegate() {
        return delegate;
    }

    @Override
    public Optional<Task> findTask(long taskId) {
        return delegate.findTask(taskId);
    }

    @Override
    public List<Task> listTasks(String sessionId) {
        return delegate.listTasks(sessionId);
    }

    @Override
    public Optional<Task> findTaskByOrder(String sessionId, int order) {
        return delegate.findTaskByOrder(sessionId, order);
    }

    @Override
    public List<Task> listQueue(String assignee) {
        return delegate.listQueue(assignee);
    }

    @Override
    public TaskPage listQueuePage(QueueQuery query) {
        return delegate.listQueuePage(query);
    }

    @Override
    public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
        return delegate.listDeadLetters(defaultMaxAttempts, limit, cursor);
    }

    @Override
    public List<String> listSessionIds() {
        return delegate.listSessionIds();
    }

    @Override
    public List<String> listAssignees() {
        return delegate.listAssignees();
    }

    @Override
    public List<String> planningMessageIds(String sessionId) {
        return delegate.planningMessageIds(sessionId);
    }

    @Override
    public Task insertTask(NewTask task, int afterOrder) {
        return delegate.insertTask(task, afterOrder);
    }

    @Override
    public Task updateTask(TaskUpdate update) {
        return delegate.updateTask(update);
    }

    @Override
    public Task appendProgress(long taskId, String progress) {
        return delegate.appendProgress(taskId, progress);
    }

    @Override
    public Task addComment(long taskId, String author, String text) {
        return delegate.addComment(taskId, author, text);
    }

    @Override
    public Task addLink(long taskId, String url, String description, String author) {
        return delegate.addLink(taskId, url, description, author);
    }

    @Override
    public AppendResult appendProgress(long taskId, String progress, String requestId) {
        return delegate.appendProgress(taskId, progress, requestId);
    }

    @Override
    public AppendResult addComment(long taskId, String author, String text, String requestId) {
        return delegate.addComment(taskId, author, text, requestId);
    }

    @Override
    public AppendResult addLink(long taskId, String url, String description, String author, String requestId) {
        return delegate.addLink(taskId, url, description, author, requestId);
    }

    @Override
    public Task linkMessages(long taskId, List<String> messageIds) {
        return delegate.linkMessages(taskId, messageIds);
    }

    @Override
    public void linkMessagesToPlanningSection(String sessionId, List<String> messageIds) {
        delegate.linkMessagesToPlanningSection(sessionId, messageIds);
    }

    @Override
    public Optional<Task> claimNext(String assignee, Duration lease) {
        return delegate.claimNext(assignee, lease);
    }

    @Override
    public Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
        return delegate.heartbeat(taskId, agent, attempt, lease);
    }

    @Override
    public Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
        return delegate.complete(taskId, agent, attempt, outcome);
    }

    @Override
    public Task release(long taskId, String agent, int attempt) {
        return delegate.release(taskId, agent, attempt);
    }

    @Override
    public List<ReclaimedTask> reclaimExpired(int defaultMaxAttempts, int limit) {
        return delegate.reclaimExpired(defaultMaxAttempts, limit);
    }

    @Override
    public Task delay(long taskId, Duration delay) {
        return delegate.delay(taskId, delay);
    }

    @Override
    public Optional<Duration> untilNextScheduled(String assignee) {
        return delegate.untilNextScheduled(assignee);
    }

    @Override
    public Task complete(long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
        return delegate.complete(taskId, agent, attempt, outcome, evenWithOpenChildren);
    }

    @Override
    public Task addDependency(long dependantId, long blockerId) {
        return delegate.addDependency(dependantId, blockerId);
    }

    @Override
    public Task removeDependency(long dependantId, long blockerId) {
        return delegate.removeDependency(dependantId, blockerId);
    }

    @Override
    public List<Task> listDependants(long taskId) {
        return delegate.listDependants(taskId);
    }

    @Override
    public TaskPage searchTasks(SearchQuery query) {
        return delegate.searchTasks(query);
    }

    @Override
    public List<Task> listChildren(long parentId) {
        return delegate.listChildren(parentId);
    }

    @Override
    public void recordEvent(dev.taskagent.event.TaskEvent event) {
        delegate.recordEvent(event);
    }
}
