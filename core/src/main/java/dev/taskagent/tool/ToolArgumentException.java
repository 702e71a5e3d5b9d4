package dev.taskagent.tool;

import dev.taskagent.TaskAgentException;

/**
 * A tool call's arguments are missing, mistyped or malformed. The {@link Toolbox} turns it into a soft
 * error whose text is this exception's message, so the message is written for the model: what was wrong
 * and what to send instead.
 */
public final class ToolArgumentException extends TaskAgentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message for the model: what was wrong and what to send instead
     */
    public ToolArgumentException(String message) {
        super(message);
    }
}
