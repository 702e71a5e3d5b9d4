package dev.taskagent.llm;

import dev.taskagent.TaskAgentException;

/** A model call failed: the service was unreachable, refused the request, or answered nonsense. */
public class ChatModelException extends TaskAgentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and what to do; never contains credentials
     */
    public ChatModelException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed and what to do; never contains credentials
     * @param cause the client's exception
     */
    public ChatModelException(String message, Throwable cause) {
        super(message, cause);
    }
}
