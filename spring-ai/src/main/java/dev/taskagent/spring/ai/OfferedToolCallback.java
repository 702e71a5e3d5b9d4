package dev.taskagent.spring.ai;

import dev.taskagent.llm.ToolDefinition;
import org.springframework.ai.tool.ToolCallback;

/**
 * A taskagent tool offered to a Spring AI model: it carries the name, description and JSON schema the model
 * sees, and refuses to run, because taskagent runs the calls the model makes itself.
 *
 * <p>Immutable and thread-safe.
 */
final class OfferedToolCallback implements ToolCallback {
    private final org.springframework.ai.tool.definition.ToolDefinition definition;

    OfferedToolCallback(ToolDefinition tool) {
        // The builder fills an empty description from the name: Spring AI refuses blank descriptions.
        this.definition = org.springframework.ai.tool.definition.ToolDefinition.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(tool.parametersSchemaJson())
                .build();
    }

    @Override
    public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public String call(String toolInput) {
        throw new IllegalStateException("Tool '" + definition.name() + "' was offered to the Spring AI model by"
                + " taskagent's SpringAiChatModel, which runs the model's tool calls itself; Spring AI must not run"
                + " it. Do not put this callback in a ChatClient: give the ChatClient"
                + " TaskAgentToolCallbackProvider.of(toolbox) instead.");
    }
}
