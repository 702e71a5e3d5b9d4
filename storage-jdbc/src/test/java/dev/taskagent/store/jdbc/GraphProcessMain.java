package dev.taskagent.store.jdbc;

import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A process of {@link GraphProcessTest}: opens a store on a shared database, prints {@code READY}, waits
 * for {@code GO} on stdin, then works with several threads and prints {@code DONE} when they are through.
 * Every line after {@code READY} starts with its kind, the task id, and ends with the wall clock in epoch
 * milliseconds when the process printed it.
 *
 * <p>Arguments: JDBC URL, mode, agent, threads, and for mode {@code claim} the number of tasks that must
 * stay pending at the end and a deadline in seconds.
 *
 * <ul>
 *   <li>Mode {@code complete}, the blockers' hosts: claims one to three of the agent's tasks at a time and
 *       completes them together in one transaction that lingers a few milliseconds before it commits, with
 *       {@code failed} for a task tagged {@code fails} and {@code success} for the others; prints {@code
 *       CLAIMED <id> <millis>} for each claim and {@code COMPLETED <id> <outcome> <millis>} once the
 *       completion committed; stops when the agent has nothing ready left.
 *   <li>Mode {@code claim}, the dependants' workers: claims one task at a time and prints {@code CLAIMED <id>
 *       <millis>}; then, each in a transaction of its own, reads every task the claimed one waits for and
 *       prints {@code VIOLATION <id> <blocker> <status> <millis>} for each that is not a committed success
 *       (and {@code VIOLATION <id> open <count> <millis>} if the claimed task itself counts open blockers);
 *       then completes it with success, printing {@code COMPLETED <id> success <millis>}. It stops when a
 *       claim finds nothing and the store counts no more pending tasks than the argument says must stay
 *       pending (those behind a failed blocker): every other task has been claimed by someone. It stops
 *       too at the deadline, printing {@code TIMEOUT}, so that the test can say what was left unclaimed.
 * </ul>
 */
public final class GraphProcessMain {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private GraphProcessMain() {}

    /**
     * Runs the process.
     *
     * @param args URL, mode, agent, threads[, tasks left pending, deadline in seconds]
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String mode = args[1];
        String agent = args[2];
        int threads = Integer.parseInt(args[3]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store =
                JdbcTaskStore.builder(url).maxConnections(threads + 2).build()) {
            Runnable work;
            if (mode.equals("complete")) {
                work = () -> completeBlockers(store, agent, out);
            } else if (mode.equals("claim")) {
                long leftPending = Long.parseLong(args[4]);
                long deadline = System.nanoTime()
                        + Duration.ofSeconds(Long.parseLong(args[5])).toNanos();
                work = () -> claimDependants(store, agent, leftPending, deadline, out);
            } else {
                throw new IllegalArgumentException("unknown mode " + mode);
            }
            out.println("READY");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"GO".equals(in.readLine())) {
                throw new IllegalStateException("expected GO on stdin");
            }
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    futures.add(executor.submit(work));
                }
                for (Future<?> future : futures) {
                    future.get();
                }
            } finally {
                executor.shutdownNow();
            }
        }
        say(out, "DONE");
    }

    private static void completeBlockers(JdbcTaskStore store, String agent, PrintStream out) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (true) {
            int batch = 1 + random.nextInt(3);
            List<Task> claimed = batch == 1
                    ? store.claimNext(agent, LEASE).map(List::of).orElse(List.of())
                    : store.claimUpTo(agent, LEASE, batch);
            if (claimed.isEmpty()) {
                return;
            }
            for (Task task : claimed) {
                say(out, "CLAIMED " + task.id());
            }
            pause(2 + random.nextInt(4)); // the completions last while the workers claim what they unblock
            long linger = random.nextInt(4);
            store.inTransaction(tx -> {
                for (Task task : claimed) {
                    tx.complete(task.id(), agent, task.attempt(), outcome(task));
                }
                // The dependants' counts are lowered but not committed yet: a claim must not see them.
                pause(linger);
                return null;
            });
            for (Task task : claimed) {
                say(out, "COMPLETED " + task.id() + " " + outcome(task).name().toLowerCase(Locale.ROOT));
            }
        }
    }

    private static TaskStatus outcome(Task task) {
        return task.tags().contains("fails") ? TaskStatus.FAILED : TaskStatus.SUCCESS;
    }

    private static void claimDependants(
            JdbcTaskStore store, String agent, long leftPending, long deadline, PrintStream out) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < deadline) {
            Optional<Task> claimed = store.claimNext(agent, LEASE);
            if (claimed.isEmpty()) {
                // Pending counts blocked tasks too, and nothing goes back to pending here (the lease outlasts
                // the test): once it is down to the tasks that must stay, no one can claim another.
                if (store.countTasks().pending() <= leftPending) {
                    return;
                }
                LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
                continue;
            }
            Task task = claimed.get();
            say(out, "CLAIMED " + task.id());
            if (task.openBlockers() != 0) {
                say(out, "VIOLATION " + task.id() + " open " + task.openBlockers());
            }
            for (long blockerId : task.blockedBy()) {
                TaskStatus status = store.findTask(blockerId)
                        .map(Task::status)
                        .orElseThrow(() -> new IllegalStateException("blocker " + blockerId + " is gone"));
                if (status != TaskStatus.SUCCESS) {
                    say(out, "VIOLATION " + task.id() + " " + blockerId + " " + status);
                }
            }
            pause(random.nextInt(2));
            store.inTransaction(tx -> tx.complete(task.id(), agent, task.attempt(), TaskStatus.SUCCESS));
            say(out, "COMPLETED " + task.id() + " success");
        }
        say(out, "TIMEOUT");
    }

    private static void pause(long millis) {
        if (millis > 0) {
            LockSupport.parkNanos(Duration.ofMillis(millis).toNanos());
        }
    }

    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.println(line + " " + System.currentTimeMillis());
        }
    }
}
