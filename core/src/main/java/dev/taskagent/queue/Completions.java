package dev.taskagent.queue;

import dev.taskagent.task.Task;
import dev.taskagent.task.TaskRefusedException;
import java.util.List;
import java.util.Map;

/**
 * What {@link TaskQueue#completeAll(String, List)} did: the tasks it completed and the claims it refused.
 *
 * @param completed the completed tasks, in the order asked
 * @param refused by task id, why a completion was refused (a lost claim, an unknown task, open subtasks);
 *     nothing was written for those
 */
public record Completions(List<Task> completed, Map<Long, TaskRefusedException> refused) {

    /**
     * Copies the collections.
     *
     * @param completed the completed tasks
     * @param refused the refusals by task id
     */
    public Completions {
        completed = List.copyOf(completed);
        refused = Map.copyOf(refused);
    }
}
