package dev.taskagent.benchmarks;

import dev.taskagent.queue.TaskQueue;
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
 * Latency of {@code move_task} ({@link TaskQueue#move}): one transaction that checks the task, hands it to
 * the other agent with a comment and returns it with all its comments and links. One thread; tasks go
 * back and forth between two agents. Every iteration gets fresh tasks (two comments, two links each;
 * written by a {@link JdbcStoreLoader} on the databases), so the comment lists the moves append to grow
 * by only a few entries within an iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class MoveBenchmark {
    private static final String[] AGENTS = {"alice", "bob"};

    /** inmemory, h2 (a fresh file database under target/), postgres or mariadb. */
    @Param({"inmemory", "h2", "postgres", "mariadb"})
    public String store;

    private BenchStore benchStore;
    private TaskQueue queue;
    private long[] taskIds;
    private byte[] holders;
    private int next;
    private int iteration;

    /** Opens the store. */
    @Setup(Level.Trial)
    public void openStore() {
        benchStore = BenchStore.open(store, "move", 2);
        queue = TaskQueue.builder(benchStore.store()).build();
    }

    /** Adds the tasks of the coming iteration, all assigned to alice. */
    @Setup(Level.Iteration)
    public void addTasks() {
        iteration++;
        int count = store.equals("inmemory") ? 20_000 : 500;
        taskIds = new long[count];
        holders = new byte[count];
        next = 0;
        JdbcStoreLoader loader = benchStore.loader();
        if (loader != null) {
            long[] ids = loader.addTasks(AGENTS[0], count);
            System.arraycopy(ids, 0, taskIds, 0, count);
            if (iteration == 1) {
                JdbcStoreLoader.verify(benchStore.store(), ids[0], AGENTS[0]);
            }
            return;
        }
        TaskStore taskStore = benchStore.store();
        for (int start = 0; start < count; start += 100) {
            int from = start;
            int to = Math.min(count, start + 100);
            String sessionId = "move-" + iteration + "-" + start;
            taskStore.inTransaction(transaction -> {
                for (int index = from; index < to; index++) {
                    Task task = transaction.appendTask(NewTask.builder(sessionId, Fixtures.description(index))
                            .priority(index % 3)
                            .assignee(AGENTS[0])
                            .createdBy(Fixtures.CREATED_BY)
                            .build());
                    transaction.addComment(task.id(), Fixtures.COMMENT_AUTHOR, Fixtures.FIRST_COMMENT);
                    transaction.addComment(task.id(), Fixtures.COMMENT_AUTHOR, Fixtures.SECOND_COMMENT);
                    transaction.addLink(
                            task.id(), Fixtures.FIRST_LINK, Fixtures.FIRST_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
                    transaction.addLink(
                            task.id(), Fixtures.SECOND_LINK, Fixtures.SECOND_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
                    taskIds[index] = task.id();
                }
                return null;
            });
        }
    }

    /** Closes the store (and drops its database). */
    @TearDown(Level.Trial)
    public void closeStore() {
        benchStore.close();
    }

    /**
     * Moves the next task to the agent that does not hold it.
     *
     * @return the moved task
     */
    @Benchmark
    public Task move() {
        int index = next;
        next = next + 1 == taskIds.length ? 0 : next + 1;
        int holder = holders[index];
        holders[index] = (byte) (1 - holder);
        return queue.move(
                taskIds[index],
                AGENTS[holder],
                AGENTS[1 - holder],
                "Handing over: the export fix is reviewed, please deploy it and watch the nightly run.");
    }
}
