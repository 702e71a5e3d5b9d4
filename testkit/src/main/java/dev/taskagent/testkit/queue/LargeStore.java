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
 * session, one agent's queue of {@value #QUEUE}, a task with {@value #COMMENTS} comments, 200 links, {@value
 * #PROGRESS_NOTES} progress notes and {@value #STEPS} steps, a task
 * blocked by 60 others, {@value #DEAD_LETTERS} dead letters, and long texts everywhere. The tasks are written
 * through the store's own transactions, {@value #BATCH} at a time, as an application would write them.
 *
 * <p>Used by {@link BoundedAnswersSuite} and by the tests of modules that serve tools of their own on a store (the
 * MCP server's). Not thread-safe: fill a store from one thread.
 *
 * @param store the filled store
 * @param queue the queue whose session holds the tasks; its tasks fail after one attempt
 * @param longTask the task of {@value #LONG_AGENT}'s queue with the comments, 200 links, {@value #PROGRESS_NOTES}
 *     progress notes, a checklist of {@value #STEPS} steps, 60 subtasks and 60 tasks waiting for it; the first task of the store, and the first {@value #LONG_AGENT} signs up for
 * @param blockedTask a task of {@value #LONG_AGENT}'s queue blocked by the 60 subtasks of the long task
 * @param comments how many comments the long task has, {@value #COMMENTS} unless the filling asked for fewer
 */
public record LargeStore(TaskStore store, TaskQueue queue, Task longTask, Task blockedTask, int comments) {
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

    /** Steps of the long task's checklist; the first 400 are done. */
    public static final int STEPS = 1_000;

    /** Progress notes of the long task. */
    public static final int PROGRESS_NOTES = 300;

    /** Comments added per transaction. */
    public static final int COMMENT_BATCH = 100;

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
     * @param comments how many comments the long task has
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
     * task, with {@value #COMMENTS} comments on the long task.
     *
     * @param store an empty store
     * @return the filled store and the tasks its tests ask for
     * @throws IllegalStateException if the store does not hold {@value #TASKS} tasks afterwards
     */
    public static LargeStore fill(TaskStore store) {
        return fill(store, COMMENTS);
    }

    /**
     * Fills an empty store as {@link #fill(TaskStore)} does, with another number of comments on the long task: for a
     * store where each comment costs in proportion to the comments the task has already (the JDBC store rewrites a
     * task's comment document and its search row on each), so that thousands of them take minutes. The tools show a
     * window of the newest comments and their count, so their worst case does not grow with the count past the
     * window.
     *
     * @param store an empty store
     * @param comments the long task's comments, at least 100
     * @return the filled store and the tasks its tests ask for
     * @throws IllegalArgumentException if {@code comments} is less than 100
     * @throws IllegalStateException if the store does not hold {@value #TASKS} tasks afterwards
     */
    public static LargeStore fill(TaskStore store, int comments) {
        if (comments < 100) {
            throw new IllegalArgumentException(
                    "The long task needs at least 100 comments to pass the tools' windows," + " not " + comments);
        }
        TaskQueue queue = TaskQueue.builder(store).maxAttempts(1).build();
        Task longTask = store.inTransaction(transaction -> {
            Task task = transaction.appendTask(queue.newTask("The long task: " + WORDS.repeat(60))
                    .assignee(LONG_AGENT)
                    .priority(9)
                    .tags("invoice", "long")
                    .steps(checklist())
                    .build());
            for (int i = 0; i < 200; i++) {
                transaction.addLink(task.id(), "https://example.com/evidence/" + i, DESCRIPTION, "agent-1");
            }
            for (int i = 0; i < PROGRESS_NOTES; i++) {
                transaction.appendProgress(task.id(), "Progress " + i + ": " + DESCRIPTION);
            }
            return task;
        });
        // A store may keep every version of a row a transaction wrote until it ends (H2 does): the comments, each
        // of which rewrites the task's row, go in transactions of their own size.
        for (int from = 0; from < comments; from += COMMENT_BATCH) {
            int start = from;
            store.inTransaction(transaction -> {
                for (int i = start; i < Math.min(comments, start + COMMENT_BATCH); i++) {
                    transaction.addComment(longTask.id(), "agent-" + (i % 7), "Comment " + i + ": " + DESCRIPTION);
                }
                return null;
            });
        }
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
        return new LargeStore(store, queue, longTask, blockedTask, comments);
    }

    /** The long task's checklist: {@value #STEPS} long steps, the first 400 done. */
    private static String checklist() {
        StringBuilder steps = new StringBuilder();
        for (int i = 1; i <= STEPS; i++) {
            steps.append(i <= 400 ? "- [x] " : "- [ ] ")
                    .append("Step ")
                    .append(i)
                    .append(": ")
                    .append(DESCRIPTION)
                    .append('\n');
        }
        return steps.toString();
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
