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
}
