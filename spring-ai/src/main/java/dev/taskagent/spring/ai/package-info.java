/**
 * Bridges to Spring AI: {@link dev.taskagent.spring.ai.SpringAiChatModel}, a taskagent {@code ChatModel} over any
 * Spring AI {@code ChatModel}, and {@link dev.taskagent.spring.ai.TaskAgentToolCallbackProvider}, taskagent's tools
 * as Spring AI tool callbacks. <p>Tier: API.
 */
package dev.taskagent.spring.ai;
