package dev.taskagent.task;

import java.util.Objects;

/**
 * Enforces {@link Task#MAX_TEXT_LENGTH} on free text (descriptions, progress, preferences, comments,
 * steps).
 *
 * <p>Thread-safe (stateless).
 */
public final class TextLimits {
    private TextLimits() {}

    /**
     * Checks that a text is not null and not longer than {@link Task#MAX_TEXT_LENGTH}.
     *
     * @param text the text
     * @param name the field's name, for the message
     * @return the text
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if {@code text} is too long
     */
    public static String check(String text, String name) {
        Objects.requireNonNull(text, name);
        if (text.length() > Task.MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException(
                    name + " is " + text.length() + " characters long; the limit is " + Task.MAX_TEXT_LENGTH);
        }
        return text;
    }
}
