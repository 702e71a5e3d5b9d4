package dev.taskagent.store.jdbc;

import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker process of {@link LeaseProcessTest}: a host running agents on a shared database.
 *
 * <p>Arguments: JDBC URL, agent, mode, threads, lease in milliseconds. Mode {@code hold} claims {@code
 * threads} tasks, prints {@code CLAIMED <id> <attempt>} for each and {@code HOLDING}, then waits forever
 * (the test kills it). Mode {@code work} runs a lease reaper and {@code threads} workers that claim, comment
 * and complete until the agent's queue holds no pending or running task, printing {@code CLAIMED},
 * {@code COMPLETED <id> <attempt>} (or {@code LOST <id> <attempt>} when the claim was lost), and {@code
 * DONE} at the end.
 */
public final class LeaseWorkerMain {
    private LeaseWorkerMain() {}

    /**
     * Runs the worker.
     *
     * @param args URL, agent, mode, threads, lease in milliseconds
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String agent = args[1];
        String mode = args[2];
        int threads = Integer.parseInt(args[3]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            TaskQueue queue =
                    TaskQueue.builder(store).leaseDuration(lease).maxAttempts(3).build();
            out.println("READY");
            if (mode.equals("hold")) {
                for (int claim = 0; claim < threads; claim++) {
                    queue.claimNext(agent).ifPresent(task -> say(out, "CLAIMED " + task.id() + " " + task.attempt()));
                }
                say(out, "HOLDING");
                new CountDownLatch(1).await();
                return;
            }
            try (LeaseReaper reaper = LeaseReaper.builder(queue)
                    .reclaimInterval(Duration.ofMillis(100))
                    .start()) {
                ExecutorService workers = Executors.newFixedThreadPool(threads);
                List<Future<?>> running = new ArrayList<>();
                for (int worker = 0; worker < threads; worker++) {
                    running.add(workers.submit(() -> work(queue, agent, out)));
                }
                for (Future<?> future : running) {
                    future.get();
                }
                workers.shutdown();
                say(out, "DONE " + reaper);
            }
        }
    }

    private static Void work(TaskQueue queue, String agent, PrintStream out) {
        while (true) {
            Optional<Task> claimed;
            try {
                claimed = queue.claimNext(agent);
            } catch (TaskStoreException e) {
                System.err.println("claim failed, trying again: " + e.getMessage());
                continue;
            }
            if (claimed.isEmpty()) {
                if (nothingLeft(queue, agent)) {
                    return null;
                }
                // Tasks are still running under claims of dead processes: their leases will expire.
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                continue;
            }
            Task task = claimed.get();
            say(out, "CLAIMED " + task.id() + " " + task.attempt());
            try {
                queue.comment(task.id(), agent, "working on it, attempt " + task.attempt());
                queue.complete(task.id(), agent, task.attempt(), TaskStatus.SUCCESS, null);
                say(out, "COMPLETED " + task.id() + " " + task.attempt());
            } catch (ClaimLostException e) {
                say(out, "LOST " + task.id() + " " + task.attempt());
            }
        }
    }

    private static boolean nothingLeft(TaskQueue queue, String agent) {
        return queue.listQueue(agent).stream().allMatch(task -> task.status().isTerminal());
    }

    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
        }
    }
}
