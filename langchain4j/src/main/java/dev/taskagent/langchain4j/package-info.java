/**
 * {@link dev.taskagent.langchain4j.LangChain4jChatModel}: any LangChain4j {@code ChatModel} or {@code
 * StreamingChatModel} (OpenAI, Anthropic, Gemini, Ollama, Bedrock…) as a taskagent {@code ChatModel};
 * {@link dev.taskagent.langchain4j.LangChain4jTools}: any taskagent {@code Toolbox} as LangChain4j tools for
 * {@code AiServices}. <p>Tier: API.
 */
package dev.taskagent.langchain4j;
