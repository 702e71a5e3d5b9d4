package dev.taskagent.internal;

/**
 * Shortening texts for people and models without ever splitting a character: the one place that cuts
 * descriptions for listings and labels, and values for error messages; and the one place that makes a
 * text of a user or a model safe to put in a log line ({@link #forLog(String)}).
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

    /**
     * Makes a text that came from a user or a model safe for one log line: control characters (C0, DEL,
     * C1), line and paragraph separators, format characters (bidirectional overrides) and unpaired
     * surrogates are written as Java escapes ({@code \n}, {@code \r}, {@code \t}, {@code \u001B}), and a
     * backslash as two, so that the text can neither start a forged log line nor recolour a terminal, and
     * an escape in the log always means an escaped character.
     *
     * @param text the text, or null
     * @return the text on one line; {@code "null"} for null
     */
    public static String forLog(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder escaped = null;
        int length = text.length();
        for (int index = 0; index < length; index++) {
            char c = text.charAt(index);
            String replacement = logEscape(text, index);
            if (replacement == null) {
                if (escaped != null) {
                    escaped.append(c);
                }
                continue;
            }
            if (escaped == null) {
                escaped = new StringBuilder(length + 16).append(text, 0, index);
            }
            escaped.append(replacement);
        }
        return escaped == null ? text : escaped.toString();
    }

    private static String logEscape(String text, int index) {
        char c = text.charAt(index);
        switch (c) {
            case '\\':
                return "\\\\";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                break;
        }
        if (Character.isHighSurrogate(c)
                && index + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(index + 1))) {
            return null;
        }
        if (Character.isLowSurrogate(c) && index > 0 && Character.isHighSurrogate(text.charAt(index - 1))) {
            return null;
        }
        int type = Character.getType(c);
        boolean unsafe = type == Character.CONTROL
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.FORMAT
                || type == Character.SURROGATE;
        return unsafe ? String.format("\\u%04X", (int) c) : null;
    }

    /**
     * An upper estimate of a text's tokens without a tokenizer: its UTF-8 bytes / 3, rounded up. It
     * over-counts English text by about a third for the GPT-4o family's encoding ({@code o200k_base}) and
     * matches texts of three-byte characters.
     *
     * @param text the text
     * @return the estimate; 0 for an empty text
     */
    public static int estimateTokens(String text) {
        return (int) Math.min(Integer.MAX_VALUE, (utf8Bytes(text, text.length()) + 2) / 3);
    }

    /**
     * The end of the longest start of a text whose {@linkplain #estimateTokens estimate} is at most {@code
     * tokens}; never inside a surrogate pair.
     *
     * @param text the text
     * @param tokens the most estimated tokens
     * @return an index into the text, its length when the whole text fits
     */
    public static int endWithinTokens(String text, int tokens) {
        long allowed = 3L * Math.max(0, tokens);
        long bytes = 0;
        for (int index = 0; index < text.length(); index++) {
            int width = utf8Width(text, index);
            if (bytes + width > allowed) {
                return index;
            }
            bytes += width;
            if (width == 4) {
                index++;
            }
        }
        return text.length();
    }

    private static long utf8Bytes(String text, int end) {
        long bytes = 0;
        for (int index = 0; index < end; index++) {
            int width = utf8Width(text, index);
            bytes += width;
            if (width == 4) {
                index++;
            }
        }
        return bytes;
    }

    /** The UTF-8 bytes of the character at the index: 4 for a surrogate pair, counted at its first half. */
    private static int utf8Width(String text, int index) {
        char c = text.charAt(index);
        if (c < 0x80) {
            return 1;
        }
        if (c < 0x800) {
            return 2;
        }
        if (Character.isHighSurrogate(c)
                && index + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(index + 1))) {
            return 4;
        }
        return 3;
    }

    /**
     * Writes a duration as a person reads it, to the largest two units: {@code 250 ms}, {@code 12 s}, {@code
     * 3 min 5 s}, {@code 1 h 2 min}, {@code 2 d 3 h}.
     *
     * @param duration the duration; not negative
     * @return the text
     */
    public static String duration(java.time.Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1_000) {
            return millis + " ms";
        }
        long seconds = duration.toSeconds();
        long[] sizes = {86_400, 3_600, 60, 1};
        String[] units = {"d", "h", "min", "s"};
        for (int unit = 0; unit < sizes.length; unit++) {
            if (seconds >= sizes[unit]) {
                String text = seconds / sizes[unit] + " " + units[unit];
                long rest = unit + 1 < sizes.length ? seconds % sizes[unit] / sizes[unit + 1] : 0;
                return rest == 0 ? text : text + " " + rest + " " + units[unit + 1];
            }
        }
        throw new AssertionError(duration);
    }
}
