package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/**
 * The second process of {@link PostgresTwoProcessClaimTest}: opens a store on a URL, prints {@code
 * READY}, waits for {@code GO} on stdin, then claims with several threads until nothing is left, printing
 * {@code CLAIMED <id>} as soon as it claimed each task and {@code DONE} at the end.
 *
 * <p>Arguments: JDBC URL, assignee, number of threads.
 */
public final class ClaimWorkerMain {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private ClaimWorkerMain() {}

    /**
     * Runs the worker.
     *
     * @param args URL, assignee, threads
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String assignee = args[1];
        int threads = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            out.println("READY");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"GO".equals(in.readLine())) {
                throw new IllegalStateException("expected GO on stdin");
            }
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            try {
                List<Future<List<Long>>> futures = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    futures.add(executor.submit(() -> claimAll(store, assignee, id -> out.println("CLAIMED " + id))));
                }
                for (Future<List<Long>> future : futures) {
                    future.get();
                }
            } finally {
                executor.shutdownNow();
            }
        }
        out.println("DONE");
    }

    static List<Long> claimAll(JdbcTaskStore store, String assignee) {
        return claimAll(store, assignee, id -> {});
    }

    /** Claims until nothing is left, telling {@code each} of every claimed task's id at once. */
    private static List<Long> claimAll(JdbcTaskStore store, String assignee, LongConsumer each) {
        List<Long> claimed = new ArrayList<>();
        for (Optional<Task> task = store.claimNext(assignee, LEASE);
                task.isPresent();
                task = store.claimNext(assignee, LEASE)) {
            claimed.add(task.get().id());
            each.accept(task.get().id());
        }
        return claimed;
    }
}
