package dev.taskagent.examples.springai;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application with nothing of its own: Spring AI's OpenAI starter makes the chat model, taskagent's starter
 * the store, the agent, the queue, the task board and the MCP server, all on Spring Boot's embedded Tomcat.
 */
@SpringBootApplication
public class SpringAiBoardApplication {}
