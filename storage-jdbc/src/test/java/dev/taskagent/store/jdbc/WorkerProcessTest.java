package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link dev.taskagent.queue.TaskWorker} across real processes on a shared database: a worker JVM killed with
 * SIGKILL while it holds a full batch, whose tasks the lease reapers of two other worker JVMs bring back only
 * after the lease and the backoff, each then done exactly once; and a task cancelled by this process while a
 * worker JVM's handler runs on it, whose next fenced write the worker is refused as cancelled, after which
 * the worker writes nothing for it and goes on to the next task. Runs on PostgreSQL and MariaDB when their
 * URLs are set, and on H2 in server mode.
 */
class WorkerProcessTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static final String SESSION = "worker-process";
    private static final int TASKS = 12;
    private static final int CONCURRENCY = 2;
    /** What a worker holds at most: a task per thread, and as many claimed ahead. */
    private static final int HELD = 2 * CONCURRENCY;

    /** The lease of the worker that is killed and of the one whose handler is cancelled by renewing it. */
    private static final Duration LEASE = Duration.ofMillis(1500);
    /** The survivors' lease: long, so that no claim of theirs expires while a cold JVM is slow. */
    private static final Duration SURVIVOR_LEASE = Duration.ofSeconds(20);

    private static final Duration BACKOFF = Duration.ofSeconds(2);
    /** Long enough that no lease renewal runs while a cancel test case waits for its handler's write. */
    private static final Duration LONG_LEASE = Duration.ofMinutes(5);

    @TempDir
    Path folder;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void theBatchOfAWorkerKilledHoldingItComesBackAfterTheLeaseAndTheBackoffAndEachTaskIsDoneOnce(String database)
            throws Exception {
        String agent = "crew";
        SharedDatabase shared = SharedDatabase.open(database, folder, "killed");
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(shared.url())) {
            Set<Long> ids = store.inTransaction(tx -> {
                Set<Long> created = new HashSet<>();
                for (int index = 0; index < TASKS; index++) {
                    created.add(tx.appendTask(NewTask.builder(SESSION, "task " + index)
                                    .assignee(agent)
                                    .maxAttempts(3)
                                    .build())
                            .id());
                }
                return created;
            });

            ChildJvm holder = start(processes, "holder", "hold", shared.url(), agent, CONCURRENCY, LEASE);
            holder.awaitLine(line -> holder.count(started()) == CONCURRENCY, DEADLINE);
            Map<Long, Task> held = running(store, agent);
            assertThat(held)
                    .as("the tasks the worker holds, started or claimed ahead")
                    .hasSize(HELD);
            assertThat(holder.lines().stream().filter(started()).map(WorkerProcessTest::id))
                    .as("tasks whose handler started")
                    .hasSize(CONCURRENCY)
                    .allSatisfy(id -> assertThat(held).containsKey(id));

            holder.kill9();
            // The leases as the dead worker last renewed them, on the database's clock.
            Map<Long, Instant> expiry = new HashMap<>();
            running(store, agent).forEach((id, task) -> expiry.put(id, task.leaseExpiresAt()));
            assertThat(expiry.keySet())
                    .as("tasks still held by the dead worker")
                    .isEqualTo(held.keySet());

            // Both survivors start at once; meanwhile the held tasks are watched, to see the wait the reaper
            // gave each when it put it back.
            ChildJvm first = launch(
                    processes,
                    "survivor-1",
                    "drain",
                    shared.url(),
                    agent,
                    CONCURRENCY,
                    SURVIVOR_LEASE,
                    BACKOFF.toMillis());
            ChildJvm second = launch(
                    processes,
                    "survivor-2",
                    "drain",
                    shared.url(),
                    agent,
                    CONCURRENCY,
                    SURVIVOR_LEASE,
                    BACKOFF.toMillis());
            Map<Long, Instant> notBefore = new HashMap<>();
            Set<Long> backAtOnce = new HashSet<>();
            Instant end = Instant.now().plus(DEADLINE);
            while ((first.isAlive() || second.isAlive()) && Instant.now().isBefore(end)) {
                for (Task task : store.inTransaction(tx -> tx.listQueue(agent))) {
                    if (held.containsKey(task.id()) && task.status() == TaskStatus.PENDING) {
                        if (task.notBefore() == null) {
                            backAtOnce.add(task.id());
                        } else {
                            notBefore.putIfAbsent(task.id(), task.notBefore());
                        }
                    }
                }
                Thread.sleep(20);
            }
            first.awaitExit(DEADLINE);
            second.awaitExit(DEADLINE);
            assertThat(backAtOnce).as("tasks put back without a backoff").isEmpty();
            assertThat(notBefore.keySet())
                    .as("tasks seen waiting for their backoff after the reaper put them back")
                    .isEqualTo(held.keySet());

            List<Handled> handled = new ArrayList<>();
            handled.addAll(handled(first));
            handled.addAll(handled(second));
            Map<Long, List<Handled>> byTask = handled.stream().collect(Collectors.groupingBy(Handled::id));
            assertThat(byTask.keySet()).as("tasks the survivors handled").containsExactlyInAnyOrderElementsOf(ids);
            assertThat(byTask.values())
                    .as("each task handled once by the survivors")
                    .allSatisfy(once -> assertThat(once).hasSize(1));
            assertThat(done(first) + done(second))
                    .as("the survivors' handled counts")
                    .isEqualTo(TASKS);

            List<Task> tasks = store.inTransaction(tx -> tx.listTasks(SESSION));
            assertThat(tasks).hasSize(TASKS).allSatisfy(task -> {
                assertThat(task.status()).as("task %d", task.id()).isEqualTo(TaskStatus.SUCCESS);
                assertThat(task.leaseExpiresAt()).as("task %d", task.id()).isNull();
            });
            for (Task task : tasks) {
                Handled survivor = byTask.get(task.id()).get(0);
                List<Comment> reaped = task.comments().stream()
                        .filter(comment -> comment.author().equals(Leases.REAPER))
                        .toList();
                if (!held.containsKey(task.id())) {
                    assertThat(task.attempt())
                            .as("task %d, never held by the dead worker", task.id())
                            .isEqualTo(1);
                    assertThat(reaped)
                            .as("task %d, never held by the dead worker", task.id())
                            .isEmpty();
                    continue;
                }
                Instant expired = expiry.get(task.id());
                assertThat(task.attempt())
                        .as("attempts of task %d, held by the dead worker", task.id())
                        .isEqualTo(2);
                assertThat(survivor.attempt()).isEqualTo(2);
                assertThat(reaped)
                        .as("the reaper's comment on task %d", task.id())
                        .extracting(Comment::text)
                        .containsExactly(Leases.reclaimComment(1, 3, expired));
                // On the database's clock: the lease as the dead worker left it, the wait the reaper set, and
                // the start of the survivor's claim (its lease less its length).
                Instant waitedFor = notBefore.get(task.id());
                Instant claimed = survivor.leaseExpiresAt().minus(SURVIVOR_LEASE);
                assertThat(waitedFor)
                        .as(
                                "task %d's not-before time; its lease expired at %s, the backoff is %s",
                                task.id(), expired, BACKOFF)
                        .isAfterOrEqualTo(expired.plus(BACKOFF));
                assertThat(claimed)
                        .as("when task %d was claimed again; it was put back to wait until %s", task.id(), waitedFor)
                        .isAfterOrEqualTo(waitedFor);
            }
        } finally {
            processes.forEach(ChildJvm::close);
            shared.close();
        }
        assertThat(processes).noneMatch(ChildJvm::isAlive);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void aTaskCancelledWhileAWorkerProcessHandlesItIsRefusedItsNextWriteAndTheWorkerGoesOn(String database)
            throws Exception {
        SharedDatabase shared = SharedDatabase.open(database, folder, "cancelled");
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(shared.url())) {
            TaskQueue queue = TaskQueue.builder(store).build();
            // A handler that blocks: the worker's lease renewal is refused, and interrupts it.
            ChildJvm renewing = start(processes, "renewing", "cancel", shared.url(), "renewing", 1, LEASE);
            // Handlers that end after the cancel: the write of their outcome is refused.
            ChildJvm ending = start(processes, "ending", "cancel", shared.url(), "ending", 1, LONG_LEASE);

            long blocking = create(queue, "block on the catalogue", "renewing");
            renewing.awaitLine(("STARTED " + blocking)::equals, DEADLINE);
            Task blockingCancelled = queue.cancel(blocking, "operator", "the catalogue is frozen");
            renewing.awaitLine(("INTERRUPTED " + blocking)::equals, DEADLINE);
            long afterBlocking = create(queue, "next one", "renewing");
            renewing.awaitLine(("HANDLED " + afterBlocking + " 1")::equals, DEADLINE);

            long returning = create(queue, "return from the import", "ending");
            ending.awaitLine(("STARTED " + returning)::equals, DEADLINE);
            Task returningCancelled = queue.cancel(returning, "operator", "the import is obsolete");
            ending.send("GO " + returning);
            ending.awaitLine(line -> line.startsWith("REFUSED complete " + returning + " "), DEADLINE);

            long throwing = create(queue, "throw from the export", "ending");
            ending.awaitLine(("STARTED " + throwing)::equals, DEADLINE);
            Task throwingCancelled = queue.cancel(throwing, "operator", "the export is obsolete");
            ending.send("GO " + throwing);
            ending.awaitLine(line -> line.startsWith("REFUSED release " + throwing + " "), DEADLINE);

            long afterEnding = create(queue, "next one", "ending");
            ending.awaitLine(("HANDLED " + afterEnding + " 1")::equals, DEADLINE);

            renewing.awaitLine(("WROTE complete " + afterBlocking + " 1")::equals, DEADLINE);
            ending.awaitLine(("WROTE complete " + afterEnding + " 1")::equals, DEADLINE);
            renewing.send("STOP");
            ending.send("STOP");
            renewing.awaitExit(DEADLINE);
            ending.awaitExit(DEADLINE);

            assertThat(fencedWrites(renewing, blocking))
                    .as("the renewing worker's fenced writes of task %d after its cancel", blocking)
                    .containsExactly("REFUSED heartbeat " + blocking + " 1 cancelled=true");
            assertThat(fencedWrites(ending, returning))
                    .as("the ending worker's fenced writes of task %d, whose handler returned", returning)
                    .containsExactly("REFUSED complete " + returning + " 1 cancelled=true");
            assertThat(fencedWrites(ending, throwing))
                    .as("the ending worker's fenced writes of task %d, whose handler threw", throwing)
                    .containsExactly("REFUSED release " + throwing + " 1 cancelled=true");
            assertThat(ending.lines())
                    .as("handlers that ended by themselves")
                    .noneMatch(line -> line.startsWith("INTERRUPTED "));
            // A renewal may still name a task whose success is being written, and be refused: not a write.
            assertThat(fencedWrites(renewing, afterBlocking))
                    .filteredOn(line -> line.startsWith("WROTE "))
                    .containsExactly("WROTE complete " + afterBlocking + " 1");
            assertThat(fencedWrites(ending, afterEnding))
                    .filteredOn(line -> line.startsWith("WROTE "))
                    .containsExactly("WROTE complete " + afterEnding + " 1");
            assertThat(renewing.lines()).contains("DONE 2");
            assertThat(ending.lines()).contains("DONE 3");

            for (Task cancelled : List.of(blockingCancelled, returningCancelled, throwingCancelled)) {
                Task now = queue.get(cancelled.id()).orElseThrow();
                assertThat(now.status()).as("task %d", now.id()).isEqualTo(TaskStatus.CANCELLED);
                assertThat(now.leaseExpiresAt()).as("task %d", now.id()).isNull();
                assertThat(now.attempt()).as("task %d", now.id()).isEqualTo(1);
                assertThat(now.version())
                        .as("task %d's version: nothing written after the cancel", now.id())
                        .isEqualTo(cancelled.version());
                assertThat(now.comments())
                        .as("task %d", now.id())
                        .extracting(Comment::author)
                        .containsExactly("operator");
            }
            for (long next : List.of(afterBlocking, afterEnding)) {
                assertThat(queue.get(next).orElseThrow().status()).isEqualTo(TaskStatus.SUCCESS);
            }
        } finally {
            processes.forEach(ChildJvm::close);
            shared.close();
        }
        assertThat(processes).noneMatch(ChildJvm::isAlive);
    }

    private ChildJvm start(
            List<ChildJvm> processes,
            String name,
            String mode,
            String url,
            String agent,
            int concurrency,
            Duration lease,
            Object... more)
            throws Exception {
        ChildJvm process = launch(processes, name, mode, url, agent, concurrency, lease, more);
        process.awaitLine("READY"::equals, DEADLINE);
        return process;
    }

    private ChildJvm launch(
            List<ChildJvm> processes,
            String name,
            String mode,
            String url,
            String agent,
            int concurrency,
            Duration lease,
            Object... more)
            throws Exception {
        List<String> arguments = new ArrayList<>(
                List.of(mode, url, agent, String.valueOf(concurrency), String.valueOf(lease.toMillis())));
        for (Object argument : more) {
            arguments.add(String.valueOf(argument));
        }
        ChildJvm process = ChildJvm.start(name, folder, WorkerProcessMain.class, arguments.toArray(String[]::new));
        processes.add(process);
        return process;
    }

    private static long create(TaskQueue queue, String description, String agent) {
        return queue.create(queue.newTask(description).assignee(agent).build()).id();
    }

    /** The agent's running tasks, by id. */
    private static Map<Long, Task> running(JdbcTaskStore store, String agent) {
        return store.inTransaction(tx -> tx.listQueue(agent)).stream()
                .filter(task -> task.status() == TaskStatus.RUNNING)
                .collect(Collectors.toMap(Task::id, task -> task));
    }

    private static Predicate<String> started() {
        return line -> line.startsWith("STARTED ");
    }

    private static long id(String line) {
        return Long.parseLong(line.split(" ")[1]);
    }

    /** What a survivor's handler printed for a task. */
    private record Handled(long id, int attempt, Instant leaseExpiresAt) {}

    private static List<Handled> handled(ChildJvm survivor) {
        return survivor.lines().stream()
                .filter(line -> line.startsWith("HANDLED "))
                .map(line -> {
                    String[] fields = line.split(" ");
                    return new Handled(
                            Long.parseLong(fields[1]), Integer.parseInt(fields[2]), Instant.parse(fields[3]));
                })
                .toList();
    }

    private static int done(ChildJvm survivor) {
        return survivor.lines().stream()
                .filter(line -> line.startsWith("DONE "))
                .mapToInt(line -> Integer.parseInt(line.substring("DONE ".length())))
                .sum();
    }

    /** The fenced writes a worker's store printed for a task: written or refused. */
    private static List<String> fencedWrites(ChildJvm worker, long taskId) {
        return worker.lines().stream()
                .filter(line -> line.startsWith("WROTE ") || line.startsWith("REFUSED "))
                .filter(line -> Long.parseLong(line.split(" ")[2]) == taskId)
                .toList();
    }
}
