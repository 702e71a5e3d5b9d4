package dev.taskagent.llm.openai;

import com.openai.errors.OpenAIInvalidDataException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Collects the chunks of one streamed completion into a {@link ChatResponse}: text deltas, tool-call
 * fragments (joined by their index), the finish reason and the usage chunk.
 *
 * <p>Written here rather than taken from the SDK's {@code ChatCompletionAccumulator} because that one
 * skips the choices of a chunk that also carries usage (some compatible servers send both in the last
 * chunk) and refuses chunks after the usage chunk. Only the first choice is read: requests never ask
 * for more than one.
 *
 * <p>Not thread-safe: one instance per stream, fed on the thread that reads it.
 */
final class StreamAccumulator {
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder refusal = new StringBuilder();
    private final Map<Long, PartialToolCall> toolCalls = new TreeMap<>();
    private Optional<String> finishReason = Optional.empty();
    private TokenUsage usage = TokenUsage.ZERO;
    private int chunks;

    /**
     * Takes the next chunk.
     *
     * @return the text it adds, empty if none
     * @throws OpenAIInvalidDataException if the chunk lacks a field the protocol requires
     */
    String accept(ChatCompletionChunk chunk) {
        chunks++;
        if (chunk.usage().isPresent()) {
            usage = CompletionMapping.usage(chunk.usage());
        }
        String added = "";
        for (ChatCompletionChunk.Choice choice : chunk.choices()) {
            if (choice._index().asKnown().orElse(0L) != 0L) {
                continue;
            }
            ChatCompletionChunk.Choice.Delta delta = choice.delta();
            String content = delta.content().orElse("");
            text.append(content);
            added += content;
            delta.refusal().ifPresent(refusal::append);
            List<ChatCompletionChunk.Choice.Delta.ToolCall> fragments =
                    delta.toolCalls().orElse(List.of());
            for (int position = 0; position < fragments.size(); position++) {
                ChatCompletionChunk.Choice.Delta.ToolCall fragment = fragments.get(position);
                long index = fragment._index().asKnown().orElse((long) position);
                toolCalls.computeIfAbsent(index, key -> new PartialToolCall()).add(fragment);
            }
            Optional<String> reason = choice.finishReason().map(ChatCompletionChunk.Choice.FinishReason::asString);
            if (reason.isPresent()) {
                finishReason = reason;
            }
        }
        return added;
    }

    /**
     * Builds the response once the stream has ended.
     *
     * @throws OpenAIInvalidDataException if the stream was empty, ended before the model finished, or a
     *     tool call never got its id or name
     */
    ChatResponse toResponse() {
        if (chunks == 0) {
            throw new OpenAIInvalidDataException("the stream ended without any chunk");
        }
        if (finishReason.isEmpty()) {
            throw new OpenAIInvalidDataException(
                    "the stream ended before a chunk with a finish_reason; the connection was probably cut");
        }
        List<ToolCall> calls = new ArrayList<>();
        toolCalls.forEach((index, partial) -> calls.add(partial.toToolCall(index)));
        String answer = text.length() > 0 ? text.toString() : refusal.toString();
        return new ChatResponse(answer, calls, CompletionMapping.finishReason(finishReason), usage);
    }

    /** One tool call while its fragments arrive: the first carries id and name, all carry arguments. */
    private static final class PartialToolCall {
        private String id;
        private String name;
        private final StringBuilder arguments = new StringBuilder();

        void add(ChatCompletionChunk.Choice.Delta.ToolCall fragment) {
            fragment.id().filter(value -> !value.isEmpty()).ifPresent(value -> {
                if (id == null) {
                    id = value;
                }
            });
            fragment.function().ifPresent(function -> {
                function.name().filter(value -> !value.isEmpty()).ifPresent(value -> {
                    if (name == null) {
                        name = value;
                    }
                });
                function.arguments().ifPresent(arguments::append);
            });
        }

        ToolCall toToolCall(long index) {
            if (id == null || name == null) {
                throw new OpenAIInvalidDataException(
                        "streamed tool call #" + index + " never got its " + (id == null ? "id" : "function name"));
            }
            return new ToolCall(id, name, arguments.toString());
        }
    }
}
