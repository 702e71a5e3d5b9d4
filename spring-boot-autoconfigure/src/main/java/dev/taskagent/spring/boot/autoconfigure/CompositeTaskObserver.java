package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.observe.ExtractionOutcome;
import dev.taskagent.observe.ModelCall;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.observe.ToolExecution;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolResult;
import java.util.List;
import java.util.function.Function;

/** Tells several observers, in order: what the beans get when the application has more than one. Thread-safe. */
final class CompositeTaskObserver implements TaskObserver {
    private final List<TaskObserver> observers;

    private CompositeTaskObserver(List<TaskObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /** Returns the one observer, none, or a composite of several. */
    static TaskObserver of(List<TaskObserver> observers) {
        return switch (observers.size()) {
            case 0 -> TaskObserver.none();
            case 1 -> observers.get(0);
            default -> new CompositeTaskObserver(observers);
        };
    }

    @Override
    public Scope<ChatResponse> modelCallStarted(ModelCall call) {
        return all(observer -> observer.modelCallStarted(call));
    }

    @Override
    public Scope<ToolResult> toolExecutionStarted(ToolExecution call) {
        return all(observer -> observer.toolExecutionStarted(call));
    }

    @Override
    public Scope<Task> claimStarted(String agent) {
        return all(observer -> observer.claimStarted(agent));
    }

    @Override
    public Scope<ExtractionOutcome> extractionStarted(String sessionId) {
        return all(observer -> observer.extractionStarted(sessionId));
    }

    @Override
    public void taskCompleted(Task task, String agent, TaskStatus outcome) {
        observers.forEach(observer -> observer.taskCompleted(task, agent, outcome));
    }

    @Override
    public void leaseExpired(ReclaimedTask reclaimed) {
        observers.forEach(observer -> observer.leaseExpired(reclaimed));
    }

    private <R> Scope<R> all(Function<TaskObserver, Scope<R>> start) {
        List<Scope<R>> scopes = observers.stream().map(start).toList();
        return new Scope<>() {
            @Override
            public void succeeded(R result) {
                scopes.forEach(scope -> scope.succeeded(result));
            }

            @Override
            public void failed(Throwable error) {
                scopes.forEach(scope -> scope.failed(error));
            }
        };
    }

    @Override
    public String toString() {
        return "CompositeTaskObserver" + observers;
    }
}
