package dev.taskagent.spring.ai;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.Generation;

/**
 * Reads Spring AI's answers: text, tool calls, finish reason and usage. Only the first generation is read:
 * requests never ask for more than one.
 *
 * <p>Stateless and thread-safe.
 */
final class ResponseMapping {
    private ResponseMapping() {}

    /**
     * Maps a whole answer.
     *
     * @throws InvalidAnswerException if a tool call lacks its id or name
     */
    static ChatResponse toResponse(org.springframework.ai.chat.model.ChatResponse response) {
        Generation generation = response.getResult();
        String text = generation == null ? "" : text(generation);
        List<ToolCall> calls = generation == null ? List.of() : toolCalls(generation);
        String reason = generation == null ? null : generation.getMetadata().getFinishReason();
        return new ChatResponse(text, calls, finishReason(reason, !calls.isEmpty()), usage(response));
    }

    static String text(Generation generation) {
        String text = generation.getOutput().getText();
        return text == null ? "" : text;
    }

    static List<ToolCall> toolCalls(Generation generation) {
        List<ToolCall> calls = new ArrayList<>();
        for (org.springframework.ai.chat.messages.AssistantMessage.ToolCall call :
                generation.getOutput().getToolCalls()) {
            if (call.id() == null
                    || call.id().isEmpty()
                    || call.name() == null
                    || call.name().isEmpty()) {
                throw new InvalidAnswerException("a tool call has no id or no name: " + call);
            }
            // The arguments exactly as the model wrote them: the Toolbox reports malformed JSON to the model.
            calls.add(new ToolCall(call.id(), call.name(), call.arguments() == null ? "" : call.arguments()));
        }
        return calls;
    }

    /**
     * Maps the provider's finish reason as Spring AI passes it on: OpenAI's names ({@code STOP}, {@code
     * TOOL_CALLS}, {@code LENGTH}, {@code CONTENT_FILTER}), Anthropic's ({@code end_turn}, {@code tool_use},
     * {@code max_tokens}, {@code stop_sequence}, {@code refusal}), and the like of other providers. A missing
     * reason beside tool calls means that the model wants them run.
     */
    static FinishReason finishReason(String reason, boolean hasToolCalls) {
        String name = reason == null ? "" : reason.strip().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "stop", "end_turn", "stop_sequence", "completed" -> FinishReason.STOP;
            case "tool_calls", "tool_use", "function_call" -> FinishReason.TOOL_CALLS;
            case "length", "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "content_filter", "refusal", "safety" -> FinishReason.CONTENT_FILTER;
            case "" -> hasToolCalls ? FinishReason.TOOL_CALLS : FinishReason.OTHER;
            default -> FinishReason.OTHER;
        };
    }

    /** The usage a response reports, zero when it reports none. */
    static TokenUsage usage(org.springframework.ai.chat.model.ChatResponse response) {
        Usage usage = response.getMetadata().getUsage();
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        return new TokenUsage(count(usage.getPromptTokens()), count(usage.getCompletionTokens()));
    }

    private static long count(Integer tokens) {
        return tokens == null || tokens < 0 ? 0 : tokens;
    }

    /** The model's answer could not be read as a response; {@link Failures} reports it. */
    static final class InvalidAnswerException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidAnswerException(String message) {
            super(message);
        }
    }
}
