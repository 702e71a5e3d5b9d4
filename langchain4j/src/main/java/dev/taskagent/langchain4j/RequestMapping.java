package dev.taskagent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.SystemMessage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns taskagent's request into LangChain4j's: the system prompt first, then the conversation, the tools
 * with their schemas, temperature and output limit. Parallel tool calls are not a LangChain4j parameter:
 * the provider's default applies.
 *
 * <p>Thread-safe.
 */
final class RequestMapping {
    private final SchemaMapping schemas = new SchemaMapping();

    dev.langchain4j.model.chat.request.ChatRequest toLangChain4j(ChatRequest request) {
        List<dev.langchain4j.data.message.ChatMessage> messages =
                new ArrayList<>(request.messages().size() + 1);
        if (!request.systemPrompt().isEmpty()) {
            messages.add(dev.langchain4j.data.message.SystemMessage.from(request.systemPrompt()));
        }
        for (ChatMessage message : request.messages()) {
            messages.add(message(message));
        }
        dev.langchain4j.model.chat.request.ChatRequest.Builder builder =
                dev.langchain4j.model.chat.request.ChatRequest.builder().messages(messages);
        if (!request.tools().isEmpty()) {
            builder.toolSpecifications(toolSpecifications(request.tools()));
        }
        if (request.options().temperature() != null) {
            builder.temperature(request.options().temperature());
        }
        if (request.options().maxOutputTokens() != null) {
            builder.maxOutputTokens(request.options().maxOutputTokens());
        }
        return builder.build();
    }

    /** Tool definitions as LangChain4j's specifications. */
    List<ToolSpecification> toolSpecifications(List<ToolDefinition> tools) {
        List<ToolSpecification> specifications = new ArrayList<>(tools.size());
        for (ToolDefinition tool : tools) {
            specifications.add(ToolSpecification.builder()
                    .name(tool.name())
                    .description(tool.description())
                    .parameters(schemas.parameters(tool.name(), tool.parametersSchemaJson()))
                    .build());
        }
        return specifications;
    }

    private static dev.langchain4j.data.message.ChatMessage message(ChatMessage message) {
        if (message instanceof UserMessage user) {
            return dev.langchain4j.data.message.UserMessage.from(user.text());
        }
        if (message instanceof AssistantMessage assistant) {
            return assistant(assistant);
        }
        if (message instanceof ToolResultMessage result) {
            return dev.langchain4j.data.message.ToolExecutionResultMessage.builder()
                    .id(result.toolCallId())
                    .toolName(result.toolName())
                    .text(result.text())
                    .isError(result.isError())
                    .build();
        }
        return dev.langchain4j.data.message.SystemMessage.from(((SystemMessage) message).text());
    }

    private static AiMessage assistant(AssistantMessage assistant) {
        List<ToolExecutionRequest> requests =
                new ArrayList<>(assistant.toolCalls().size());
        for (ToolCall call : assistant.toolCalls()) {
            requests.add(ToolExecutionRequest.builder()
                    .id(call.id())
                    .name(call.name())
                    .arguments(call.argumentsJson())
                    .build());
        }
        AiMessage.Builder builder = AiMessage.builder().toolExecutionRequests(requests);
        if (!assistant.text().isEmpty() || requests.isEmpty()) {
            builder.text(assistant.text());
        }
        return builder.build();
    }
}
