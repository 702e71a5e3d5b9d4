package dev.taskagent.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageCustomToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.completions.CompletionUsage;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a Chat Completions answer into a {@link ChatResponse}. Stateless.
 *
 * <p>Everything that is not a usable answer is reported as {@link OpenAIInvalidDataException}, which
 * {@link ServiceErrors} turns into the "malformed response" error, like the SDK's own parse failures.
 */
final class CompletionMapping {
    private CompletionMapping() {}

    static ChatResponse toResponse(ChatCompletion completion) {
        List<ChatCompletion.Choice> choices = completion.choices();
        if (choices.isEmpty()) {
            throw new OpenAIInvalidDataException("it has no choices");
        }
        ChatCompletion.Choice choice = choices.get(0);
        ChatCompletionMessage message = choice.message();
        String text = message.content().or(message::refusal).orElse("");
        List<ToolCall> toolCalls = new ArrayList<>();
        for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
            toolCalls.add(toolCall(call));
        }
        FinishReason finishReason =
                finishReason(choice._finishReason().asKnown().map(ChatCompletion.Choice.FinishReason::asString));
        return new ChatResponse(text, toolCalls, finishReason, usage(completion.usage()));
    }

    private static ToolCall toolCall(ChatCompletionMessageToolCall call) {
        if (call.isFunction()) {
            ChatCompletionMessageFunctionToolCall function = call.asFunction();
            return new ToolCall(
                    function.id(),
                    function.function().name(),
                    function.function().arguments());
        }
        if (call.isCustom()) {
            ChatCompletionMessageCustomToolCall custom = call.asCustom();
            return new ToolCall(
                    custom.id(), custom.custom().name(), custom.custom().input());
        }
        // Some compatible servers leave out "type": read the fields the function shape has.
        JsonNode json = call._json().map(value -> value.convert(JsonNode.class)).orElse(MissingNode.getInstance());
        String id = json.path("id").asText("");
        String name = json.path("function").path("name").asText("");
        if (id.isEmpty() || name.isEmpty()) {
            throw new OpenAIInvalidDataException("a tool call has no id or no function name: " + json);
        }
        return new ToolCall(id, name, json.path("function").path("arguments").asText(""));
    }

    static FinishReason finishReason(Optional<String> wireName) {
        return switch (wireName.orElse("").toLowerCase(Locale.ROOT)) {
            case "stop" -> FinishReason.STOP;
            case "tool_calls", "function_call" -> FinishReason.TOOL_CALLS;
            case "length" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    static TokenUsage usage(Optional<CompletionUsage> usage) {
        return usage.map(value -> new TokenUsage(
                        value._promptTokens().asKnown().orElse(0L),
                        value._completionTokens().asKnown().orElse(0L)))
                .orElse(TokenUsage.ZERO);
    }
}
