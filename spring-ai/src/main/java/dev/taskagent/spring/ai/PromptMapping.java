package dev.taskagent.spring.ai;

import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.SystemMessage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * Turns a taskagent {@link ChatRequest} into a Spring AI {@link Prompt} for one Spring AI model.
 *
 * <p>The prompt's options start from the model's own ({@code getOptions().mutate()}, as Spring AI's
 * {@code ChatClient} does), so that they have the type the model requires and keep its configured model name;
 * the request's temperature and output limit override them, and its tools replace any default tool callbacks.
 *
 * <p>Immutable and thread-safe.
 */
final class PromptMapping {
    private final String modelDescription;

    PromptMapping(String modelDescription) {
        this.modelDescription = modelDescription;
    }

    /**
     * Maps the request.
     *
     * @throws ChatModelException if the request offers tools and the model's options cannot carry them
     */
    Prompt toPrompt(ChatRequest request, ChatOptions modelOptions) {
        List<Message> messages = new ArrayList<>();
        if (!request.systemPrompt().isEmpty()) {
            messages.add(new org.springframework.ai.chat.messages.SystemMessage(request.systemPrompt()));
        }
        List<ToolResponseMessage.ToolResponse> pendingResults = new ArrayList<>();
        for (ChatMessage message : request.messages()) {
            if (message instanceof ToolResultMessage result) {
                pendingResults.add(
                        new ToolResponseMessage.ToolResponse(result.toolCallId(), result.toolName(), result.text()));
                continue;
            }
            addToolResults(messages, pendingResults);
            messages.add(toSpringMessage(message));
        }
        addToolResults(messages, pendingResults);
        return new Prompt(messages, options(request, modelOptions));
    }

    // The results of one assistant turn travel in one message, as Spring AI's own tool loop sends them:
    // Anthropic wants every tool_result of a turn in the one user message that follows it.
    private static void addToolResults(List<Message> messages, List<ToolResponseMessage.ToolResponse> results) {
        if (!results.isEmpty()) {
            messages.add(ToolResponseMessage.builder()
                    .responses(List.copyOf(results))
                    .build());
            results.clear();
        }
    }

    private static Message toSpringMessage(ChatMessage message) {
        if (message instanceof SystemMessage system) {
            return new org.springframework.ai.chat.messages.SystemMessage(system.text());
        }
        if (message instanceof UserMessage user) {
            return new org.springframework.ai.chat.messages.UserMessage(user.text());
        }
        if (message instanceof AssistantMessage assistant) {
            List<org.springframework.ai.chat.messages.AssistantMessage.ToolCall> calls = new ArrayList<>();
            for (ToolCall call : assistant.toolCalls()) {
                calls.add(new org.springframework.ai.chat.messages.AssistantMessage.ToolCall(
                        call.id(), "function", call.name(), call.argumentsJson()));
            }
            return org.springframework.ai.chat.messages.AssistantMessage.builder()
                    .content(assistant.text())
                    .toolCalls(calls)
                    .build();
        }
        throw new IllegalArgumentException(
                "Unknown message type " + message.getClass().getName());
    }

    private ChatOptions options(ChatRequest request, ChatOptions modelOptions) {
        ChatOptions.Builder<?> builder = modelOptions.mutate();
        if (request.options().temperature() != null) {
            builder.temperature(request.options().temperature());
        }
        if (request.options().maxOutputTokens() != null) {
            builder.maxTokens(request.options().maxOutputTokens());
        }
        if (builder instanceof ToolCallingChatOptions.Builder<?> toolOptions) {
            List<ToolCallback> offered = new ArrayList<>();
            request.tools().forEach(tool -> offered.add(new OfferedToolCallback(tool)));
            toolOptions.toolCallbacks(offered);
        } else if (!request.tools().isEmpty()) {
            throw new ChatModelException("The Spring AI chat model " + modelDescription
                    + " cannot be offered tools: its options ("
                    + modelOptions.getClass().getName()
                    + ") are not ToolCallingChatOptions. Use a Spring AI model that supports tool calling.");
        }
        return builder.build();
    }
}
