package dev.taskagent.benchmarks;

import dev.taskagent.dashboard.TaskDashboard;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskUpdate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The task board's API listing a session of 1,000 tasks as cards ({@code GET /api/sessions/{id}/tasks
 * ?limit=1000}), over HTTP on loopback with the JDK's client: the store's read of the session, the cards'
 * JSON and the transfer. Each task has three steps (one ticked), a progress entry, a preference, a comment
 * and a link. Target: 50 ms on PostgreSQL.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class DashboardBenchmark {
    static final String SESSION = "board-bench";
    static final int TASKS = 1_000;

    /** inmemory, h2 (a fresh file database under target/), postgres or mariadb. */
    @Param({"postgres"})
    public String store;

    private BenchStore benchStore;
    private TaskDashboard board;
    private HttpClient client;
    private HttpRequest listing;

    /** Opens the store, writes the session's tasks and starts the board. */
    @Setup(Level.Trial)
    public void start() {
        benchStore = BenchStore.open(store, "board", 2);
        TaskStore taskStore = benchStore.store();
        for (int start = 0; start < TASKS; start += 100) {
            int from = start;
            taskStore.inTransaction(transaction -> {
                for (int index = from; index < from + 100; index++) {
                    Task task = transaction.appendTask(NewTask.builder(SESSION, Fixtures.description(index))
                            .assignee(index % 2 == 0 ? "alice" : "bob")
                            .steps("- [x] Reproduce the failure\n- [ ] Fix the export\n- [ ] Deploy and watch\n")
                            .build());
                    transaction.updateTask(TaskUpdate.of(task.id())
                            .userPreference("Keep the nightly run green")
                            .currentStep(1)
                            .build());
                    transaction.appendProgress(task.id(), "Reproduced it on a copy of the nightly data");
                    transaction.addComment(task.id(), Fixtures.COMMENT_AUTHOR, Fixtures.FIRST_COMMENT);
                    transaction.addLink(
                            task.id(), Fixtures.FIRST_LINK, Fixtures.FIRST_LINK_DESCRIPTION, Fixtures.COMMENT_AUTHOR);
                }
                return null;
            });
        }
        board = TaskDashboard.builder(taskStore).bind("127.0.0.1", 0).build().start();
        client = HttpClient.newHttpClient();
        listing = HttpRequest.newBuilder(URI.create(board.uri() + "api/sessions/" + SESSION + "/tasks?limit=" + TASKS))
                .build();
        String body = list();
        if (!body.contains("\"total\":" + TASKS)) {
            throw new IllegalStateException(
                    "The board did not list " + TASKS + " tasks: " + body.substring(0, Math.min(300, body.length())));
        }
    }

    /** Stops the board and closes the store (and drops its database). */
    @TearDown(Level.Trial)
    public void stop() {
        board.close();
        benchStore.close();
    }

    /**
     * Lists the session's 1,000 tasks through the API.
     *
     * @return the JSON
     */
    @Benchmark
    public String list() {
        try {
            HttpResponse<String> response = client.send(listing, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("The board answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
