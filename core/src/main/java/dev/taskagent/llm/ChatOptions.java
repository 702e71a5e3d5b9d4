package dev.taskagent.llm;

/**
 * Per-request options. Unset values ({@code null}) leave the choice to the model's provider.
 *
 * <p>Immutable and thread-safe.
 *
 * @param temperature sampling temperature, 0..2, or null for the provider's default
 * @param maxOutputTokens the most tokens the model may write, positive, or null for no limit
 * @param parallelToolCalls whether the model may return several tool calls at once
 */
public record ChatOptions(Double temperature, Integer maxOutputTokens, boolean parallelToolCalls) {

    /**
     * Checks the invariants.
     *
     * @param temperature sampling temperature, 0..2, or null for the provider's default
     * @param maxOutputTokens the most tokens the model may write, positive, or null for no limit
     * @param parallelToolCalls whether the model may return several tool calls at once
     */
    public ChatOptions {
        if (temperature != null && (temperature.isNaN() || temperature < 0 || temperature > 2)) {
            throw new IllegalArgumentException("temperature must be within 0..2, was " + temperature);
        }
        if (maxOutputTokens != null && maxOutputTokens <= 0) {
            throw new IllegalArgumentException("maxOutputTokens must be positive, was " + maxOutputTokens);
        }
    }

    /**
     * The provider's defaults with parallel tool calls allowed.
     *
     * @return the default options
     */
    public static ChatOptions defaults() {
        return new ChatOptions(null, null, true);
    }

    /**
     * Returns a copy with another temperature.
     *
     * @param value 0..2, or null
     * @return the new options
     */
    public ChatOptions withTemperature(Double value) {
        return new ChatOptions(value, maxOutputTokens, parallelToolCalls);
    }

    /**
     * Returns a copy with another output limit.
     *
     * @param value positive, or null
     * @return the new options
     */
    public ChatOptions withMaxOutputTokens(Integer value) {
        return new ChatOptions(temperature, value, parallelToolCalls);
    }

    /**
     * Returns a copy that allows or forbids parallel tool calls.
     *
     * @param value true to allow several tool calls per response
     * @return the new options
     */
    public ChatOptions withParallelToolCalls(boolean value) {
        return new ChatOptions(temperature, maxOutputTokens, value);
    }
}
