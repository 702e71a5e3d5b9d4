package dev.taskagent.examples;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskTree;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A release plan of six tasks laid out in one call ({@link TaskQueue#createTree(TaskTree)}) and worked by
 * three agents, each a {@link TaskWorker}: a task is claimed only after every task it waits for succeeded,
 * and a worker wakes as soon as one of its tasks is unblocked. When all six are done the parent is
 * completed. Every claim and completion is printed, in the order it happened.
 */
public final class WorkGraphExample {
    private WorkGraphExample() {}

    /**
     * What the run did.
     *
     * @param plan the parent and the subtasks by key, as created
     * @param events the claims and completions, in the order they happened
     * @param parent the parent at the end
     */
    public record Result(TaskTree.Created plan, List<TaskEvent> events, Task parent) {}

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while the agents work
     */
    public static void main(String[] args) throws InterruptedException {
        run(new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }

    /**
     * Runs the example.
     *
     * @param out where to print
     * @return the plan, what happened, and the parent at the end
     * @throws InterruptedException if interrupted while the agents work
     * @throws IllegalStateException if the plan is not done within a minute
     */
    public static Result run(PrintStream out) throws InterruptedException {
        List<TaskEvent> events = Collections.synchronizedList(new ArrayList<>());
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store)
                .listener(event -> {
                    if (event instanceof TaskEvent.Claimed || event instanceof TaskEvent.Completed) {
                        events.add(event);
                        out.println(line(event));
                    }
                })
                .build();

        TaskTree plan = TaskTree.builder(
                        queue.newTask("Release 2.0").tags("release").build())
                .child("build", queue.newTask("Build the jars").assignee("dev").build())
                .child(
                        "docs",
                        queue.newTask("Write the release notes").assignee("dev").build())
                .child(
                        "unit",
                        queue.newTask("Run the unit tests").assignee("qa").build(),
                        "build")
                .child(
                        "integration",
                        queue.newTask("Run the integration tests")
                                .assignee("qa")
                                .build(),
                        "build")
                .child(
                        "package",
                        queue.newTask("Package the distribution")
                                .assignee("dev")
                                .build(),
                        "unit",
                        "integration")
                .child(
                        "deploy",
                        queue.newTask("Deploy to production")
                                .assignee("ops")
                                .metadata("{\"environment\":\"prod\"}")
                                .build(),
                        "package",
                        "docs")
                .build();
        TaskTree.Created created = queue.createTree(plan);
        out.println("Plan #" + created.parent().id() + ": " + created.children().size() + " subtasks");

        List<TaskWorker> workers = new ArrayList<>();
        for (String agent : List.of("dev", "qa", "ops")) {
            workers.add(TaskWorker.builder(queue)
                    .agent(agent)
                    .handler(task -> Thread.sleep(20)) // the work itself
                    .start());
        }
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
            while (!allSucceeded(queue, created)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("the plan was not done within a minute");
                }
                Thread.sleep(20);
            }
        } finally {
            workers.forEach(TaskWorker::close);
        }

        Task parent = queue.update(
                TaskUpdate.of(created.parent().id()).status(TaskStatus.SUCCESS).build());
        out.println("Plan #" + parent.id() + " " + parent.status().wireName());
        return new Result(created, List.copyOf(events), parent);
    }

    private static boolean allSucceeded(TaskQueue queue, TaskTree.Created created) {
        return queue.children(created.parent().id()).stream().allMatch(task -> task.status() == TaskStatus.SUCCESS);
    }

    private static String line(TaskEvent event) {
        Task task = event.task();
        if (event instanceof TaskEvent.Claimed claimed) {
            return claimed.agent() + " claims #" + task.id() + " " + task.description();
        }
        TaskEvent.Completed completed = (TaskEvent.Completed) event;
        return completed.agent() + " finishes #" + task.id() + ": "
                + completed.outcome().wireName();
    }
}
