package dev.taskagent.langchain4j;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.TextDeltaListener;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Receives a LangChain4j stream, which calls back on the HTTP client's threads, and replays it on the
 * thread that waits for it: text deltas in order to taskagent's listener (its contract: the calling thread),
 * then the complete response or the failure.
 *
 * <p>One instance per streamed call.
 */
final class StreamBridge implements StreamingChatResponseHandler {
    /** What the stream said, in order: a text delta, the end, or a failure. */
    private sealed interface Signal permits Delta, Complete, Failed {}

    private record Delta(String text) implements Signal {}

    private record Complete(ChatResponse response) implements Signal {}

    private record Failed(Throwable failure) implements Signal {}

    private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();

    @Override
    public void onPartialResponse(String partialResponse) {
        if (partialResponse != null && !partialResponse.isEmpty()) {
            signals.add(new Delta(partialResponse));
        }
    }

    @Override
    public void onCompleteResponse(ChatResponse completeResponse) {
        signals.add(new Complete(completeResponse));
    }

    @Override
    public void onError(Throwable error) {
        signals.add(new Failed(error));
    }

    /**
     * Hands the deltas to the listener as they come and returns the complete response.
     *
     * @throws Throwable what the stream failed with
     */
    ChatResponse await(TextDeltaListener listener, Duration timeout, String model) throws Throwable {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Signal signal = left > 0 ? signals.poll(left, TimeUnit.NANOSECONDS) : null;
            if (signal == null) {
                throw new ChatModelException("The LangChain4j model " + model + " did not finish its streamed answer"
                        + " within " + timeout.toSeconds() + " s");
            }
            if (signal instanceof Delta delta) {
                listener.onTextDelta(delta.text());
            } else if (signal instanceof Complete complete) {
                return complete.response();
            } else {
                throw ((Failed) signal).failure();
            }
        }
    }
}
