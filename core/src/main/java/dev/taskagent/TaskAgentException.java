package dev.taskagent;

/**
 * The root of the exceptions this library throws on purpose, so that one {@code catch} can tell the
 * library's failures from everything else:
 *
 * <ul>
 *   <li>{@link dev.taskagent.store.TaskStoreException}: the storage failed; the unit of work was rolled
 *       back ({@link dev.taskagent.store.CommitOutcomeUnknownException}: or perhaps committed, as the
 *       connection was lost during the commit);
 *   <li>{@link dev.taskagent.task.TaskRefusedException}: the task's state refused the operation (not
 *       found, changed concurrently, not assigned to the caller, complete, archived); nothing was
 *       written;
 *   <li>{@link dev.taskagent.llm.ChatModelException}: a model call failed;
 *   <li>{@link dev.taskagent.tool.ToolArgumentException} and {@link dev.taskagent.tool.ToolExecutionException}:
 *       a tool call's arguments were bad (a soft error for the model), or the tool failed (a hard error);
 *   <li>{@link AddressInUseException}: a server could not listen, as its address and port were taken.
 * </ul>
 *
 * <p>Bad arguments from the host application (a null, a blank name, a negative limit) are reported with
 * the JDK's {@link NullPointerException} and {@link IllegalArgumentException}, as Java libraries do.
 */
public abstract class TaskAgentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, and what to do
     */
    protected TaskAgentException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed, and what to do
     * @param cause the underlying failure
     */
    protected TaskAgentException(String message, Throwable cause) {
        super(message, cause);
    }
}
