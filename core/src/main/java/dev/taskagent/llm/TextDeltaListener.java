package dev.taskagent.llm;

/** Receives text as a streaming model writes it. Called on the thread that runs the stream. */
@FunctionalInterface
public interface TextDeltaListener {
    /**
     * Handles the next piece of text.
     *
     * @param delta a piece of the answer, possibly a fraction of a word or of a line
     */
    void onTextDelta(String delta);
}
