package dev.taskagent.steps;

/**
 * Receives the completion markers ({@code ✓ STEP n: text}) a {@link StepMarkerParser} finds in a model's
 * output, once per step, in the order they arrive. Called on the thread that feeds the parser.
 */
@FunctionalInterface
public interface StepMarkerListener {
    /**
     * Handles a step the model reported done. An exception thrown here reaches the caller of the
     * parser's {@code accept} or {@code endOfStream} method.
     *
     * @param stepNumber the step's number, within 1..the parser's step count
     * @param markerText the text after the marker's colon, trimmed and cut at {@value
     *     StepMarkerParser#MAX_MARKER_TEXT_LENGTH} characters; may be empty
     */
    void onStepMarker(int stepNumber, String markerText);
}
