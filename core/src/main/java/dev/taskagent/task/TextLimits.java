package dev.taskagent.task;

import dev.taskagent.internal.StorableText;
import java.util.Objects;

/**
 * The limits every text of a task obeys, checked in one place so that every store accepts and refuses
 * the same input: free text (descriptions, progress, preferences, comments, links, steps) is at most
 * {@link Task#MAX_TEXT_LENGTH} characters, names and ids (session ids, agent names, message ids) at most
 * {@link Task#MAX_ID_LENGTH}; no text holds a NUL character (U+0000) or an unpaired UTF-16
 * surrogate, which some databases refuse or silently replace; and agent names hold no control character.
 *
 * <p>Thread-safe (stateless).
 */
public final class TextLimits {
    private TextLimits() {}

    /**
     * Checks a free text: not null, not longer than {@link Task#MAX_TEXT_LENGTH}, and storable.
     *
     * @param text the text; may be blank
     * @param name the field's name, for the message
     * @return the text
     * @throws NullPointerException if {@code text} is null
     * @throws IllegalArgumentException if {@code text} is too long or holds a NUL character or an unpaired
     *     surrogate; the message names the field
     */
    public static String check(String text, String name) {
        Objects.requireNonNull(text, name);
        if (text.length() > Task.MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException(
                    name + " is " + text.length() + " characters long; the limit is " + Task.MAX_TEXT_LENGTH);
        }
        return checkStorable(text, name);
    }

    /**
     * Checks a name or id (session id, agent name, message id): not null, not blank, not longer than
     * {@link Task#MAX_ID_LENGTH}, and storable.
     *
     * @param value the name
     * @param name the field's name, for the message
     * @return the name
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is blank, too long, or holds a NUL character or an
     *     unpaired surrogate; the message names the field
     */
    public static String checkName(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        if (value.length() > Task.MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    name + " is " + value.length() + " characters long; the limit is " + Task.MAX_ID_LENGTH);
        }
        return checkStorable(value, name);
    }

    /**
     * Checks an agent name (assignee, author, creator, claimer): a {@linkplain #checkName(String, String)
     * name} that is also one line of printable text, without control characters (C0, DEL, C1; newlines
     * and tabs included), since agent names are shown in tool results and logs.
     *
     * @param value the agent name
     * @param name the field's name, for the message
     * @return the agent name
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is blank, too long, holds a NUL character or an
     *     unpaired surrogate, or a control character; the message names the field
     */
    public static String checkAgentName(String value, String name) {
        checkName(value, name);
        StorableText.controlCharacter(value).ifPresent(problem -> {
            throw new IllegalArgumentException(
                    name + " contains " + problem + "; an agent name is one line of printable text, remove it");
        });
        return value;
    }

    /**
     * Checks a task id: the ids a store assigns are positive.
     *
     * @param taskId the id
     * @return the id
     * @throws IllegalArgumentException if not positive
     */
    public static long checkTaskId(long taskId) {
        if (taskId <= 0) {
            throw new IllegalArgumentException("taskId must be positive, was " + taskId);
        }
        return taskId;
    }

    private static String checkStorable(String text, String name) {
        StorableText.problem(text).ifPresent(problem -> {
            throw new IllegalArgumentException(name + " contains " + problem + ", which no store can keep; remove it");
        });
        return text;
    }
}
