package dev.taskagent.benchmarks;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one comment appended to a task that already has many: a unit of work that adds the comment and
 * returns the task with all its children, as {@code add_comment} does. One thread; the comments go round {@value
 * #TASKS} tasks, each set up through the store's API with {@code comments} comments and, with 1,000 comments,
 * 100 KiB of progress (100 entries of 1 KiB), so that a trial's appends grow each task by a few percent only.
 * Uses only the public API, so the same class measures any version of the store.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class AppendBenchmark {
    static final int TASKS = 20;
    private static final String KIB = "x".repeat(1_023) + "\n";

    /** h2 (a fresh file database under target/), postgres or mariadb. */
    @Param({"h2", "postgres", "mariadb"})
    public String store;

    /** How many comments each task has before the trial: 2 (a fresh task) or 1,000. */
    @Param({"2", "1000"})
    public int comments;

    private BenchStore benchStore;
    private long[] taskIds;
    private int next;

    /** Opens the store and writes the tasks. */
    @Setup(Level.Trial)
    public void addTasks() {
        benchStore = BenchStore.open(store, "append", 2);
        TaskStore taskStore = benchStore.store();
        taskIds = new long[TASKS];
        for (int index = 0; index < TASKS; index++) {
            long id = taskStore.inTransaction(tx -> tx.appendTask(NewTask.builder("append", Fixtures.description(0))
                            .assignee("alice")
                            .build())
                    .id());
            taskIds[index] = id;
            for (int from = 0; from < comments; from += 250) {
                int to = Math.min(comments, from + 250);
                int first = from;
                taskStore.inTransaction(tx -> {
                    for (int comment = first; comment < to; comment++) {
                        tx.addComment(
                                id, Fixtures.COMMENT_AUTHOR, "Comment " + comment + ": " + Fixtures.FIRST_COMMENT);
                    }
                    return null;
                });
            }
            if (comments >= 1_000) {
                taskStore.inTransaction(tx -> {
                    for (int progress = 0; progress < 100; progress++) {
                        tx.appendProgress(id, KIB);
                    }
                    return null;
                });
            }
        }
    }

    /** Closes the store (and drops its database). */
    @TearDown(Level.Trial)
    public void closeStore() {
        benchStore.close();
    }

    /**
     * Adds a comment to the next task.
     *
     * @return the task as the append left it
     */
    @Benchmark
    public Task addComment() {
        long id = taskIds[next];
        next = next + 1 == TASKS ? 0 : next + 1;
        return benchStore.store().inTransaction(tx -> tx.addComment(id, "bob", Fixtures.SECOND_COMMENT));
    }
}
