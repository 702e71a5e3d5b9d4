package dev.taskagent.observe;

import dev.taskagent.llm.TokenUsage;
import java.time.Instant;

/**
 * What an observer learns when an extraction run ends; {@code dev.taskagent.extraction.AgentRun} is the
 * implementation (cast to it for the tasks, the tool calls and the thinking of the run). It is an interface
 * here so that this package, which every feature reports to, depends on none of them.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface ExtractionOutcome {

    /**
     * Names the session whose messages the run read.
     *
     * @return the session id
     */
    String sessionId();

    /**
     * Says why the run stopped.
     *
     * @return one of {@code AgentRun.StopReason}: {@code FINISH}, {@code NO_TOOL_CALLS}, {@code
     *     ITERATION_LIMIT} or {@code ERROR}
     */
    Enum<?> stopReason();

    /**
     * Says whether the run ended without an error.
     *
     * @return false when it stopped on an error
     */
    boolean isSuccess();

    /**
     * Counts the model calls of the run.
     *
     * @return zero or more
     */
    int iterations();

    /**
     * Sums the tokens of the run's model calls.
     *
     * @return the token usage
     */
    TokenUsage tokenUsage();

    /**
     * Returns when the run started.
     *
     * @return the start, from the agent's clock
     */
    Instant startedAt();

    /**
     * Returns when the run finished.
     *
     * @return the end, from the agent's clock
     */
    Instant finishedAt();
}
