package dev.taskagent.task;

import java.util.Optional;

/**
 * A task could not be moved because it is not assigned to the agent that tried to hand it over; nothing
 * was written.
 *
 * <p>Its message is the {@code move_task} error text: {@code Task 7 is not assigned to alice (currently
 * assigned to: bob)}, or {@code (currently assigned to: no one)}.
 */
public final class TaskNotAssignedException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The agent that tried to move the task. */
    private final String agent;
    /** Who holds the task, or null when no one does. */
    private final String currentAssignee;

    /**
     * Creates the exception.
     *
     * @param taskId the task
     * @param agent the agent that claimed to hold the task
     * @param currentAssignee who holds it, or null when no one does
     */
    public TaskNotAssignedException(long taskId, String agent, String currentAssignee) {
        super(
                taskId,
                "Task " + taskId + " is not assigned to " + agent + " (currently assigned to: "
                        + (currentAssignee == null ? "no one" : currentAssignee) + ")");
        this.agent = agent;
        this.currentAssignee = currentAssignee;
    }

    /** @return the agent that tried to move the task */
    public String agent() {
        return agent;
    }

    /** @return who holds the task, or empty when it is assigned to no one */
    public Optional<String> currentAssignee() {
        return Optional.ofNullable(currentAssignee);
    }
}
