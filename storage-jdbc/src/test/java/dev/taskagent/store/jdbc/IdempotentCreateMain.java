package dev.taskagent.store.jdbc;

import dev.taskagent.queue.TaskQueue;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * A process of {@link IdempotencyProcessTest}: a host that creates the same tasks as another host at the same
 * moment, each with an idempotency key, as clients retrying against two servers would.
 *
 * <p>Arguments: JDBC URL, session, key prefix, number of keys, threads, start time (epoch milliseconds). It
 * prints {@code READY}, waits for the start time, then its threads create a task for every key (each thread
 * the keys in its own shuffled order) and print {@code CREATED <key> <id>} or {@code EXISTS <key> <id>} for
 * each; {@code DONE} at the end.
 */
public final class IdempotentCreateMain {
    private IdempotentCreateMain() {}

    /**
     * Runs the host.
     *
     * @param args URL, session, key prefix, keys, threads, start time
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String session = args[1];
        String prefix = args[2];
        int keys = Integer.parseInt(args[3]);
        int threads = Integer.parseInt(args[4]);
        long startAt = Long.parseLong(args[5]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            TaskQueue queue = TaskQueue.builder(store).sessionId(session).build();
            out.println("READY");
            while (System.currentTimeMillis() < startAt) {
                LockSupport.parkUntil(startAt);
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                workers.add(pool.submit(() -> {
                    List<Integer> order = new ArrayList<>();
                    for (int key = 0; key < keys; key++) {
                        order.add(key);
                    }
                    Collections.shuffle(order);
                    for (int key : order) {
                        String name = prefix + key;
                        TaskQueue.Creation creation = queue.createOnce(queue.newTask("task for " + name)
                                .idempotencyKey(name)
                                .build());
                        say(
                                out,
                                (creation.created() ? "CREATED " : "EXISTS ") + name + " "
                                        + creation.task().id());
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
            pool.shutdown();
            say(out, "DONE");
        }
    }

    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
        }
    }
}
