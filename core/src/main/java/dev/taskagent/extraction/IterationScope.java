package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.Task;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tools of one attempt of one iteration work on: the transaction, the session's task list as the
 * transaction sees it, the batch, and what the attempt did. A store may run an iteration's unit of work
 * again (TS-1.7), so each attempt gets a fresh scope and nothing of a failed attempt is reused.
 */
final class IterationScope {
    private final int iteration;
    private final String sessionId;
    private final TaskTransaction transaction;
    private final MessageBatch batch;
    private final List<TaskEvent> events;
    private final List<ExecutedCall> calls = new ArrayList<>();
    private final List<String> thinking = new ArrayList<>();
    private List<Task> tasks;
    private boolean finishRequested;
    private ToolCall callInFlight;

    /** A call that ran in this attempt, with the result the model will read. */
    record ExecutedCall(ToolCall call, ToolResult result) {}

    IterationScope(
            int iteration, String sessionId, TaskTransaction transaction, MessageBatch batch, List<TaskEvent> events) {
        this.iteration = iteration;
        this.sessionId = sessionId;
        this.transaction = transaction;
        this.batch = batch;
        this.events = events;
        reloadTasks();
    }

    int iteration() {
        return iteration;
    }

    String sessionId() {
        return sessionId;
    }

    TaskTransaction transaction() {
        return transaction;
    }

    MessageBatch batch() {
        return batch;
    }

    /** The session's tasks as this transaction sees them, order 1 first. */
    List<Task> tasks() {
        return tasks;
    }

    /** Reads the task list again inside the transaction, so later calls see new orders and statuses. */
    void reloadTasks() {
        tasks = transaction.listTasks(sessionId);
    }

    /**
     * Finds the task at a 1-based order of the current list, or explains to the model why there is none.
     *
     * @throws ToolArgumentException when the order is out of range
     */
    Task taskAt(int order) {
        int size = tasks.size();
        if (size == 0) {
            throw new ToolArgumentException("Task order " + order
                    + " does not exist: the task list is empty. Create the task with insert_task first.");
        }
        if (order < 1 || order > size) {
            throw new ToolArgumentException(
                    "Task order " + order + " is out of range (1.." + size + "); use an order from the task list.");
        }
        return tasks.get(order - 1);
    }

    void recordEvent(TaskEvent event) {
        events.add(event);
    }

    List<TaskEvent> events() {
        return events;
    }

    /** Notes the call being run, so that a hard error can name it. */
    void startCall(ToolCall call) {
        callInFlight = call;
    }

    void finishCall(ToolResult result) {
        calls.add(new ExecutedCall(callInFlight, result));
        callInFlight = null;
    }

    /** The call that was running when the attempt failed, or null when none was. */
    ToolCall callInFlight() {
        return callInFlight;
    }

    List<ExecutedCall> calls() {
        return calls;
    }

    void recordThinking(String text) {
        thinking.add(text);
    }

    List<String> thinking() {
        return thinking;
    }

    void requestFinish() {
        finishRequested = true;
    }

    boolean finishRequested() {
        return finishRequested;
    }
}
