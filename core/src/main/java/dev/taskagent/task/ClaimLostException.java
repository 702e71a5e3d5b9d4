package dev.taskagent.task;

/**
 * A worker wrote about a claim it no longer holds: the task is not running under that agent and attempt
 * any more (its lease expired and it was reclaimed, it was moved, completed, released or cancelled). Nothing was
 * written. The worker must stop working on the task and must not complete it; the newer claim, if any,
 * stands.
 *
 * <p>Its message is the error text of the queue's tools, e.g. {@code Task 7 is no longer claimed by
 * alice in attempt 2: it is running under bob in attempt 3. Stop working on it; do not complete it.}
 */
public final class ClaimLostException extends TaskRefusedException {
    private static final long serialVersionUID = 1L;

    /** The agent that named the lost claim. */
    private final String agent;
    /** The attempt the lost claim had. */
    private final int attempt;
    /** Whether the task was cancelled. */
    private final boolean cancelled;

    /**
     * Creates the exception.
     *
     * @param task the task as it is now
     * @param agent the agent that named the claim
     * @param attempt the attempt it named
     */
    public ClaimLostException(Task task, String agent, int attempt) {
        super(
                task.id(),
                "Task " + task.id() + " is no longer claimed by " + agent + " in attempt " + attempt + ": "
                        + describe(task) + ". Stop working on it; do not complete it.");
        this.agent = agent;
        this.attempt = attempt;
        this.cancelled = task.status() == TaskStatus.CANCELLED;
    }

    /**
     * Tells whether the claim was lost because the task was cancelled, rather than taken back or moved.
     *
     * @return true if the task is cancelled
     */
    public boolean cancelled() {
        return cancelled;
    }

    private static String describe(Task task) {
        if (task.status() == TaskStatus.CANCELLED) {
            return "it was cancelled";
        }
        if (task.status() == TaskStatus.RUNNING) {
            return "it is running under " + (task.assignee() == null ? "no one" : task.assignee()) + " in attempt "
                    + task.attempt();
        }
        return "it is " + task.status().wireName() + (task.archived() ? " and archived" : "")
                + (task.assignee() == null ? "" : ", assigned to " + task.assignee());
    }

    /**
     * Returns the agent that named the lost claim.
     *
     * @return the agent
     */
    public String agent() {
        return agent;
    }

    /**
     * Returns the attempt the lost claim had.
     *
     * @return the attempt
     */
    public int attempt() {
        return attempt;
    }
}
