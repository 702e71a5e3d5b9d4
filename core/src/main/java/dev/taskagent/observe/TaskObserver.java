package dev.taskagent.observe;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolResult;

/**
 * Told what the library does, for metrics and traces: give one to {@code TaskAgent.Builder.observer},
 * {@code StepExecutor.Builder.observer} and {@code TaskQueue.Builder.observer}. Every method has a default
 * that does nothing, so an observer implements only what it records.
 *
 * <p>Timed work (a model call, a tool execution, a claim, an extraction run) is reported by a {@code
 * start} method that returns a {@link Scope}; the library ends the scope exactly once, on the same
 * thread, with its outcome. Events (a completion, an expired lease) are reported once, after their
 * transaction committed.
 *
 * <p>Rules for implementations: be thread-safe (one observer serves every thread of the application);
 * return quickly; do not throw (the library does not catch what an observer throws, and a throwing
 * observer fails the operation it observes). The texts a hook can reach (prompts, answers, tool arguments
 * and results) may be personal data: record them only when the application's owner asked for it.
 */
public interface TaskObserver {

    /**
     * Returns the observer that records nothing: the default of every builder.
     *
     * @return the no-op observer, a singleton
     */
    static TaskObserver none() {
        return NoObserver.INSTANCE;
    }

    /**
     * Called before the library asks a model.
     *
     * @param call what is asked, and of which model
     * @return the scope, ended with the response or the failure
     */
    default Scope<ChatResponse> modelCallStarted(ModelCall call) {
        return Scope.none();
    }

    /**
     * Called before a tool a model asked for runs.
     *
     * @param call the tool and its arguments
     * @return the scope, ended with the tool's result (which may be an {@linkplain ToolResult#isError()
     *     error result}) or with what the tool threw
     */
    default Scope<ToolResult> toolExecutionStarted(ToolExecution call) {
        return Scope.none();
    }

    /**
     * Called before an agent claims its next task.
     *
     * @param agent the claiming agent
     * @return the scope, ended with the claimed task, with null when the agent had no idle task, or with
     *     the failure
     */
    default Scope<Task> claimStarted(String agent) {
        return Scope.none();
    }

    /**
     * Called after a claim was completed with success or failure, once its transaction committed.
     *
     * @param task the task after the change
     * @param agent the agent that completed it
     * @param outcome {@link TaskStatus#SUCCESS} or {@link TaskStatus#FAILED}
     */
    default void taskCompleted(Task task, String agent, TaskStatus outcome) {}

    /**
     * Called for each running task whose lease expired and that a reclaim took back, once the reclaim's
     * transaction committed: back in its queue, or failed after its last attempt (a dead letter).
     *
     * @param reclaimed the task and what happened to it
     */
    default void leaseExpired(ReclaimedTask reclaimed) {}

    /**
     * Called before an extraction run of {@code TaskAgent} starts.
     *
     * @param sessionId the session whose messages are read
     * @return the scope, ended with the run's result (which says whether it failed; it is the {@code AgentRun}
     *     that {@code TaskAgent.run} returns)
     */
    default Scope<ExtractionOutcome> extractionStarted(String sessionId) {
        return Scope.none();
    }

    /**
     * The open observation of one piece of timed work; ended exactly once, on the thread that started it.
     *
     * @param <R> what the work gives when it ends normally
     */
    interface Scope<R> {

        /**
         * Returns a scope that records nothing.
         *
         * @param <R> what the work gives
         * @return the no-op scope
         */
        @SuppressWarnings("unchecked")
        static <R> Scope<R> none() {
            return (Scope<R>) NoObserver.NO_SCOPE;
        }

        /**
         * Ends the observation of work that ended normally.
         *
         * @param result what the work gave; null where the hook says so
         */
        default void succeeded(R result) {}

        /**
         * Ends the observation of work that failed.
         *
         * @param error what the work threw
         */
        default void failed(Throwable error) {}
    }
}
