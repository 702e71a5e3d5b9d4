package dev.taskagent.llm;

/**
 * Tokens a model call consumed, as the model's API reported them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param inputTokens prompt tokens; not negative
 * @param outputTokens completion tokens; not negative
 */
public record TokenUsage(long inputTokens, long outputTokens) {
    /** No tokens. */
    public static final TokenUsage ZERO = new TokenUsage(0, 0);

    /**
     * Checks the invariants.
     *
     * @param inputTokens prompt tokens; not negative
     * @param outputTokens completion tokens; not negative
     */
    public TokenUsage {
        if (inputTokens < 0 || outputTokens < 0) {
            throw new IllegalArgumentException(
                    "token counts must not be negative: input=" + inputTokens + ", output=" + outputTokens);
        }
    }

    /** @return input plus output tokens */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }

    /**
     * Adds two usages, for sums over several calls.
     *
     * @param other the other usage
     * @return the sum
     */
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(inputTokens + other.inputTokens, outputTokens + other.outputTokens);
    }
}
