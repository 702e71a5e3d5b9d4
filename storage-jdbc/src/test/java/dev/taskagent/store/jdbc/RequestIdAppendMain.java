package dev.taskagent.store.jdbc;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.AppendResult;
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
 * A process of {@link RequestIdProcessTest}: a host that comments on the same tasks as another host at the same
 * moment, each comment with the request id the other host uses for that task, as a client retrying a comment
 * against two servers would.
 *
 * <p>Arguments: JDBC URL, author, request id prefix, task ids (comma-separated), threads, start time (epoch
 * milliseconds). It prints {@code READY}, waits for the start time, then its threads comment on every task (each
 * thread in its own shuffled order, the even threads with a comment, the odd ones with a link) and print {@code
 * WROTE <task>} or {@code REPLAY <task>} for each; {@code DONE} at the end.
 */
public final class RequestIdAppendMain {
    private RequestIdAppendMain() {}

    /**
     * Runs the host.
     *
     * @param args URL, author, request id prefix, task ids, threads, start time
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String author = args[1];
        String prefix = args[2];
        List<Long> taskIds = new ArrayList<>();
        for (String id : args[3].split(",")) {
            taskIds.add(Long.parseLong(id));
        }
        int threads = Integer.parseInt(args[4]);
        long startAt = Long.parseLong(args[5]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            TaskQueue queue = TaskQueue.builder(store).build();
            out.println("READY");
            while (System.currentTimeMillis() < startAt) {
                LockSupport.parkUntil(startAt);
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> workers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                boolean comments = thread % 2 == 0;
                workers.add(pool.submit(() -> {
                    List<Long> order = new ArrayList<>(taskIds);
                    Collections.shuffle(order);
                    for (long taskId : order) {
                        String requestId = prefix + taskId;
                        AppendResult result = comments
                                ? queue.comment(taskId, author, "sent by " + author, requestId)
                                : queue.link(taskId, "https://example.com/" + taskId, "", author, requestId);
                        say(out, (result.replayed() ? "REPLAY " : "WROTE ") + taskId);
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
