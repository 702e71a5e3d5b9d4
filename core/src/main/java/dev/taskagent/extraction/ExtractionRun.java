package dev.taskagent.extraction;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun.StopReason;
import dev.taskagent.extraction.IterationScope.ExecutedCall;
import dev.taskagent.internal.TransactionRunner;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the agent over one batch: the loop of the spec. The model is always called outside a
 * transaction; each iteration's tool calls run in one transaction; listeners and hooks hear only of
 * committed iterations. Used by one thread; not reusable.
 */
final class ExtractionRun {
    private static final Logger LOG = LoggerFactory.getLogger(ExtractionRun.class);

    private final TaskAgent agent;
    private final String sessionId;
    private final MessageBatch batch;
    private final TransactionRunner transactions;
    private final List<ExtractionTool> tools;
    private final Set<String> toolsThatChangeTasks;
    private final List<ToolDefinition> toolDefinitions;

    private final List<ChatMessage> history = new ArrayList<>();
    private final List<ToolCallRecord> toolCalls = new ArrayList<>();
    private final List<String> thinking = new ArrayList<>();
    private final Set<Long> createdIds = new LinkedHashSet<>();
    private final Set<Long> changedIds = new LinkedHashSet<>();
    private final Map<Long, Task> latestTasks = new LinkedHashMap<>();
    private TokenUsage tokenUsage = TokenUsage.ZERO;
    private int iterations;
    private Instant startedAt;

    /** The scope of the latest attempt of the current iteration; reset at the start of every attempt. */
    private IterationScope attempt;

    ExtractionRun(TaskAgent agent, String sessionId, MessageBatch batch) {
        this.agent = agent;
        this.sessionId = sessionId;
        this.batch = batch;
        this.transactions = agent.transactions();
        this.tools = ExtractionTools.toolset(agent.stepsTool());
        this.toolsThatChangeTasks = tools.stream()
                .filter(ExtractionTool::changesTasks)
                .map(ExtractionTool::name)
                .collect(Collectors.toSet());
        this.toolDefinitions = ExtractionTools.definitions(agent.stepsTool());
    }

    AgentRun execute() {
        startedAt = agent.clock().instant();
        String input = agent.store()
                .inTransaction(transaction -> agent.renderer().render(transaction.listTasks(sessionId), batch));
        history.add(new UserMessage(input));
        for (int iteration = 1; iteration <= agent.maxIterations(); iteration++) {
            iterations = iteration;
            ChatResponse response;
            try {
                response = callModel();
            } catch (RuntimeException e) {
                return failed(new AgentError(AgentError.Stage.MODEL, null, iteration, e));
            }
            tokenUsage = tokenUsage.plus(response.usage());
            if (!response.hasToolCalls()) {
                return finished(StopReason.NO_TOOL_CALLS);
            }
            IterationScope committed;
            try {
                committed = runIteration(iteration, response.toolCalls());
            } catch (RuntimeException e) {
                return failed(hardError(iteration, e));
            }
            afterCommit(committed, response);
            if (committed.finishRequested()) {
                return finished(StopReason.FINISH);
            }
        }
        return finished(StopReason.ITERATION_LIMIT);
    }

    private ChatResponse callModel() {
        ChatRequest request =
                new ChatRequest(SystemPrompt.text(agent.stepsTool()), history, toolDefinitions, agent.chatOptions());
        ChatResponse response = agent.chatModel().chat(request);
        if (response == null) {
            throw new ChatModelException(
                    "The chat model " + agent.chatModel() + " returned null instead of a response");
        }
        return response;
    }

    /** Runs the calls of one iteration in one transaction; returns the scope of the attempt that committed. */
    private IterationScope runIteration(int iteration, List<ToolCall> calls) {
        return transactions.run((transaction, events) -> {
            attempt = null; // a store may retry the work (TS-1.7): nothing of an earlier attempt survives
            IterationScope scope = new IterationScope(iteration, sessionId, transaction, batch, events);
            attempt = scope;
            Toolbox toolbox = ExtractionTools.bind(tools, scope);
            for (ToolCall call : calls) {
                runCall(toolbox, scope, call);
            }
            return scope;
        });
    }

    private void runCall(Toolbox toolbox, IterationScope scope, ToolCall call) {
        scope.startCall(call);
        ToolResult result;
        try {
            result = toolbox.call(call);
        } catch (ToolExecutionException e) {
            // Rethrow what the tool threw, so that a store sees its own exception (and may retry on a
            // transient conflict); the scope still names the call in flight.
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        if (toolsThatChangeTasks.contains(call.name())) {
            scope.reloadTasks(); // the next call must see the new orders and statuses
        }
        scope.finishCall(result);
    }

    private void afterCommit(IterationScope scope, ChatResponse response) {
        history.add(AssistantMessage.of(response));
        for (ExecutedCall executed : scope.calls()) {
            ToolCall call = executed.call();
            ToolResult result = executed.result();
            history.add(new ToolResultMessage(call.id(), call.name(), result.text(), result.isError()));
            toolCalls.add(new ToolCallRecord(scope.iteration(), call, result, true));
        }
        thinking.addAll(scope.thinking());
        scope.thinking().forEach(text -> LOG.debug("Session '{}' thinking: {}", sessionId, text));
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

    private AgentError hardError(int iteration, RuntimeException e) {
        IterationScope failedAttempt = attempt;
        attempt = null;
        ToolCall callInFlight = failedAttempt == null ? null : failedAttempt.callInFlight();
        if (failedAttempt != null) {
            for (ExecutedCall executed : failedAttempt.calls()) {
                toolCalls.add(new ToolCallRecord(iteration, executed.call(), executed.result(), false));
            }
            thinking.addAll(failedAttempt.thinking());
        }
        if (callInFlight == null) {
            return new AgentError(AgentError.Stage.STORE, null, iteration, e);
        }
        toolCalls.add(new ToolCallRecord(
                iteration,
                callInFlight,
                ToolResult.error("Failed: " + e.getClass().getSimpleName() + ": " + e.getMessage()
                        + "; the iteration was rolled back."),
                false));
        return new AgentError(AgentError.Stage.TOOL, callInFlight.name(), iteration, e);
    }

    private AgentRun failed(AgentError error) {
        // One short line: the caller gets the error in the AgentRun; the stack is for debugging.
        LOG.warn("Extraction of session '{}' stopped: {}", sessionId, error.message());
        LOG.debug("Extraction of session '{}' stopped", sessionId, error.cause());
        return result(StopReason.ERROR, Optional.of(error));
    }

    private AgentRun finished(StopReason reason) {
        return result(reason, Optional.empty());
    }

    private AgentRun result(StopReason reason, Optional<AgentError> error) {
        return new AgentRun(
                sessionId,
                reason,
                error,
                iterations,
                toolCalls,
                inListOrder(createdIds),
                inListOrder(changedIds),
                thinking,
                tokenUsage,
                startedAt,
                agent.clock().instant());
    }

    private List<Task> inListOrder(Set<Long> ids) {
        return latestTasks.values().stream()
                .filter(task -> ids.contains(task.id()))
                .sorted((left, right) -> Integer.compare(left.order(), right.order()))
                .toList();
    }
}
