package dev.taskagent.internal;

/**
 * Shortening texts for people and models without ever splitting a character: the one place that cuts
 * descriptions for listings and labels, and values for error messages.
 *
 * <p>Thread-safe (stateless).
 */
public final class Texts {
    /** What a shortened text ends with. */
    public static final String ELLIPSIS = "\u2026";

    private Texts() {}

    /**
     * Shortens a text to at most {@code maxLength} characters, the last of them an ellipsis.
     *
     * @param text the text
     * @param maxLength at least 2
     * @return the text itself when it fits, otherwise its start followed by {@value #ELLIPSIS}
     */
    public static String abbreviate(String text, int maxLength) {
        if (text.length() <= maxLength) {
            return text;
        }
        return text.substring(0, cutIndex(text, maxLength - ELLIPSIS.length())) + ELLIPSIS;
    }

    /**
     * Returns where to cut a text so that the part before the cut ends on a whole character: an index at
     * or one below {@code end}, never between the two halves of a surrogate pair (an emoji, say).
     *
     * @param text the text
     * @param end the wished cut, 0..length
     * @return the index to cut at
     */
    public static int cutIndex(String text, int end) {
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            return end - 1;
        }
        return end;
    }

    /**
     * Puts a text on one line: white space runs become one space, and the ends are stripped.
     *
     * @param text the text
     * @return the text on one line
     */
    public static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }
}
