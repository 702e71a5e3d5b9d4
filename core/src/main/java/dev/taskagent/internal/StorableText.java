package dev.taskagent.internal;

import java.util.Optional;

/**
 * Finds what no store can keep in a text: a NUL character (PostgreSQL refuses it in text columns) or
 * an unpaired UTF-16 surrogate (PostgreSQL and MariaDB replace it with {@code ?}). Every text the
 * library stores or passes on is checked here, so that every store accepts and refuses the same texts.
 *
 * <p>Thread-safe (stateless).
 */
public final class StorableText {
    private StorableText() {}

    /**
     * Describes the first character of a text that a store cannot keep.
     *
     * @param text the text
     * @return e.g. {@code a NUL character (U+0000) at index 4}, or empty when every character can be
     *     stored
     */
    public static Optional<String> problem(String text) {
        int length = text.length();
        for (int index = 0; index < length; index++) {
            char c = text.charAt(index);
            if (c == '\0') {
                return Optional.of("a NUL character (U+0000) at index " + index);
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c)
                        && index + 1 < length
                        && Character.isLowSurrogate(text.charAt(index + 1))) {
                    index++; // a pair: one supplementary character, such as an emoji
                } else {
                    return Optional.of("an unpaired UTF-16 surrogate (U+" + String.format("%04X", (int) c)
                            + ") at index " + index);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Describes the first control character of a name (C0, DEL or C1, a newline and a tab included): a name
     * is one line of printable text, because it is shown in listings, tool results and logs, where a
     * newline or a terminal escape in it could pass for something else.
     *
     * @param name the name
     * @return e.g. {@code a control character (U+000A) at index 3}, or empty when there is none
     */
    public static Optional<String> controlCharacter(String name) {
        for (int index = 0; index < name.length(); index++) {
            char c = name.charAt(index);
            if (Character.getType(c) == Character.CONTROL) {
                return Optional.of("a control character (U+" + String.format("%04X", (int) c) + ") at index " + index);
            }
        }
        return Optional.empty();
    }
}
