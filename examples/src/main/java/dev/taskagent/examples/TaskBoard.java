package dev.taskagent.examples;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints a session's tasks as cards (status, assignee, preference, step checklist) and the agents' queues:
 * what the flagship demo shows at each stage.
 *
 * <p>Thread-safe (stateless).
 */
public final class TaskBoard {
    private TaskBoard() {}

    /**
     * Prints the board.
     *
     * @param out where to print
     * @param title what the board shows, e.g. the stage of the demo
     * @param store the store
     * @param sessionId the session whose tasks are listed
     * @param agents the agents whose queues are listed
     */
    public static void print(PrintStream out, String title, TaskStore store, String sessionId, List<String> agents) {
        out.println("┌─ Task board: " + title + " (session " + sessionId + ")");
        List<Task> tasks = store.listTasks(sessionId);
        if (tasks.isEmpty()) {
            out.println("│  (no tasks)");
        }
        for (Task task : tasks) {
            out.println("│  #" + task.id() + " [" + task.status() + "]"
                    + (task.assignee() == null ? "" : " assigned to " + task.assignee()) + ": "
                    + task.description());
            if (task.hasSteps()) {
                for (String line : StepsExample.renderCard(task).split("\n")) {
                    out.println("│    " + line);
                }
            }
            if (!task.userPreferences().isEmpty()) {
                out.println("│    User prefs: \"" + task.userPreferenceText() + "\"");
            }
            if (!task.progresses().isEmpty()) {
                out.println("│    Progress: " + String.join("; ", task.progresses()));
            }
        }
        for (String agent : agents) {
            List<Task> queue = store.inTransaction(transaction -> transaction.listQueue(agent));
            String entries = queue.isEmpty()
                    ? "(empty)"
                    : queue.stream()
                            .map(task -> "#" + task.id() + " " + task.status() + " \"" + task.description() + "\"")
                            .collect(Collectors.joining(", "));
            out.println("│  queue of " + agent + ": " + entries);
        }
        out.println("└─");
    }
}
