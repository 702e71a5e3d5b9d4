/**
 * {@link dev.taskagent.llm.openai.OpenAiChatModel}: the {@code ChatModel} on the Chat Completions API of
 * OpenAI or any OpenAI-compatible server, through the official {@code openai-java} SDK, and its {@link
 * java.util.ServiceLoader} provider. <p>Tier: API.
 */
package dev.taskagent.llm.openai;
