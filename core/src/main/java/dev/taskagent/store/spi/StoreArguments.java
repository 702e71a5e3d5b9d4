package dev.taskagent.store.spi;

import dev.taskagent.task.Task;
import dev.taskagent.task.TextLimits;
import java.util.List;
import java.util.Objects;

/**
 * The argument checks of rules TS-8.1 to TS-8.3, shared by store implementations so that every store refuses bad
 * input with the same messages before writing anything.
 *
 * <p>Thread-safe (stateless).
 */
public final class StoreArguments {
    private StoreArguments() {}

    /**
     * Checks a session id.
     *
     * @param sessionId the id
     * @return the id
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if blank, longer than {@link Task#MAX_ID_LENGTH}, or holding a NUL
     *     character or an unpaired surrogate
     */
    public static String sessionId(String sessionId) {
        return TextLimits.checkName(sessionId, "sessionId");
    }

    /**
     * Checks an agent name (assignee, author).
     *
     * @param value the name
     * @param what the parameter's name, for the message
     * @return the name
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if blank, longer than {@link Task#MAX_ID_LENGTH}, or holding a NUL
     *     character, an unpaired surrogate or a control character (TS-8.3)
     */
    public static String name(String value, String what) {
        return TextLimits.checkAgentName(value, what);
    }

    /**
     * Checks the request id of an append (TS-5.5): a name, checked as an idempotency key is.
     *
     * @param requestId the id
     * @return the id
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if blank, longer than {@link Task#MAX_ID_LENGTH}, or holding a NUL
     *     character, an unpaired surrogate or a control character; the message starts with {@code requestId}
     */
    public static String requestId(String requestId) {
        return TextLimits.checkOneLine(requestId, "requestId", "a request id");
    }

    /**
     * Checks a task id.
     *
     * @param taskId the id
     * @return the id
     * @throws IllegalArgumentException if not positive
     */
    public static long taskId(long taskId) {
        return TextLimits.checkTaskId(taskId);
    }

    /**
     * Checks a free text that must not be blank (progress, comment).
     *
     * @param text the text
     * @param what the parameter's name, for the message
     * @return the text
     * @throws NullPointerException if null
     * @throws IllegalArgumentException if blank, longer than {@link Task#MAX_TEXT_LENGTH}, or holding a
     *     NUL character or an unpaired surrogate
     */
    public static String text(String text, String what) {
        Objects.requireNonNull(text, what);
        if (text.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return TextLimits.check(text, what);
    }

    /**
     * Checks an insert position.
     *
     * @param afterOrder the position after which to insert
     * @return the position
     * @throws IllegalArgumentException if negative
     */
    public static int afterOrder(int afterOrder) {
        if (afterOrder < 0) {
            throw new IllegalArgumentException("afterOrder must not be negative, was " + afterOrder);
        }
        return afterOrder;
    }

    /**
     * Checks a list of message ids.
     *
     * @param messageIds the ids
     * @return an immutable copy
     * @throws NullPointerException if the list or an element is null
     * @throws IllegalArgumentException if an id is blank or longer than {@link Task#MAX_ID_LENGTH}
     */
    public static List<String> messageIds(List<String> messageIds) {
        List<String> copy = List.copyOf(messageIds);
        copy.forEach(id -> TextLimits.checkName(id, "messageId"));
        return copy;
    }
}
