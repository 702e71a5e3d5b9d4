package dev.taskagent.llm;

/**
 * One message of a chat with a model: {@link SystemMessage}, {@link UserMessage}, {@link
 * AssistantMessage} (text and tool calls) or {@link ToolResultMessage}.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface ChatMessage permits SystemMessage, UserMessage, AssistantMessage, ToolResultMessage {}
