package dev.taskagent.spring.ai;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.model.Generation;

/**
 * Collects the responses of one Spring AI stream into a taskagent {@link ChatResponse}: text deltas in order,
 * the tool calls (Spring AI's models emit each call whole, once its fragments are complete), the last finish
 * reason and the last usage reported.
 *
 * <p>Not thread-safe: one instance per stream, fed on the thread that reads it.
 */
final class StreamAccumulator {
    private final StringBuilder text = new StringBuilder();
    private final List<ToolCall> toolCalls = new ArrayList<>();
    private String finishReason;
    private TokenUsage usage = TokenUsage.ZERO;
    private int responses;

    /**
     * Takes the next response of the stream.
     *
     * @return the text it adds, empty if none
     * @throws ResponseMapping.InvalidAnswerException if a tool call lacks its id or name
     */
    String accept(org.springframework.ai.chat.model.ChatResponse response) {
        responses++;
        TokenUsage reported = ResponseMapping.usage(response);
        if (reported.totalTokens() > 0) {
            usage = reported;
        }
        Generation generation = response.getResult();
        if (generation == null) {
            return "";
        }
        toolCalls.addAll(ResponseMapping.toolCalls(generation));
        String reason = generation.getMetadata().getFinishReason();
        if (reason != null && !reason.isBlank()) {
            finishReason = reason;
        }
        String delta = ResponseMapping.text(generation);
        text.append(delta);
        return delta;
    }

    /**
     * Builds the response once the stream has ended.
     *
     * @throws ResponseMapping.InvalidAnswerException if the stream carried no response at all
     */
    ChatResponse toResponse() {
        if (responses == 0) {
            throw new ResponseMapping.InvalidAnswerException("the stream ended without any response");
        }
        return new ChatResponse(
                text.toString(), toolCalls, ResponseMapping.finishReason(finishReason, !toolCalls.isEmpty()), usage);
    }
}
