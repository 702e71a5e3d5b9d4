package dev.taskagent.llm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ChatModel} that replays a script of responses and records every request: for the library's
 * own tests, for users' tests, and for offline demos.
 *
 * <pre>{@code
 * ScriptedChatModel model = ScriptedChatModel.builder()
 *         .respond(ScriptedChatModel.toolCalls(
 *                 ScriptedChatModel.call("insert_task", "{\"after_task_order\":0,\"task_description\":\"Book a table\"}"),
 *                 ScriptedChatModel.call("finish", "{}")))
 *         .build();
 * }</pre>
 *
 * <p>Each call takes the next step of the script. A step is a fixed response, a function of the request,
 * or a failure. When the script is exhausted the model throws {@link ChatModelException} (or, with
 * {@link Builder#thenStop()}, answers with an empty text and no tool calls). Streaming hands the text
 * out in chunks of a configurable size, so stream parsers see split lines.
 *
 * <p>Thread-safe: concurrent calls take distinct steps.
 */
public final class ScriptedChatModel implements ChatModel {
    private static final AtomicInteger CALL_IDS = new AtomicInteger();

    private final Deque<Function<ChatRequest, ChatResponse>> script;
    private final List<ChatRequest> requests = new ArrayList<>();
    private final int streamChunkSize;
    private final boolean stopWhenExhausted;

    private ScriptedChatModel(Builder builder) {
        script = new ArrayDeque<>(builder.steps);
        streamChunkSize = builder.streamChunkSize;
        stopWhenExhausted = builder.stopWhenExhausted;
    }

    /**
     * Starts a script.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A tool call with a fresh id.
     *
     * @param name the tool
     * @param argumentsJson the arguments as the model would write them
     * @return the call
     */
    public static ToolCall call(String name, String argumentsJson) {
        return new ToolCall("call_" + CALL_IDS.incrementAndGet(), name, argumentsJson);
    }

    /**
     * A response with tool calls and no text.
     *
     * @param calls the calls, in order
     * @return the response, with finish reason {@link FinishReason#TOOL_CALLS} and a small usage
     */
    public static ChatResponse toolCalls(ToolCall... calls) {
        return new ChatResponse("", List.of(calls), FinishReason.TOOL_CALLS, new TokenUsage(100, 20));
    }

    /**
     * A response with text only.
     *
     * @param text the text
     * @return the response, with finish reason {@link FinishReason#STOP} and a small usage
     */
    public static ChatResponse text(String text) {
        return new ChatResponse(text, List.of(), FinishReason.STOP, new TokenUsage(100, 20));
    }

    @Override
    public ChatResponse chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        Function<ChatRequest, ChatResponse> step;
        synchronized (this) {
            requests.add(request);
            step = script.poll();
        }
        if (step == null) {
            if (stopWhenExhausted) {
                return new ChatResponse("", List.of(), FinishReason.STOP, TokenUsage.ZERO);
            }
            throw new ChatModelException("ScriptedChatModel: the script is exhausted after " + requestCount()
                    + " requests; add more responses to the script");
        }
        return step.apply(request);
    }

    @Override
    public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
        ChatResponse response = chat(request);
        String text = response.text();
        for (int start = 0; start < text.length(); ) {
            int end = Math.min(text.length(), start + streamChunkSize);
            if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end++; // never split a surrogate pair: a real stream delivers whole code points
            }
            listener.onTextDelta(text.substring(start, end));
            start = end;
        }
        return response;
    }

    /** @return every request received so far, in order */
    public synchronized List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    /** @return how many requests were received */
    public synchronized int requestCount() {
        return requests.size();
    }

    /** @return how many scripted steps are left */
    public synchronized int remaining() {
        return script.size();
    }

    /** Builds a {@link ScriptedChatModel}. Not thread-safe. */
    public static final class Builder {
        private final List<Function<ChatRequest, ChatResponse>> steps = new ArrayList<>();
        private int streamChunkSize = 7;
        private boolean stopWhenExhausted;

        private Builder() {}

        /**
         * Adds a fixed response.
         *
         * @param response what the next call returns
         * @return this builder
         */
        public Builder respond(ChatResponse response) {
            Objects.requireNonNull(response, "response");
            steps.add(request -> response);
            return this;
        }

        /**
         * Adds a response computed from the request (to answer according to the tool results so far).
         *
         * @param responder computes the response
         * @return this builder
         */
        public Builder respondWith(Function<ChatRequest, ChatResponse> responder) {
            steps.add(Objects.requireNonNull(responder, "responder"));
            return this;
        }

        /**
         * Adds a failure: the next call throws.
         *
         * @param failure what to throw
         * @return this builder
         */
        public Builder fail(RuntimeException failure) {
            Objects.requireNonNull(failure, "failure");
            steps.add(request -> {
                throw failure;
            });
            return this;
        }

        /**
         * Sets the size of the chunks streaming hands out.
         *
         * @param chars characters per chunk; positive
         * @return this builder
         */
        public Builder streamChunkSize(int chars) {
            if (chars <= 0) {
                throw new IllegalArgumentException("streamChunkSize must be positive, was " + chars);
            }
            streamChunkSize = chars;
            return this;
        }

        /**
         * Makes an exhausted script answer with an empty text and no tool calls instead of throwing.
         *
         * @return this builder
         */
        public Builder thenStop() {
            stopWhenExhausted = true;
            return this;
        }

        /** @return the model */
        public ScriptedChatModel build() {
            return new ScriptedChatModel(this);
        }
    }
}
