package dev.taskagent.spring.ai;

import dev.taskagent.tool.Toolbox;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * taskagent's tools as Spring AI tool callbacks, for a Spring AI {@code ChatClient} agent that works the task
 * queue or edits tasks without going through MCP.
 *
 * <pre>{@code
 * TaskQueue queue = TaskQueue.builder(store).build();
 * String answer = ChatClient.builder(springAiChatModel)
 *         .build()
 *         .prompt("You are agent ada. Claim your next task and work it.")
 *         .tools(TaskAgentToolCallbackProvider.of(queue.workerTools()))
 *         .call()
 *         .content();
 * }</pre>
 *
 * <p>Each tool becomes a {@link ToolCallback} with its name, description and JSON schema. A call runs
 * {@link Toolbox#call(dev.taskagent.llm.ToolCall)} and returns the result's text; an error result (bad
 * arguments, a refused move, a lost claim) is returned as text too, for the model to read and correct, as in
 * taskagent's own loop. A tool that fails unexpectedly (taskagent's {@code ToolExecutionException}) throws
 * Spring AI's {@code ToolExecutionException}, whose handling Spring AI's {@code
 * ToolExecutionExceptionProcessor} decides (by default the model reads the message). Structured content and
 * output schemas are not passed on: Spring AI's tool results are text.
 *
 * <p>Immutable; thread-safe when the toolbox's tools are (taskagent's are).
 */
public final class TaskAgentToolCallbackProvider implements ToolCallbackProvider {
    private final List<ToolCallback> callbacks;

    private TaskAgentToolCallbackProvider(Toolbox toolbox) {
        this.callbacks = toolbox.tools().stream()
                .map(tool -> (ToolCallback) new ToolboxToolCallback(toolbox, tool))
                .toList();
    }

    /**
     * Exposes every tool of a toolbox, in the toolbox's order.
     *
     * @param toolbox the tools, e.g. {@code TaskQueue.workerTools()}
     * @return the provider
     * @throws NullPointerException if {@code toolbox} is null
     */
    public static TaskAgentToolCallbackProvider of(Toolbox toolbox) {
        return new TaskAgentToolCallbackProvider(Objects.requireNonNull(toolbox, "toolbox"));
    }

    /**
     * Returns one callback per tool, in the toolbox's order.
     *
     * @return a new array of the callbacks
     */
    @Override
    public ToolCallback[] getToolCallbacks() {
        return callbacks.toArray(ToolCallback[]::new);
    }

    /**
     * Describes the provider by its tools' names.
     *
     * @return the tool names
     */
    @Override
    public String toString() {
        return "TaskAgentToolCallbackProvider"
                + callbacks.stream()
                        .map(callback -> callback.getToolDefinition().name())
                        .toList();
    }
}
