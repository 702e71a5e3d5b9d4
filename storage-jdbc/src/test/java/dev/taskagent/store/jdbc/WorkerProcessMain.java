package dev.taskagent.store.jdbc;

import dev.taskagent.event.EventFeed;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.LeaseReaper;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.queue.TaskWorker;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.store.TaskCounts;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.ClaimLostException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A process of {@link WorkerProcessTest}: a {@link TaskWorker} on a shared database.
 *
 * <p>Arguments: mode, JDBC URL, agent, concurrency, lease in milliseconds, then the mode's own.
 *
 * <ul>
 *   <li>{@code hold}: a worker whose handler prints {@code STARTED <id> <attempt>} and sleeps until the test
 *       kills the process.
 *   <li>{@code drain <backoff-millis>}: a worker and a lease reaper (every 100 ms) on a queue whose backoff is
 *       that fixed wait ({@link Backoff#none()} for 0); the handler prints {@code HANDLED <id> <attempt>
 *       <lease-expires-at>} (the lease of the claim, on the database's clock) and returns. When no task of
 *       the agent is left unended it closes the worker and prints {@code DONE <handled>}.
 *   <li>{@code cancel}: a worker whose store prints what the worker's fenced writes met: {@code REFUSED <write>
 *       <id> <attempt> cancelled=<true|false>} for a write refused as a lost claim, {@code WROTE <write> <id>
 *       <attempt>} for one that was written. Its handler, by the start of the task's description: {@code
 *       block} prints {@code STARTED <id>} and sleeps, then {@code INTERRUPTED <id>} when interrupted; {@code
 *       return} and {@code throw} print {@code STARTED <id>}, wait for the line {@code GO <id>} on standard
 *       input, then return or throw; anything else prints {@code HANDLED <id> <attempt>}. The line {@code STOP}
 *       closes the worker and prints {@code DONE <handled>}.
 * </ul>
 *
 * <p>Every mode prints {@code READY} once its worker runs.
 */
public final class WorkerProcessMain {
    private static final Duration LONG = Duration.ofMinutes(10);

    private WorkerProcessMain() {}

    /**
     * Runs the process.
     *
     * @param args mode, URL, agent, concurrency, lease in milliseconds, the mode's arguments
     * @throws Exception on any failure (the exit code tells the test)
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String url = args[1];
        String agent = args[2];
        int concurrency = Integer.parseInt(args[3]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (JdbcTaskStore store = JdbcTaskStore.builder(url)
                .eventPollInterval(Duration.ofMillis(100))
                .build()) {
            switch (mode) {
                case "hold" -> hold(store, agent, concurrency, lease, out);
                case "drain" -> drain(store, agent, concurrency, lease, Long.parseLong(args[5]), out);
                case "cancel" -> cancel(store, agent, concurrency, lease, out);
                default -> throw new IllegalArgumentException("Unknown mode " + mode);
            }
        }
    }

    private static void hold(JdbcTaskStore store, String agent, int concurrency, Duration lease, PrintStream out)
            throws InterruptedException {
        TaskQueue queue =
                TaskQueue.builder(store).leaseDuration(lease).maxAttempts(3).build();
        TaskWorker worker = TaskWorker.builder(queue)
                .agent(agent)
                .concurrency(concurrency)
                .handler(task -> {
                    say(out, "STARTED " + task.id() + " " + task.attempt());
                    Thread.sleep(LONG.toMillis());
                })
                .start();
        try {
            say(out, "READY");
            new CountDownLatch(1).await(); // until killed
        } finally {
            worker.close();
        }
    }

    private static void drain(
            JdbcTaskStore store, String agent, int concurrency, Duration lease, long backoffMillis, PrintStream out)
            throws InterruptedException {
        TaskQueue queue = TaskQueue.builder(store)
                .leaseDuration(lease)
                .maxAttempts(3)
                .backoff(backoffMillis == 0 ? Backoff.none() : Backoff.fixed(Duration.ofMillis(backoffMillis)))
                .build();
        LeaseReaper reaper = LeaseReaper.builder(queue)
                .reclaimInterval(Duration.ofMillis(100))
                .start();
        TaskWorker worker = TaskWorker.builder(queue)
                .agent(agent)
                .concurrency(concurrency)
                .pollInterval(Duration.ofMillis(200))
                .handler(task -> say(out, "HANDLED " + task.id() + " " + task.attempt() + " " + task.leaseExpiresAt()))
                .start();
        try {
            say(out, "READY");
            while (!queue.listQueue(agent).stream()
                    .allMatch(task -> task.status().isTerminal())) {
                Thread.sleep(50);
            }
        } finally {
            worker.close();
            reaper.close();
        }
        say(out, "DONE " + worker.handledCount());
    }

    private static void cancel(JdbcTaskStore store, String agent, int concurrency, Duration lease, PrintStream out)
            throws InterruptedException {
        Map<Long, CountDownLatch> go = new ConcurrentHashMap<>();
        CountDownLatch stop = new CountDownLatch(1);
        Thread input = new Thread(() -> readCommands(go, stop), "commands");
        input.setDaemon(true);
        input.start();
        TaskQueue queue = TaskQueue.builder(new TracingStore(store, out))
                .leaseDuration(lease)
                .maxAttempts(3)
                .build();
        TaskWorker worker = TaskWorker.builder(queue)
                .agent(agent)
                .concurrency(concurrency)
                .pollInterval(Duration.ofMillis(200))
                .handler(task -> {
                    String kind = task.description().split(" ")[0];
                    switch (kind) {
                        case "block" -> {
                            say(out, "STARTED " + task.id());
                            try {
                                Thread.sleep(LONG.toMillis());
                            } catch (InterruptedException e) {
                                say(out, "INTERRUPTED " + task.id());
                            }
                        }
                        case "return", "throw" -> {
                            say(out, "STARTED " + task.id());
                            // Not interruptible: the write after the handler is what is looked at.
                            CountDownLatch latch = go.computeIfAbsent(task.id(), id -> new CountDownLatch(1));
                            boolean interrupted = false;
                            while (true) {
                                try {
                                    if (!latch.await(LONG.toMillis(), TimeUnit.MILLISECONDS)) {
                                        throw new IllegalStateException("No GO for task " + task.id());
                                    }
                                    break;
                                } catch (InterruptedException e) {
                                    interrupted = true;
                                }
                            }
                            if (interrupted) {
                                say(out, "INTERRUPTED " + task.id());
                            }
                            if (kind.equals("throw")) {
                                throw new IllegalStateException("the handler of task " + task.id() + " fails");
                            }
                        }
                        default -> say(out, "HANDLED " + task.id() + " " + task.attempt());
                    }
                })
                .start();
        try {
            say(out, "READY");
            stop.await();
        } finally {
            worker.close();
        }
        say(out, "DONE " + worker.handledCount());
    }

    private static void readCommands(Map<Long, CountDownLatch> go, CountDownLatch stop) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("GO ")) {
                    go.computeIfAbsent(Long.parseLong(line.substring(3)), id -> new CountDownLatch(1))
                            .countDown();
                } else if (line.equals("STOP")) {
                    break;
                }
            }
        } catch (IOException e) {
            // the test is gone: stop
        }
        stop.countDown();
    }

    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
        }
    }

    /** The JDBC store, with its fenced writes printed as they were refused or written. */
    private static final class TracingStore implements TaskStore {
        private final JdbcTaskStore delegate;
        private final PrintStream out;

        TracingStore(JdbcTaskStore delegate, PrintStream out) {
            this.delegate = delegate;
            this.out = out;
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            return delegate.inTransaction(transaction -> work.execute(new Tracing(transaction)));
        }

        @Override
        public Optional<Task> claimNext(String assignee, Duration lease) {
            return delegate.claimNext(assignee, lease);
        }

        @Override
        public EventFeed eventFeed() {
            return delegate.eventFeed();
        }

        @Override
        public TaskCounts countTasks() {
            return delegate.countTasks();
        }

        @Override
        public void close() {
            delegate.close();
        }

        private final class Tracing extends ForwardingTaskTransaction {
            Tracing(TaskTransaction transaction) {
                super(transaction);
            }

            @Override
            public List<Task> claimUpTo(String assignee, Duration lease, int limit) {
                return delegate().claimUpTo(assignee, lease, limit);
            }

            @Override
            public List<ReclaimedTask> reclaimExpired(
                    int defaultMaxAttempts, int limit, IntFunction<Duration> backoff) {
                return delegate().reclaimExpired(defaultMaxAttempts, limit, backoff);
            }

            @Override
            public Task heartbeat(long taskId, String agent, int attempt, Duration lease) {
                try {
                    return delegate().heartbeat(taskId, agent, attempt, lease);
                } catch (ClaimLostException e) {
                    throw refused("heartbeat", taskId, attempt, e);
                }
            }

            @Override
            public Task complete(long taskId, String agent, int attempt, TaskStatus outcome) {
                try {
                    return wrote("complete", delegate().complete(taskId, agent, attempt, outcome), attempt);
                } catch (ClaimLostException e) {
                    throw refused("complete", taskId, attempt, e);
                }
            }

            @Override
            public Task complete(
                    long taskId, String agent, int attempt, TaskStatus outcome, boolean evenWithOpenChildren) {
                try {
                    return wrote(
                            "complete",
                            delegate().complete(taskId, agent, attempt, outcome, evenWithOpenChildren),
                            attempt);
                } catch (ClaimLostException e) {
                    throw refused("complete", taskId, attempt, e);
                }
            }

            @Override
            public Map<Long, Task> completeHeld(String agent, Map<Long, Integer> attempts, TaskStatus outcome) {
                Map<Long, Task> done = delegate().completeHeld(agent, attempts, outcome);
                done.forEach((taskId, task) -> wrote("complete", task, attempts.get(taskId)));
                return done;
            }

            @Override
            public Task release(long taskId, String agent, int attempt) {
                try {
                    return wrote("release", delegate().release(taskId, agent, attempt), attempt);
                } catch (ClaimLostException e) {
                    throw refused("release", taskId, attempt, e);
                }
            }

            private Task wrote(String write, Task task, int attempt) {
                say(out, "WROTE " + write + " " + task.id() + " " + attempt);
                return task;
            }

            private ClaimLostException refused(String write, long taskId, int attempt, ClaimLostException e) {
                say(out, "REFUSED " + write + " " + taskId + " " + attempt + " cancelled=" + e.cancelled());
                return e;
            }
        }
    }
}
