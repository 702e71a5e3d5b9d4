package dev.taskagent.examples.spring;

import dev.taskagent.task.Task;

/**
 * A task as the web API shows it (written by Spring MVC with Jackson 3).
 *
 * @param id the task's id
 * @param description what to do
 * @param status pending, running, success or failed
 * @param assignee who works on it, or null
 * @param attempt the claim's attempt: the fencing token a worker completes with
 */
public record TaskView(long id, String description, String status, String assignee, int attempt) {

    static TaskView of(Task task) {
        return new TaskView(task.id(), task.description(), task.status().wireName(), task.assignee(), task.attempt());
    }
}
