package dev.taskagent.testkit.queue;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A store filled for the worst case of every tool that lists or shows tasks: {@value #TASKS} tasks in one queue's
 * session, one agent's queue of {@value #QUEUE}, a task with {@value #COMMENTS} comments and 200 links, a task
 * blocked by 60 others, {@value #DEAD_LETTERS} dead letters, and long texts everywhere. The tasks are written
 * through the store's own transactions, {@value #BATCH} at a time, as an application would write them.
 *
 * <p>Used by {@link BoundedAnswersSuite} and by the tests of modules that serve tools of their own on a store (the
 * MCP server's). Not thread-safe: fill a store from one thread.
 *
 * @param store the filled store
 * @param queue the queue whose session holds the tasks; its tasks fail after one attempt
 * @param longTask the task of {@value #LONG_AGENT}'s queue with {@value #COMMENTS} comments, 200 links, 60 subtasks
 *     and 60 tasks waiting for it; the first task of the store, and the first {@value #LONG_AGENT} signs up for
 * @param blockedTask a task of {@value #LONG_AGENT}'s queue blocked by the 60 subtasks of the long task
 */
public record LargeStore(TaskStore store, TaskQueue queue, Task longTask, Task blockedTask) {
    /** Tasks in the store. */
    public static final int TASKS = 100_000;

    /** Tasks in the one long queue. */
    public static final int QUEUE = 10_000;

    /** Comments on the one long task. */
    public static final int COMMENTS = 5_000;

    /** Tasks that failed after their last attempt. */
    public static final int DEAD_LETTERS = 300;

    /** The agent whose queue is long. */
    public static final String LONG_AGENT = "alice";

    /** Tasks appended per transaction. */
    public static final int BATCH = 5_000;

    /** The words every description repeats, so that a search for {@code invoice} matches nearly every task. */
    public static final String WORDS = "invoice overdue customer payment reminder ledger reconcile quarterly export ";

    private static final String DESCRIPTION = WORDS.repeat(6).strip();

    /**
     * Checks the parts.
     *
     * @param store the filled store
     * @param queue the queue whose session holds the tasks
     * @param longTask the task with the most comments
     * @param blockedTask the task with the most blockers
     * @throws NullPointerException if any part is null
     */
    public LargeStore {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(longTask, "longTask");
        Objects.requireNonNull(blockedTask, "blockedTask");
    }

    /**
     * Fills an empty store, {@value #TASKS} tasks in the session of a queue of default settings but one attempt per
     * task.
     *
     * @param store an empty store
     * @return the filled store and the tasks its tests ask for
     * @throws IllegalStateException if the store does not hold {@value #TASKS} tasks afterwards
     */
    public static LargeStore fill(TaskStore store) {
        TaskQueue queue = TaskQueue.builder(store).maxAttempts(1).build();
        Task longTask = store.inTransaction(transaction -> {
            Task task = transaction.appendTask(queue.newTask("The long task: " + WORDS.repeat(60))
                    .assignee(LONG_AGENT)
                    .priority(9)
                    .tags("invoice", "long")
                    .build());
            for (int i = 0; i < COMMENTS; i++) {
                transaction.addComment(task.id(), "agent-" + (i % 7), "Comment " + i + ": " + DESCRIPTION);
            }
            for (int i = 0; i < 200; i++) {
                transaction.addLink(task.id(), "https://example.com/evidence/" + i, DESCRIPTION, "agent-1");
            }
            return task;
        });
        int created = 1;
        created += append(store, QUEUE - 1, index -> queue.newTask("Queue task " + index + ": " + DESCRIPTION)
                .assignee(LONG_AGENT)
                .priority(index % 5)
                .tags("invoice")
                .build());
        List<Long> blockers = new ArrayList<>();
        store.inTransaction(transaction -> {
            for (int i = 0; i < 60; i++) {
                Task child = transaction.appendTask(queue.newTask("Subtask " + i + ": " + DESCRIPTION)
                        .assignee("bob")
                        .parent(longTask.id())
                        .build());
                transaction.appendTask(queue.newTask("Dependant " + i + ": " + DESCRIPTION)
                        .assignee("bob")
                        .blockedBy(longTask.id())
                        .build());
                blockers.add(child.id());
            }
            return null;
        });
        created += 120;
        Task blockedTask =
                store.inTransaction(transaction -> transaction.appendTask(queue.newTask("Blocked task: " + DESCRIPTION)
                        .assignee(LONG_AGENT)
                        .blockedBy(blockers)
                        .build()));
        created++;
        created += append(store, 1_000, index -> queue.newTask("Blocked " + index + ": " + DESCRIPTION)
                .assignee(LONG_AGENT)
                .blockedBy(blockers.subList(index % 50, index % 50 + 8))
                .build());
        created += append(store, DEAD_LETTERS, index -> queue.newTask("Dead letter " + index + ": " + DESCRIPTION)
                .assignee("mailer")
                .build());
        failTheDeadLetters(store);
        append(store, TASKS - created, index -> queue.newTask("Other task " + index + ": " + DESCRIPTION)
                .assignee("agent-" + (index % 100))
                .tags("invoice")
                .build());
        Optional<Task> last = store.inTransaction(transaction -> transaction.findTask(longTask.id() + TASKS - 1));
        if (last.isEmpty()) {
            throw new IllegalStateException("The store does not hold " + TASKS + " tasks with consecutive ids after"
                    + " the filling; the worst cases would be checked on less.");
        }
        return new LargeStore(store, queue, longTask, blockedTask);
    }

    /** Claims the mailer's tasks and fails each on its one attempt, with a comment: they become dead letters. */
    private static void failTheDeadLetters(TaskStore store) {
        for (int done = 0; done < DEAD_LETTERS; done += TaskStore.MAX_CLAIM_BATCH) {
            store.inTransaction(transaction -> {
                Map<Long, Integer> attempts = new LinkedHashMap<>();
                for (Task claimed : transaction.claimUpTo("mailer", Duration.ofMinutes(5), TaskStore.MAX_CLAIM_BATCH)) {
                    attempts.put(claimed.id(), claimed.attempt());
                    transaction.addComment(claimed.id(), "mailer", "The mail server refused it: " + DESCRIPTION);
                }
                return transaction.completeHeld("mailer", attempts, TaskStatus.FAILED);
            });
        }
    }

    /** Appends tasks in transactions of {@link #BATCH}; returns how many. */
    private static int append(TaskStore store, int count, IntFunction<NewTask> task) {
        for (int from = 0; from < count; from += BATCH) {
            int start = from;
            int end = Math.min(count, from + BATCH);
            store.inTransaction((TaskTransaction transaction) -> {
                for (int index = start; index < end; index++) {
                    transaction.appendTask(task.apply(index));
                }
                return null;
            });
        }
        return count;
    }
}
