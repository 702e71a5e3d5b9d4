package dev.taskagent.tool;

import dev.taskagent.TaskAgentException;
import java.util.Objects;

/** A tool failed in a way the model cannot fix (a hard error): the tool threw something unexpected. */
public final class ToolExecutionException extends TaskAgentException {
    private static final long serialVersionUID = 1L;

    /** The name of the tool that failed. */
    private final String toolName;

    /**
     * Creates the exception.
     *
     * @param toolName the tool that failed
     * @param cause what it threw
     */
    public ToolExecutionException(String toolName, Throwable cause) {
        super("Tool '" + toolName + "' failed: " + cause, cause);
        this.toolName = Objects.requireNonNull(toolName, "toolName");
    }

    /** @return the name of the tool that failed */
    public String toolName() {
        return toolName;
    }
}
