package dev.taskagent.benchmarks;

import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How long a committed change takes to reach a feed subscriber of another store: 16 writer threads each
 * create a task through a writer store (its own pool), and wait until a subscriber of a second store on
 * the same database (its own connections, and on PostgreSQL its own {@code LISTEN} connection) has
 * received the task's event. The two stores share nothing but the database, as two processes would; one
 * JVM keeps one clock for both ends. One operation runs from the start of the writer's unit of work to
 * the delivery, so the figure includes the commit itself.
 *
 * <p>Subscribers poll every 200 ms on H2 and MariaDB (the default) and are woken by {@code NOTIFY} on
 * PostgreSQL, with a 1 s poll as the backstop.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 5)
@Fork(1)
@Threads(16)
public class FeedLatencyBenchmark {
    static final int WRITERS = 16;

    /** h2 (a fresh file database under target/), postgres or mariadb. */
    @Param({"postgres", "mariadb", "h2"})
    public String database;

    private BenchDatabase fresh;
    private JdbcTaskStore writer;
    private JdbcTaskStore reader;
    private FeedSubscription subscription;
    private final Map<Long, CompletableFuture<Void>> arrivals = new ConcurrentHashMap<>();

    /** Opens the two stores and subscribes the reader's feed from its end. */
    @Setup(Level.Trial)
    public void openStores() {
        fresh = BenchDatabase.create(BenchDatabase.Kind.of(database), "feed", WRITERS);
        try {
            writer = BenchStore.jdbcStore(fresh, false);
            reader = JdbcTaskStore.builder(fresh.jdbcUrl()).build();
            subscription = reader.eventFeed().subscribe(reader.eventFeed().lastPosition(), this::arrived);
        } catch (RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    private void arrived(FeedEvent event) {
        arrival(event.taskId()).complete(null);
    }

    private CompletableFuture<Void> arrival(long taskId) {
        return arrivals.computeIfAbsent(taskId, id -> new CompletableFuture<>());
    }

    /** A writer thread: its own session, so that writers do not queue on one session's order. */
    @State(Scope.Thread)
    public static class Writer {
        String sessionId;
        long created;

        /**
         * Names the thread's session.
         *
         * @param thread the thread's parameters
         */
        @Setup(Level.Trial)
        public void name(ThreadParams thread) {
            sessionId = "feed-writer-" + thread.getThreadIndex();
        }
    }

    /**
     * Creates a task in the writer store and waits until the other store's subscriber has its event.
     *
     * @param writer the thread's state
     * @return the task's id
     * @throws Exception if the event does not arrive within 10 s
     */
    @Benchmark
    public long commitToSubscriber(Writer writer) throws Exception {
        long taskId = this.writer.inTransaction(transaction -> transaction
                .appendTask(NewTask.of(writer.sessionId, "Feed latency probe " + ++writer.created))
                .id());
        try {
            arrival(taskId).get(10, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("task " + taskId + "'s event did not reach the subscriber in 10 s", e);
        } finally {
            arrivals.remove(taskId);
        }
        return taskId;
    }

    /** Ends the subscription, closes both stores and drops the database. */
    @TearDown(Level.Trial)
    public void close() {
        try {
            subscription.close();
            reader.close();
            writer.close();
        } finally {
            fresh.close();
        }
    }
}
