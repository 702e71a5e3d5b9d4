package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun.StopReason;
import dev.taskagent.extraction.IterationScope.ExecutedCall;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.engine.ModelLoop;
import dev.taskagent.internal.engine.ModelLoop.Round;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.observe.ExtractionOutcome;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.observe.ToolExecution;
import dev.taskagent.task.Task;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the agent over one batch: the {@link ModelLoop} with the extraction's way of running the
 * calls of an answer. The model is always called outside a transaction; each iteration's tool calls run in
 * one transaction; listeners and hooks hear only of committed iterations. Used by one thread; not
 * reusable.
 */
final class ExtractionRun implements ModelLoop.Hooks {
    private static final Logger LOG = LoggerFactory.getLogger(TaskAgent.class);

    private final TaskAgent agent;
    private final String sessionId;
    private final MessageBatch batch;
    private final Set<String> toolsThatChangeTasks;

    private final List<ToolCallRecord> toolCalls = new ArrayList<>();
    private final List<String> thinking = new ArrayList<>();
    private final Set<Long> createdIds = new LinkedHashSet<>();
    private final Set<Long> changedIds = new LinkedHashSet<>();
    private final Map<Long, Task> latestTasks = new LinkedHashMap<>();

    /** The scope of the latest attempt of the current iteration; reset at the start of every attempt. */
    private IterationScope attempt;

    ExtractionRun(TaskAgent agent, String sessionId, MessageBatch batch) {
        this.agent = agent;
        this.sessionId = sessionId;
        this.batch = batch;
        this.toolsThatChangeTasks = agent.tools().stream()
                .filter(ExtractionTool::changesTasks)
                .map(ExtractionTool::name)
                .collect(Collectors.toSet());
    }

    AgentRun execute() {
        Instant startedAt = agent.clock().instant();
        TaskObserver.Scope<ExtractionOutcome> observation = agent.observer().extractionStarted(sessionId);
        AgentRun run;
        try {
            String input = agent.store()
                    .inTransaction(transaction -> agent.renderer().render(transaction.listTasks(sessionId), batch));
            ModelLoop.Outcome outcome = agent.loop().run("Extraction of session '" + sessionId + "'", input, this);
            run = result(outcome, startedAt);
        } catch (RuntimeException e) {
            observation.failed(e);
            throw e;
        }
        observation.succeeded(run);
        return run;
    }

    @Override
    public Round runCalls(int iteration, List<ToolCall> calls) {
        IterationScope committed;
        try {
            committed = runIteration(iteration, calls);
        } catch (RuntimeException e) {
            throw rolledBack(iteration, e);
        }
        afterCommit(committed);
        List<ToolResult> results =
                committed.calls().stream().map(ExecutedCall::result).toList();
        return committed.finishRequested() ? Round.ending(results) : Round.continuing(results);
    }

    /** Runs the calls of one iteration in one transaction; returns the scope of the attempt that committed. */
    private IterationScope runIteration(int iteration, List<ToolCall> calls) {
        return agent.transactions().run((transaction, events) -> {
            attempt = null; // a store may retry the work (TS-1.7): nothing of an earlier attempt survives
            IterationScope scope = new IterationScope(iteration, sessionId, transaction, batch, events);
            attempt = scope;
            Toolbox toolbox = ExtractionTools.bind(agent.tools(), scope);
            for (ToolCall call : calls) {
                runCall(toolbox, scope, call);
            }
            return scope;
        });
    }

    private void runCall(Toolbox toolbox, IterationScope scope, ToolCall call) {
        scope.startCall(call);
        TaskObserver.Scope<ToolResult> observation = agent.observer().toolExecutionStarted(new ToolExecution(call));
        ToolResult result;
        try {
            result = toolbox.call(call);
            observation.succeeded(result);
        } catch (ToolExecutionException e) {
            observation.failed(e.getCause() != null ? e.getCause() : e);
            // Rethrow what the tool threw, so that a store sees its own exception (and may retry on a
            // transient conflict); the scope still names the call in flight.
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        if (toolsThatChangeTasks.contains(call.name())) {
            scope.reloadTasks(); // the next call must see the new orders and statuses
        }
        scope.finishCall(result);
    }

    private void afterCommit(IterationScope scope) {
        for (ExecutedCall executed : scope.calls()) {
            toolCalls.add(new ToolCallRecord(scope.iteration(), executed.call(), executed.result(), true));
        }
        thinking.addAll(scope.thinking());
        scope.thinking()
                .forEach(text -> LOG.debug("Session '{}' thinking: {}", Texts.forLog(sessionId), Texts.forLog(text)));
        Set<Long> reachedTerminal = new LinkedHashSet<>();
        for (TaskEvent event : scope.events()) {
            long id = event.task().id();
            if (event instanceof TaskEvent.Created) {
                createdIds.add(id);
            } else if (!createdIds.contains(id)) {
                changedIds.add(id);
            }
            if (event instanceof TaskEvent.StatusChanged changed && changed.to().isTerminal()) {
                reachedTerminal.add(id);
            }
        }
        for (Task task : scope.tasks()) {
            latestTasks.put(task.id(), task);
        }
        for (long id : reachedTerminal) {
            Task task = latestTasks.get(id);
            if (task != null && task.status().isTerminal()) {
                notifyFinished(task);
            }
        }
    }

    private void notifyFinished(Task task) {
        for (FinishedTaskHook hook : agent.finishedTaskHooks()) {
            try {
                hook.onTaskFinished(task);
            } catch (RuntimeException e) {
                LOG.warn("FinishedTaskHook {} failed for task {}; ignored", hook, task.id(), e);
            }
        }
    }

    /**
     * Records the calls of the attempt that was rolled back, and tells the loop who failed: the tool whose
     * call was running (as a {@link ToolExecutionException}), or else the store, at commit.
     */
    private RuntimeException rolledBack(int iteration, RuntimeException e) {
        IterationScope failedAttempt = attempt;
        attempt = null;
        if (failedAttempt == null) {
            return e;
        }
        for (ExecutedCall executed : failedAttempt.calls()) {
            toolCalls.add(new ToolCallRecord(iteration, executed.call(), executed.result(), false));
        }
        thinking.addAll(failedAttempt.thinking());
        ToolCall callInFlight = failedAttempt.callInFlight();
        if (callInFlight == null) {
            return e;
        }
        toolCalls.add(new ToolCallRecord(
                iteration,
                callInFlight,
                ToolResult.error("Failed: " + e.getClass().getSimpleName() + ": " + e.getMessage()
                        + "; the iteration was rolled back."),
                false));
        return new ToolExecutionException(callInFlight.name(), e);
    }

    private AgentRun result(ModelLoop.Outcome outcome, Instant startedAt) {
        return new AgentRun(
                sessionId,
                stopReason(outcome.stop()),
                outcome.error(),
                outcome.modelCalls(),
                toolCalls,
                inListOrder(createdIds),
                inListOrder(changedIds),
                thinking,
                outcome.usage(),
                startedAt,
                agent.clock().instant());
    }

    private static StopReason stopReason(ModelLoop.Stop stop) {
        return switch (stop) {
            case ANSWERED -> StopReason.NO_TOOL_CALLS;
            case ENDED_BY_TOOL -> StopReason.FINISH;
            case LIMIT -> StopReason.ITERATION_LIMIT;
            case FAILED -> StopReason.ERROR;
        };
    }

    private List<Task> inListOrder(Set<Long> ids) {
        return latestTasks.values().stream()
                .filter(task -> ids.contains(task.id()))
                .sorted((left, right) -> Integer.compare(left.order(), right.order()))
                .toList();
    }
}
