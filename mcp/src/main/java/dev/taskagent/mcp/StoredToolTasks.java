package dev.taskagent.mcp;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskCompleteException;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskRefusedException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool calls that the server runs as MCP tasks (the Tasks extension of revision 2026-07-28), kept in
 * the task store so that they outlive the server process and are seen by every server on the same store.
 *
 * <p><b>Why taskagent tasks.</b> An MCP task is a unit of work with a status, a creation time, a last
 * update and, at the end, a result or an error: a taskagent {@link Task} is exactly that, and the store
 * already keeps tasks durably, orders their updates with versions and fences their claims with leases. So
 * each MCP task is one taskagent task, and no table of its own (no schema change, and every store — H2,
 * PostgreSQL, MariaDB, the in-memory one — serves it):
 *
 * <ul>
 *   <li>in the session {@value #SESSION_ID}, tagged {@value #TAG}, its description the tool's name and its
 *       arguments as JSON, its metadata {@code {"tool": name}}; the MCP task id is the task's id, in
 *       decimal;
 *   <li>created and claimed in one transaction by an agent of its own ({@code mcp-task-<uuid>}), with a
 *       lease of {@link #LEASE} that the running server renews every {@link #HEARTBEAT} (the leases of all
 *       its tasks in one transaction), and at most one attempt: a task is never run twice;
 *   <li>ended in one transaction with its result: a comment by {@value #RESULT_AUTHOR} holding the MCP
 *       {@code CallToolResult} as JSON, and the status success (or failed when the tool answered {@code
 *       isError}; MCP calls both {@code completed}); or a comment by {@value #ERROR_AUTHOR} holding a
 *       JSON-RPC error, and the status failed (MCP {@code failed});
 *   <li>cancelled with {@link TaskQueue#cancel(long, String, String)}: the status cancelled, seen by every
 *       process. The process that runs the call learns it at its next lease renewal (the store refuses
 *       the renewal), or at once when the cancel reached it, and interrupts the call: a Taskfile run stops
 *       its process group.
 * </ul>
 *
 * <p><b>A server that died.</b> A task whose server was killed stays running in the store until its
 * lease runs out, on the store's clock (a database's, for a JDBC store; never this JVM's, which may be
 * ahead of it). Then a reclaim ({@link TaskQueue#reclaimExpired()}, which a {@link
 * dev.taskagent.queue.LeaseReaper} runs: the server's own with a reclaim interval, or the application's)
 * fails it, its single attempt spent, with the reaper's comment; the task then reads as failed, with an
 * error that says the server stopped and the outcome is unknown, and is never run again (a Taskfile command
 * may not be safe to repeat). Without any reaper on the store it reads as working. A server that is closed normally interrupts its calls and ends their tasks as failed at once.
 *
 * <p>Thread-safe.
 */
final class StoredToolTasks implements AutoCloseable {
    /** The session that holds the MCP tasks. */
    static final String SESSION_ID = "mcp-tasks";

    /** The tag every MCP task carries. */
    static final String TAG = "mcp-task";

    /** The author of the comment that holds a task's result. */
    static final String RESULT_AUTHOR = "mcp-task-result";

    /** The author of the comment that holds a task's protocol-level error. */
    static final String ERROR_AUTHOR = "mcp-task-error";

    /** Who cancels a task on a client's {@code tasks/cancel}. */
    static final String CANCELLER = "mcp-client";

    /** How long a running task's claim holds without renewal; after that, its server is taken as gone. */
    static final Duration LEASE = Duration.ofSeconds(10);

    /** How often the running server renews its tasks' leases, and learns of cancels by other servers. */
    static final Duration HEARTBEAT = Duration.ofSeconds(2);

    /** How long {@link #close()} waits for interrupted calls to end. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    /** How often a client is asked to poll, in milliseconds. */
    static final long POLL_INTERVAL_MS = 1_000;

    /** The error of a task that a lease reaper failed: its server stopped renewing the lease. */
    static final String REAPED = "The server that ran this task stopped before it finished (its lease ran out"
            + " and the store's lease reaper failed it); the outcome is unknown. Run it again if it is still needed.";

    /** JSON-RPC's internal error code, the code of a task's protocol-level error. */
    static final int INTERNAL_ERROR = -32603;

    private static final Logger LOG = LoggerFactory.getLogger(StoredToolTasks.class);

    private final TaskStore store;
    private final TaskQueue queue;
    private final McpTools tools;
    private final McpJsonMapper jsonMapper;
    private final Map<Long, Running> running = new ConcurrentHashMap<>();
    /** When the last reclaim of a read began, in {@link System#nanoTime()}; pacing only, never a lease's time. */
    private final AtomicBoolean closed = new AtomicBoolean();

    private final AtomicLong threadNumbers = new AtomicLong();
    private final ExecutorService workers;
    private final ScheduledExecutorService heartbeats;

    /**
     * A call this process runs: its claim, and the thread that runs it while it is in the tool. A stop
     * interrupts that thread only while it is in the tool: an interrupt that lands while the thread writes
     * to the store can break the store's connection, or an H2 file for every thread.
     */
    private static final class Running {
        final String agent;
        final int attempt;
        private Thread inTool;
        private boolean stopped;

        Running(String agent, int attempt) {
            this.agent = agent;
            this.attempt = attempt;
        }

        /** @return false when the call was stopped before it entered the tool */
        synchronized boolean enterTool(Thread thread) {
            if (stopped) {
                return false;
            }
            inTool = thread;
            return true;
        }

        /** Leaves the tool; clears an interrupt that a stop left, so that the outcome can be written. */
        synchronized void leaveTool() {
            inTool = null;
            Thread.interrupted();
        }

        synchronized boolean isStopped() {
            return stopped;
        }

        synchronized void stop() {
            stopped = true;
            if (inTool != null) {
                inTool.interrupt();
            }
        }
    }

    /**
     * What {@code tasks/get} reports of a task.
     *
     * @param task the taskagent task
     * @param status the MCP status: {@code working}, {@code completed}, {@code failed} or {@code cancelled}
     * @param statusMessage a sentence for a person, or null
     * @param result the {@code CallToolResult} of a completed task, or null
     * @param error the JSON-RPC error of a failed task, or null
     */
    record View(Task task, String status, String statusMessage, Map<String, Object> result, Map<String, Object> error) {
        /** @return the MCP task id */
        String taskId() {
            return Long.toString(task.id());
        }
    }

    /**
     * Keeps the MCP tasks in a queue's store.
     *
     * @param serverQueue the server's queue, whose store keeps the tasks
     * @param tools the tools the tasks call
     * @param jsonMapper the JSON of results and errors
     */
    StoredToolTasks(TaskQueue serverQueue, McpTools tools, McpJsonMapper jsonMapper) {
        this.store = serverQueue.store();
        this.queue = TaskQueue.builder(store).sessionId(SESSION_ID).build();
        this.tools = tools;
        this.jsonMapper = jsonMapper;
        this.workers = Executors.newCachedThreadPool(runnable -> daemon(runnable, "taskagent-mcp-task-"));
        this.heartbeats =
                Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "taskagent-mcp-task-lease-"));
        heartbeats.scheduleWithFixedDelay(
                this::renewLeases, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Thread daemon(Runnable runnable, String prefix) {
        Thread thread = new Thread(runnable, prefix + threadNumbers.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Records a call as a running task and starts it; returns once the task is in the store, so that a
     * {@code tasks/get} on any server finds it.
     *
     * @param toolName the tool
     * @param arguments the call's arguments, or null for none
     * @return the task, running
     * @throws IllegalArgumentException if the arguments are too large to keep in a task's description
     * @throws IllegalStateException if the server is closed
     */
    Task start(String toolName, Map<String, Object> arguments) {
        if (closed.get()) {
            throw new IllegalStateException("The MCP server is stopping; it starts no more tasks");
        }
        String agent = "mcp-task-" + UUID.randomUUID();
        NewTask record = NewTask.builder(SESSION_ID, toolName + " " + json(arguments == null ? Map.of() : arguments))
                .assignee(agent)
                .createdBy("taskagent-mcp")
                .maxAttempts(1)
                .tags(TAG)
                .metadata(json(Map.of("tool", toolName)))
                .build();
        Task task = store.inTransaction(transaction -> {
            Task created = transaction.appendTask(record);
            return transaction
                    .claimNext(agent, LEASE)
                    .orElseThrow(() -> new IllegalStateException("Task #" + created.id() + " could not be claimed"));
        });
        Running call = new Running(agent, task.attempt());
        running.put(task.id(), call);
        workers.execute(() -> run(task.id(), call, toolName, arguments));
        return task;
    }

    private void run(long taskId, Running call, String toolName, Map<String, Object> arguments) {
        try {
            if (!call.enterTool(Thread.currentThread())) {
                return;
            }
            ToolResult result;
            try {
                result = tools.callOrThrow(toolName, arguments);
            } finally {
                call.leaveTool();
            }
            if (closed.get()) {
                endWithError(taskId, call, stoppedServer());
            } else if (!call.isStopped()) {
                endWithResult(taskId, call, result);
            }
        } catch (ToolExecutionException e) {
            LOG.error("MCP task #{} ({}) failed on the server", taskId, toolName, e.getCause());
            endWithError(taskId, call, McpTools.serverFailure(toolName));
        } catch (RuntimeException e) {
            LOG.error("MCP task #{} ({}) failed on the server", taskId, toolName, e);
            endWithError(taskId, call, McpTools.serverFailure(toolName));
        } finally {
            running.remove(taskId);
        }
    }

    private void endWithResult(long taskId, Running call, ToolResult result) {
        String text = resultJson(result);
        TaskStatus outcome = result.isError() ? TaskStatus.FAILED : TaskStatus.SUCCESS;
        end(taskId, call, RESULT_AUTHOR, text, outcome);
    }

    private void endWithError(long taskId, Running call, String message) {
        end(taskId, call, ERROR_AUTHOR, errorJson(message), TaskStatus.FAILED);
    }

    private void end(long taskId, Running call, String author, String comment, TaskStatus outcome) {
        try {
            store.inTransaction(transaction -> {
                transaction.addComment(taskId, author, comment);
                return transaction.complete(taskId, call.agent, call.attempt, outcome);
            });
        } catch (ClaimLostException | TaskNotFoundException e) {
            // Cancelled (or removed) meanwhile: the store already says how it ended.
            LOG.debug("MCP task #{} ended elsewhere: {}", taskId, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error(
                    "Could not record the end of MCP task #{}; its lease will run out and it will read as failed",
                    taskId,
                    e);
        }
    }

    private static String stoppedServer() {
        return "The server stopped while the task ran; its work was interrupted and its outcome is unknown."
                + " Run it again if it is still needed.";
    }

    /**
     * Renews the lease of every running call, all of them in one transaction (each call has an agent of its
     * own, so each renewal is fenced by its own agent and attempt); a claim the store refuses does not keep
     * the others from being renewed, and its call is interrupted once the transaction has committed.
     */
    private void renewLeases() {
        List<Map.Entry<Long, Running>> held = new ArrayList<>(running.entrySet());
        for (int from = 0; from < held.size(); from += Leases.MAX_CLAIM_BATCH) {
            List<Map.Entry<Long, Running>> batch =
                    held.subList(from, Math.min(held.size(), from + Leases.MAX_CLAIM_BATCH));
            List<Map.Entry<Long, Running>> lost;
            try {
                lost = store.inTransaction(transaction -> {
                    List<Map.Entry<Long, Running>> refused = new ArrayList<>();
                    for (Map.Entry<Long, Running> entry : batch) {
                        Running call = entry.getValue();
                        try {
                            transaction.heartbeat(entry.getKey(), call.agent, call.attempt, LEASE);
                        } catch (TaskRefusedException e) {
                            refused.add(entry);
                        }
                    }
                    return refused;
                });
            } catch (RuntimeException e) {
                LOG.warn("Could not renew the leases of {} MCP tasks: {}", batch.size(), e.getMessage());
                continue;
            }
            for (Map.Entry<Long, Running> entry : lost) {
                LOG.info("MCP task #{} was cancelled or lost its claim; stopping its call", entry.getKey());
                entry.getValue().stop();
            }
        }
    }

    /**
     * Reads a task as {@code tasks/get} reports it, as the store holds it: a task whose server died reads as
     * failed once a lease reaper took it back.
     *
     * @param taskId the MCP task id
     * @return the task, or empty when there is no MCP task of that id
     */
    Optional<View> find(String taskId) {
        return read(taskId).map(this::view);
    }

    private Optional<Task> read(String taskId) {
        long id;
        try {
            id = Long.parseLong(taskId);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (id <= 0) {
            return Optional.empty();
        }
        return store.findTask(id)
                .filter(task ->
                        task.sessionId().equals(SESSION_ID) && task.tags().contains(TAG));
    }

    private View view(Task task) {
        return switch (task.status()) {
            case PENDING, RUNNING -> new View(task, "working", "The call is running.", null, null);
            case CANCELLED -> new View(task, "cancelled", "The task was cancelled.", null, null);
            case SUCCESS, FAILED -> ended(task);
        };
    }

    private View ended(Task task) {
        Optional<Comment> result = lastComment(task, RESULT_AUTHOR);
        if (result.isPresent()) {
            Map<String, Object> callResult = map(result.get().text());
            String message = Boolean.TRUE.equals(callResult.get("isError"))
                    ? "The call completed with an error result."
                    : "The call completed.";
            return new View(task, "completed", message, callResult, null);
        }
        Map<String, Object> error = lastComment(task, ERROR_AUTHOR)
                .map(comment -> map(comment.text()))
                // Failed with neither: a reclaim failed it when its server's lease ran out.
                .orElseGet(() -> reaped(task));
        return new View(task, "failed", String.valueOf(error.get("message")), null, error);
    }

    /** The error of a task that a reclaim failed, with the reaper's comment (when the lease ran out) as its data. */
    private static Map<String, Object> reaped(Task task) {
        Map<String, Object> error = errorMap(REAPED);
        lastComment(task, Leases.REAPER).ifPresent(comment -> error.put("data", Map.of("reaper", comment.text())));
        return error;
    }

    private static Optional<Comment> lastComment(Task task, String author) {
        List<Comment> comments = task.comments();
        for (int i = comments.size() - 1; i >= 0; i--) {
            if (author.equals(comments.get(i).author())) {
                return Optional.of(comments.get(i));
            }
        }
        return Optional.empty();
    }

    /** The outcome of {@link #cancel(String)}. */
    enum CancelOutcome {
        /** The task was running and is now cancelled. */
        CANCELLED,
        /** The task had already ended; nothing changed. */
        ALREADY_ENDED,
        /** There is no MCP task of that id. */
        NOT_FOUND
    }

    /**
     * Cancels a task: its status becomes cancelled in the store, and its call is interrupted (at once when
     * this process runs it, at the next lease renewal when another one does).
     *
     * @param taskId the MCP task id
     * @return what happened
     */
    CancelOutcome cancel(String taskId) {
        Optional<Task> found = read(taskId);
        if (found.isEmpty()) {
            return CancelOutcome.NOT_FOUND;
        }
        long id = found.get().id();
        try {
            queue.cancel(id, CANCELLER, "a client sent tasks/cancel");
        } catch (TaskCompleteException e) {
            return CancelOutcome.ALREADY_ENDED;
        }
        Running call = running.get(id);
        if (call != null) {
            call.stop();
        }
        return CancelOutcome.CANCELLED;
    }

    /** Stops taking tasks, interrupts the running calls and ends their tasks as failed. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Not shutdownNow: an interrupt in the middle of a lease renewal's write can break an H2 file.
        heartbeats.shutdown();
        running.values().forEach(Running::stop);
        workers.shutdown();
        try {
            if (!workers.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Some MCP task calls did not stop in time; their leases will run out");
            }
            heartbeats.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the time as the wire writes it */
    static String wireTime(Instant instant) {
        return instant.toString();
    }

    private String resultJson(ToolResult result) {
        String text = result.text();
        while (true) {
            Map<String, Object> callResult = new LinkedHashMap<>();
            callResult.put("content", List.of(Map.of("type", "text", "text", text)));
            if (result.hasStructuredContent() && !result.isError() && text.equals(result.text())) {
                callResult.put("structuredContent", map(result.structuredContent()));
            }
            callResult.put("isError", result.isError());
            String json = json(callResult);
            if (json.length() <= Task.MAX_TEXT_LENGTH) {
                return json;
            }
            // Too large to keep: keep the start, and say so.
            int keep = text.length() / 2;
            text = text.substring(0, keep) + "\n[… the result was "
                    + result.text().length() + " characters long; the task keeps its first " + keep + "]";
        }
    }

    private String errorJson(String message) {
        return json(errorMap(message));
    }

    private static Map<String, Object> errorMap(String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", INTERNAL_ERROR);
        error.put("message", message);
        return error;
    }

    private String json(Object value) {
        try {
            return jsonMapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(String json) {
        try {
            return jsonMapper.readValue(json, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
