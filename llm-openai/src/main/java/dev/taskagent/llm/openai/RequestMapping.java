package dev.taskagent.llm.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.SystemMessage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns a {@link ChatRequest} into Chat Completions parameters. Immutable and thread-safe. */
final class RequestMapping {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String model;
    private final boolean legacyMaxTokens;

    RequestMapping(String model, boolean legacyMaxTokens) {
        this.model = model;
        this.legacyMaxTokens = legacyMaxTokens;
    }

    /**
     * Maps the request; the caller may add streaming options before building.
     *
     * @throws IllegalArgumentException if a tool's parameter schema is not a JSON object
     */
    ChatCompletionCreateParams.Builder toParams(ChatRequest request) {
        ChatCompletionCreateParams.Builder params =
                ChatCompletionCreateParams.builder().model(model);
        if (!request.systemPrompt().isEmpty()) {
            params.addSystemMessage(request.systemPrompt());
        }
        for (ChatMessage message : request.messages()) {
            addMessage(params, message);
        }
        for (ToolDefinition tool : request.tools()) {
            params.addTool(ChatCompletionFunctionTool.builder()
                    .function(FunctionDefinition.builder()
                            .name(tool.name())
                            .description(tool.description())
                            .parameters(parameters(tool))
                            .build())
                    .build());
        }
        addOptions(params, request.options(), !request.tools().isEmpty());
        return params;
    }

    private static void addMessage(ChatCompletionCreateParams.Builder params, ChatMessage message) {
        if (message instanceof SystemMessage system) {
            params.addSystemMessage(system.text());
        } else if (message instanceof UserMessage user) {
            params.addUserMessage(user.text());
        } else if (message instanceof AssistantMessage assistant) {
            params.addMessage(assistantMessage(assistant));
        } else if (message instanceof ToolResultMessage result) {
            params.addMessage(ChatCompletionToolMessageParam.builder()
                    .toolCallId(result.toolCallId())
                    .content(result.text())
                    .build());
        } else {
            throw new IllegalArgumentException(
                    "Unknown message type " + message.getClass().getName());
        }
    }

    private static ChatCompletionAssistantMessageParam assistantMessage(AssistantMessage assistant) {
        ChatCompletionAssistantMessageParam.Builder builder = ChatCompletionAssistantMessageParam.builder();
        // A message that only calls tools carries no content: OpenAI accepts that, and some compatible
        // servers reject an empty string beside tool calls.
        if (!assistant.text().isEmpty() || assistant.toolCalls().isEmpty()) {
            builder.content(assistant.text());
        }
        for (ToolCall call : assistant.toolCalls()) {
            builder.addToolCall(ChatCompletionMessageFunctionToolCall.builder()
                    .id(call.id())
                    .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                            .name(call.name())
                            .arguments(call.argumentsJson())
                            .build())
                    .build());
        }
        return builder.build();
    }

    private void addOptions(ChatCompletionCreateParams.Builder params, ChatOptions options, boolean hasTools) {
        if (options.temperature() != null) {
            params.temperature(options.temperature());
        }
        if (options.maxOutputTokens() != null) {
            long limit = options.maxOutputTokens();
            if (legacyMaxTokens) {
                setLegacyMaxTokens(params, limit);
            } else {
                params.maxCompletionTokens(limit);
            }
        }
        // OpenAI rejects parallel_tool_calls in a request without tools.
        if (hasTools) {
            params.parallelToolCalls(options.parallelToolCalls());
        }
    }

    // Deprecated by OpenAI in favour of max_completion_tokens, but the only limit that Ollama, LM Studio
    // and older OpenAI-compatible servers read.
    @SuppressWarnings("deprecation")
    private static void setLegacyMaxTokens(ChatCompletionCreateParams.Builder params, long limit) {
        params.maxTokens(Long.valueOf(limit));
    }

    private static FunctionParameters parameters(ToolDefinition tool) {
        JsonNode schema;
        try {
            schema = JSON.readTree(tool.parametersSchemaJson());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "Tool '" + tool.name() + "' has a parameters schema that is not valid JSON ("
                            + e.getOriginalMessage() + "); give it an object schema, e.g. from JsonSchema.object()",
                    e);
        }
        if (schema == null || !schema.isObject()) {
            throw new IllegalArgumentException("Tool '" + tool.name()
                    + "' has a parameters schema that is not a JSON object; give it an object schema,"
                    + " e.g. from JsonSchema.object()");
        }
        Map<String, JsonValue> properties = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : schema.properties()) {
            properties.put(field.getKey(), JsonValue.fromJsonNode(field.getValue()));
        }
        return FunctionParameters.builder()
                .putAllAdditionalProperties(properties)
                .build();
    }
}
