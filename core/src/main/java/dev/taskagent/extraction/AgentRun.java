package dev.taskagent.extraction;

import dev.taskagent.RunError;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.observe.ExtractionOutcome;
import dev.taskagent.task.Task;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one {@link TaskAgent#run(String, List)} did.
 *
 * <p>A run either ends normally ({@link #isSuccess()}: the model called {@code finish}, stopped calling
 * tools, or used up the iterations) or with an {@link #error()}. Either way every iteration before the
 * failing one is committed, and the lists below describe the committed work; {@link #toolCalls()} also
 * lists the calls of a rolled-back iteration, marked as not committed. A {@code StepRun} reports its
 * failures in the same shape.
 *
 * <p>Immutable and thread-safe.
 *
 * @param sessionId the session the run worked on
 * @param stopReason why the run stopped
 * @param error the failure when {@code stopReason} is {@link StopReason#ERROR}, otherwise empty
 * @param iterations how many iterations called the model, the failed one included
 * @param toolCalls every tool call the model made, in order, with its result
 * @param createdTasks the tasks the run created, as they are after the run, in list order
 * @param changedTasks the tasks that existed before the run and that it changed, as they are after the
 *     run, in list order
 * @param thinking the texts of the model's {@code report_thinking} calls, in order
 * @param tokenUsage tokens used, summed over every model call of the run
 * @param startedAt when the run started, from the agent's clock
 * @param finishedAt when the run ended, from the agent's clock
 */
public record AgentRun(
        String sessionId,
        StopReason stopReason,
        Optional<RunError> error,
        int iterations,
        List<ToolCallRecord> toolCalls,
        List<Task> createdTasks,
        List<Task> changedTasks,
        List<String> thinking,
        TokenUsage tokenUsage,
        Instant startedAt,
        Instant finishedAt)
        implements ExtractionOutcome {

    /** Why a run stopped. */
    public enum StopReason {
        /** The model called {@code finish}. */
        FINISH,
        /** The model answered without tool calls. */
        NO_TOOL_CALLS,
        /** The run used its maximum number of iterations. */
        ITERATION_LIMIT,
        /** A hard error stopped the run; see {@link #error()}. */
        ERROR
    }

    /**
     * Checks the invariants and copies the lists.
     *
     * @param sessionId the session the run worked on; not null
     * @param stopReason why the run stopped; not null
     * @param error the failure, present exactly when {@code stopReason} is {@link StopReason#ERROR}; not null
     * @param iterations how many iterations called the model, the failed one included; not negative
     * @param toolCalls every tool call the model made, in order, with its result; not null, copied
     * @param createdTasks the tasks the run created, as they are after the run; not null, copied
     * @param changedTasks the tasks that existed before the run and that it changed, as they are after the run;
     *     not null, copied
     * @param thinking the texts of the model's {@code report_thinking} calls, in order; not null, copied
     * @param tokenUsage tokens used, summed over every model call of the run; not null
     * @param startedAt when the run started, from the agent's clock; not null
     * @param finishedAt when the run ended, from the agent's clock; not null
     */
    public AgentRun {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(stopReason, "stopReason");
        Objects.requireNonNull(error, "error");
        if ((stopReason == StopReason.ERROR) != error.isPresent()) {
            throw new IllegalArgumentException("an error must be given exactly when the stop reason is ERROR");
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must not be negative, was " + iterations);
        }
        toolCalls = List.copyOf(toolCalls);
        createdTasks = List.copyOf(createdTasks);
        changedTasks = List.copyOf(changedTasks);
        thinking = List.copyOf(thinking);
        Objects.requireNonNull(tokenUsage, "tokenUsage");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
    }

    /**
     * Tells whether the run ended without a hard error.
     *
     * @return true unless {@link #stopReason()} is {@link StopReason#ERROR}
     */
    public boolean isSuccess() {
        return stopReason != StopReason.ERROR;
    }

    /**
     * Tells whether the run stopped because it used all its iterations, before the model called {@code
     * finish} or stopped calling tools.
     *
     * @return true when {@link #stopReason()} is {@link StopReason#ITERATION_LIMIT}
     */
    public boolean iterationLimitReached() {
        return stopReason == StopReason.ITERATION_LIMIT;
    }
}
