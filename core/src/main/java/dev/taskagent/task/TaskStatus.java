package dev.taskagent.task;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The lifecycle state of a {@link Task}.
 *
 * <p>On the wire (tool arguments, JSON, SQL) a status is written in lower case: {@code pending},
 * {@code running}, {@code success}, {@code failed}, {@code cancelled}. The queue vocabulary maps onto it:
 * <em>idle</em> = {@link #PENDING}, <em>working</em> = {@link #RUNNING}, <em>complete</em> = {@link #SUCCESS}
 * or {@link #FAILED}; a task no one should work on any more is {@link #CANCELLED}.
 *
 * <p>Thread-safe (an enum).
 */
public enum TaskStatus {
    /** Not started yet. */
    PENDING,
    /** Work began, or restarted after a failure. */
    RUNNING,
    /** Confirmed done. Terminal. */
    SUCCESS,
    /** Explicit errors, abandonment or reported failure. Terminal. */
    FAILED,
    /**
     * Called off before it ended: no one works on it any more, and the holder of its claim is refused its
     * next write. Terminal; its dependants stay blocked. Set by {@code TaskQueue.cancel}, never by a
     * completion.
     */
    CANCELLED;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    /**
     * Returns the lower-case name used on the wire.
     *
     * @return {@code pending}, {@code running}, {@code success}, {@code failed} or {@code cancelled}
     */
    public String wireName() {
        return wireName;
    }

    /**
     * Tells whether a task in this status has ended (success, failed or cancelled).
     *
     * @return true for {@link #SUCCESS}, {@link #FAILED} and {@link #CANCELLED}
     */
    public boolean isTerminal() {
        return this == SUCCESS || this == FAILED || this == CANCELLED;
    }

    /**
     * Tells whether a claim may end with this status: success or failed, not cancelled.
     *
     * @return true for {@link #SUCCESS} and {@link #FAILED}
     */
    public boolean isOutcome() {
        return this == SUCCESS || this == FAILED;
    }

    /**
     * Parses a wire name, ignoring case and surrounding white space.
     *
     * @param value the text to parse
     * @return the status
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is not one of the wire names
     */
    public static TaskStatus fromWireName(String value) {
        Objects.requireNonNull(value, "value");
        String normalized = value.strip().toLowerCase(Locale.ROOT);
        for (TaskStatus status : values()) {
            if (status.wireName.equals(normalized)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Unknown task status '" + value + "'; expected one of " + wireNames());
    }

    /**
     * Returns the wire names, comma separated, for error messages.
     *
     * @return {@code "pending, running, success, failed, cancelled"}
     */
    public static String wireNames() {
        return Arrays.stream(values()).map(TaskStatus::wireName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return wireName;
    }
}
