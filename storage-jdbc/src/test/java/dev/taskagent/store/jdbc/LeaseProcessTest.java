package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue survives dead workers, with real processes on a shared database: hosts that claimed tasks are
 * killed with SIGKILL while holding them, a working host is killed mid-run and started again, and the
 * lease reapers the working hosts run bring every lost claim back. Runs on PostgreSQL and MariaDB when
 * their URLs are set, and on H2 in server mode (several JVMs on one H2 database over TCP).
 */
class LeaseProcessTest {
    private static final String AGENT = "crew";
    private static final int TASKS = 120;
    private static final int HELD_PER_PROCESS = 10;
    private static final String LEASE_MILLIS = "1500";
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path folder;

    /** The database the processes of the running test share. */
    private String url;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void tasksOfKilledWorkersComeBackAndEachIsCompletedExactlyOnce(String database) throws Exception {
        SharedDatabase shared = SharedDatabase.open(database, folder, "tasks");
        url = shared.url();
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            Set<Long> ids = createTasks(store);

            // Two hosts claim tasks and die holding them.
            Set<Long> heldByTheDead = new HashSet<>();
            for (int host = 1; host <= 2; host++) {
                ChildJvm holder = start(processes, "holder-" + host, "hold", HELD_PER_PROCESS);
                holder.awaitLine("HOLDING"::equals, DEADLINE);
                holder.lines().stream()
                        .filter(line -> line.startsWith("CLAIMED "))
                        .forEach(line -> heldByTheDead.add(id(line)));
                holder.kill9();
            }
            assertThat(heldByTheDead).hasSize(2 * HELD_PER_PROCESS);

            // Two hosts work the queue; one dies mid-run and its host starts it again.
            ChildJvm first = start(processes, "worker-1", "work", 2);
            ChildJvm second = start(processes, "worker-2", "work", 2);
            first.awaitLine(line -> first.count(printed -> printed.startsWith("COMPLETED ")) >= 10, DEADLINE);
            first.kill9();
            ChildJvm restarted = start(processes, "worker-1-restarted", "work", 2);
            second.awaitExit(DEADLINE);
            restarted.awaitExit(DEADLINE);

            Map<Long, List<ChildJvm>> completers = new HashMap<>();
            for (ChildJvm process : processes) {
                for (String line : process.lines()) {
                    if (line.startsWith("COMPLETED ")) {
                        completers
                                .computeIfAbsent(id(line), id -> new ArrayList<>())
                                .add(process);
                    }
                }
            }
            List<Task> tasks = store.inTransaction(tx -> tx.listTasks("crew-work"));
            assertThat(tasks).hasSize(TASKS);
            assertThat(tasks).as("no task is left running, leased or not").allSatisfy(task -> {
                assertThat(task.status()).as("task %d", task.id()).isEqualTo(TaskStatus.SUCCESS);
                assertThat(task.leaseExpiresAt()).isNull();
            });
            // The killed worker may have committed a completion and died before printing it. Such a task
            // counts as completed by it only if it holds the attempt the killed worker claimed: any other
            // host completing it would first have needed a reclaim, which raises the attempt.
            Map<Long, Integer> claimedByTheKilled = new HashMap<>();
            first.lines().stream()
                    .filter(line -> line.startsWith("CLAIMED "))
                    .forEach(line -> claimedByTheKilled.put(id(line), attempt(line)));
            Set<Long> completedSilently = new HashSet<>();
            for (Task task : tasks) {
                if (!completers.containsKey(task.id())) {
                    assertThat(claimedByTheKilled.get(task.id()))
                            .as(
                                    "task %d is done but no host said it completed it; only a claim the "
                                            + "killed worker held when it died may be silent",
                                    task.id())
                            .isEqualTo(task.attempt());
                    completers.put(task.id(), List.of(first));
                    completedSilently.add(task.id());
                }
            }
            assertThat(completedSilently)
                    .as("one claim per thread of the killed worker at most")
                    .hasSizeLessThanOrEqualTo(2);
            assertThat(completers.keySet()).as("tasks completed").containsExactlyInAnyOrderElementsOf(ids);
            assertThat(completers.values())
                    .as("each task completed exactly once")
                    .allSatisfy(processesThatCompleted ->
                            assertThat(processesThatCompleted).hasSize(1));
            for (Task task : tasks) {
                if (heldByTheDead.contains(task.id())) {
                    assertThat(task.attempt())
                            .as("task %d, held by a dead host", task.id())
                            .isGreaterThan(1);
                    assertThat(task.comments())
                            .as("task %d, held by a dead host", task.id())
                            .anySatisfy(comment -> assertThat(comment.author()).isEqualTo(Leases.REAPER));
                }
            }
            Set<Long> lostWithTheWorker = new HashSet<>();
            first.lines().stream()
                    .filter(line -> line.startsWith("CLAIMED "))
                    .forEach(line -> lostWithTheWorker.add(id(line)));
            first.lines().stream()
                    .filter(line -> line.startsWith("COMPLETED "))
                    .forEach(line -> lostWithTheWorker.remove(id(line)));
            lostWithTheWorker.removeAll(completedSilently);
            assertThat(lostWithTheWorker)
                    .as("claims the killed worker held, completed by the other hosts")
                    .allSatisfy(id -> assertThat(completers.get(id)).doesNotContain(first));
        } finally {
            for (ChildJvm process : processes) {
                process.close();
            }
            shared.close();
        }
        assertThat(processes).noneMatch(ChildJvm::isAlive);
    }

    private Set<Long> createTasks(JdbcTaskStore store) {
        return store.inTransaction(tx -> {
            Set<Long> created = new HashSet<>();
            for (int index = 0; index < TASKS; index++) {
                created.add(tx.appendTask(NewTask.builder("crew-work", "task " + index)
                                .assignee(AGENT)
                                .maxAttempts(3)
                                .build())
                        .id());
            }
            return created;
        });
    }

    private ChildJvm start(List<ChildJvm> processes, String name, String mode, int threads) throws Exception {
        ChildJvm process = ChildJvm.start(
                name, folder, LeaseWorkerMain.class, url, AGENT, mode, String.valueOf(threads), LEASE_MILLIS);
        processes.add(process);
        process.awaitLine("READY"::equals, DEADLINE);
        return process;
    }

    private static long id(String line) {
        return Long.parseLong(line.split(" ")[1]);
    }

    private static int attempt(String line) {
        return Integer.parseInt(line.split(" ")[2]);
    }
}
