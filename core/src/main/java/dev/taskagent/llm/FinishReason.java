package dev.taskagent.llm;

/** Why the model stopped writing. */
public enum FinishReason {
    /** It finished its answer. */
    STOP,
    /** It wants tools run. */
    TOOL_CALLS,
    /** It hit the output token limit. */
    LENGTH,
    /** The provider's content filter stopped it. */
    CONTENT_FILTER,
    /** Any other reason, or none reported. */
    OTHER
}
