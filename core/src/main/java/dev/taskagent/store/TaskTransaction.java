package dev.taskagent.store;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.StaleTaskException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskUpdate;
import java.util.List;
import java.util.Optional;

/**
 * The reads and writes of one unit of work of a {@link TaskStore}. The rules cited ({@code TS-…}) are
 * those of {@link TaskStore}.
 *
 * <p>Not thread-safe: use it only on the thread that runs the unit of work, and only until the work
 * returns (TS-1.4).
 */
public interface TaskTransaction {

    /**
     * Reads a task with every field (TS-2.1).
     *
     * @param taskId the id; positive
     * @return the task, or empty when there is no task with that id
     * @throws IllegalArgumentException if {@code taskId} is not positive
     */
    Optional<Task> findTask(long taskId);

    /**
     * Lists a session's tasks by order (TS-2.2).
     *
     * @param sessionId the session; not blank
     * @return the tasks, order 1 first; empty for an unknown session
     * @throws IllegalArgumentException if {@code sessionId} is blank
     */
    List<Task> listTasks(String sessionId);

    /**
     * Reads the task at a position of a session (TS-2.3).
     *
     * @param sessionId the session; not blank
     * @param order the 1-based position
     * @return the task, or empty when the position is out of range
     */
    default Optional<Task> findTaskByOrder(String sessionId, int order) {
        List<Task> tasks = listTasks(sessionId);
        return order >= 1 && order <= tasks.size() ? Optional.of(tasks.get(order - 1)) : Optional.empty();
    }

    /**
     * Lists an assignee's non-archived tasks of every status in claim order (TS-2.5).
     *
     * @param assignee the agent's name; not blank
     * @return the tasks, highest priority first, then oldest, then lowest id
     */
    List<Task> listQueue(String assignee);

    /**
     * Lists the message ids linked to a session's planning section (TS-6.3).
     *
     * @param sessionId the session; not blank
     * @return the ids in link order; empty when the session has no planning section
     */
    List<String> planningMessageIds(String sessionId);

    /**
     * Inserts a pending task after a position of its session, moving later tasks down (TS-3).
     *
     * @param task what to create
     * @param afterOrder 0 to insert at the start; at or past the end to append
     * @return the new task
     * @throws IllegalArgumentException if {@code afterOrder} is negative
     */
    Task insertTask(NewTask task, int afterOrder);

    /**
     * Appends a pending task at the end of its session (TS-3.2).
     *
     * @param task what to create
     * @return the new task
     */
    default Task appendTask(NewTask task) {
        return insertTask(task, Integer.MAX_VALUE);
    }

    /**
     * Changes the fields an update sets (TS-4).
     *
     * @param update the change
     * @return the task after the change
     * @throws StaleTaskException if the update expects a version the task no longer has
     * @throws TaskNotFoundException if there is no such task
     */
    Task updateTask(TaskUpdate update);

    /**
     * Appends one progress entry (TS-5.1).
     *
     * @param taskId the task
     * @param progress the entry, stored verbatim; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task appendProgress(long taskId, String progress);

    /**
     * Appends a comment (TS-5.2).
     *
     * @param taskId the task
     * @param author who wrote it; not blank
     * @param text the comment, verbatim; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task addComment(long taskId, String author, String text);

    /**
     * Appends a link (TS-5.2).
     *
     * @param taskId the task
     * @param url the address; not blank
     * @param description what it is; may be empty
     * @param author who added it; not blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task addLink(long taskId, String url, String description, String author);

    /**
     * Links host-application messages to a task, moving them from wherever they were (TS-6.1, TS-6.2).
     *
     * @param taskId the task
     * @param messageIds the ids; none blank
     * @return the task after the change
     * @throws TaskNotFoundException if there is no such task
     */
    Task linkMessages(long taskId, List<String> messageIds);

    /**
     * Links messages to a session's planning section, creating it on first use (TS-6.2, TS-6.3).
     *
     * @param sessionId the session
     * @param messageIds the ids; none blank
     */
    void linkMessagesToPlanningSection(String sessionId, List<String> messageIds);

    /**
     * Claims the assignee's next pending, non-archived task and sets it running (TS-7).
     *
     * @param assignee the agent's name; not blank
     * @return the task, now running, with its comments and links; empty if none is claimable
     */
    Optional<Task> claimNext(String assignee);
}
