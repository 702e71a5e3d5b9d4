/**
 * The {@link dev.taskagent.llm.ChatModel} SPI: chat requests with tools, responses with tool calls and token usage, streaming, and provider discovery through {@link java.util.ServiceLoader}. <p>Tier: API and SPI.
 */
package dev.taskagent.llm;
