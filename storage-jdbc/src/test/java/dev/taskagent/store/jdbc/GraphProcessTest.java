package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The work graph under real processes on a shared database: two JVMs claim and complete blockers, some
 * several in one transaction that lingers before it commits, while sixteen worker threads in two more JVMs
 * claim the tasks that wait for them. Every dependant whose blockers all succeed is claimed exactly once,
 * none is claimed before its last blocker's success committed, and none behind a failed blocker is claimed
 * at all. Runs on PostgreSQL and MariaDB when their URLs are set, and on H2 in server mode.
 *
 * <p>The workers check readiness themselves, independently of the claim: right after a claim each reads
 * every task the claimed one waits for, in a transaction of its own, and reports any that is not a
 * committed success ({@link GraphProcessMain}). The blockers' hosts hold each completing transaction open a
 * few milliseconds after it lowered the dependants' counts, so that a store which let a claim see those
 * counts before the commit would be caught reading a blocker still running. (Checked by breaking the store
 * on purpose: a claim that ignores the open blocker count, and a completion that commits the lowered counts
 * before the blocker's status, each make this test fail on every database.)
 */
class GraphProcessTest {
    private static final String BUILDERS = "builder";
    private static final String WORKERS = "worker";
    private static final int BLOCKERS = 240;
    private static final int DEPENDANTS = 360;
    /** Every this-many-th blocker fails. */
    private static final int FAILING_EVERY = 15;
    /** Every this-many-th dependant also waits for an earlier dependant. */
    private static final int CHAINED_EVERY = 4;

    private static final int COMPLETER_THREADS = 2;
    private static final int WORKER_THREADS = 8;
    private static final Duration WORKER_DEADLINE = Duration.ofSeconds(50);
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir
    Path folder;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void everyDependantIsClaimedExactlyOnceAndNeverBeforeItsLastBlockerCommitted(String database) throws Exception {
        SharedDatabase shared = SharedDatabase.open(database, folder, "graph");
        String url = shared.url();
        long seed = new Random().nextLong();
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            Layout layout = Layout.create(store, new Random(seed));
            String about = "seed " + seed + " on " + database;

            List<ChildJvm> completers = new ArrayList<>();
            List<ChildJvm> workers = new ArrayList<>();
            for (int host = 1; host <= 2; host++) {
                completers.add(start(
                        processes, "completer-" + host, url, "complete", BUILDERS, String.valueOf(COMPLETER_THREADS)));
                workers.add(start(
                        processes,
                        "worker-" + host,
                        url,
                        "claim",
                        WORKERS,
                        String.valueOf(WORKER_THREADS),
                        String.valueOf(layout.stuck().size()),
                        String.valueOf(WORKER_DEADLINE.toSeconds())));
            }
            for (ChildJvm process : processes) {
                process.awaitLine("READY"::equals, DEADLINE);
            }
            for (ChildJvm process : processes) {
                process.send("GO");
            }
            for (ChildJvm process : processes) {
                process.awaitExit(DEADLINE);
            }

            // No worker saw a claimed task wait for anything but a committed success.
            List<String> violations = lines(workers, "VIOLATION ");
            assertThat(violations)
                    .as("claims of tasks whose blockers had not all succeeded (%s)", about)
                    .isEmpty();
            Set<Long> unclaimed = new HashSet<>(layout.ready());
            ids(workers, "CLAIMED ").forEach(unclaimed::remove);
            assertThat(lines(workers, "TIMEOUT"))
                    .as("workers that ran out of time (%s); ready tasks left unclaimed: %s", about, unclaimed)
                    .isEmpty();

            // Each blocker claimed and completed exactly once, each ready dependant claimed exactly once.
            assertThat(ids(completers, "CLAIMED "))
                    .as("blockers claimed (%s)", about)
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(layout.blockers());
            assertThat(ids(completers, "COMPLETED "))
                    .as("blockers completed (%s)", about)
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(layout.blockers());
            List<Long> claimed = ids(workers, "CLAIMED ");
            assertThat(claimed)
                    .as("dependants claimed (%s)", about)
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(layout.ready());
            for (List<ChildJvm> side : List.of(completers, workers)) {
                assertThat(side)
                        .as("each process did part of the work (%s)", about)
                        .allSatisfy(process -> assertThat(process.count(line -> line.startsWith("CLAIMED ")))
                                .as("claims of %s", process)
                                .isPositive());
            }
            // The claims of dependants and the completions of blockers overlapped in time (in most runs here nine
            // claims in ten came before the last blocker's completion, in the fewest one in fourteen: at least one in
            // thirty shows the race was run).
            long lastBlockerCommitted = millis(completers, "COMPLETED ").stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElseThrow();
            assertThat(millis(workers, "CLAIMED ").stream().filter(at -> at < lastBlockerCommitted))
                    .as("dependants claimed while blockers were still being completed (%s)", about)
                    .hasSizeGreaterThan(layout.ready().size() / 30);

            // The store agrees: the graph as laid out, the ready tasks done once, the others still waiting.
            Map<Long, Task> tasks = new HashMap<>();
            for (String session : List.of("graph-blockers", "graph-dependants")) {
                store.listTasks(session).forEach(task -> tasks.put(task.id(), task));
            }
            assertThat(tasks).hasSize(BLOCKERS + DEPENDANTS);
            for (long id : layout.blockers()) {
                assertThat(tasks.get(id).status())
                        .as("blocker %d", id)
                        .isEqualTo(layout.failing().contains(id) ? TaskStatus.FAILED : TaskStatus.SUCCESS);
            }
            for (Map.Entry<Long, List<Long>> dependant : layout.waitsFor().entrySet()) {
                Task task = tasks.get(dependant.getKey());
                assertThat(task.blockedBy())
                        .as("blockers of %d", task.id())
                        .containsExactlyElementsOf(dependant.getValue());
                if (layout.stuck().contains(task.id())) {
                    assertThat(task.status())
                            .as("task %d, behind a failed blocker", task.id())
                            .isEqualTo(TaskStatus.PENDING);
                    assertThat(task.openBlockers())
                            .as("open blockers of %d", task.id())
                            .isPositive();
                } else {
                    assertThat(task.status()).as("task %d", task.id()).isEqualTo(TaskStatus.SUCCESS);
                    assertThat(task.attempt())
                            .as("attempts of task %d", task.id())
                            .isEqualTo(1);
                    assertThat(task.openBlockers())
                            .as("open blockers of %d", task.id())
                            .isZero();
                }
            }
        } finally {
            for (ChildJvm process : processes) {
                process.close();
            }
            shared.close();
        }
        assertThat(processes).noneMatch(ChildJvm::isAlive);
    }

    /**
     * The graph the test lays out: blockers for the builders (every {@value #FAILING_EVERY}th one tagged to
     * fail), and dependants for the workers, each waiting for one to three random blockers (so that many
     * share one) and every {@value #CHAINED_EVERY}th also for an earlier dependant.
     *
     * @param blockers the builders' tasks
     * @param failing those of them that fail
     * @param waitsFor each dependant's blockers, lowest id first
     * @param ready the dependants whose blockers all succeed, in the end
     * @param stuck the dependants that wait for a failed task, directly or through another dependant
     */
    private record Layout(
            List<Long> blockers, Set<Long> failing, Map<Long, List<Long>> waitsFor, Set<Long> ready, Set<Long> stuck) {

        static Layout create(JdbcTaskStore store, Random random) {
            return store.inTransaction(tx -> {
                List<Long> blockers = new ArrayList<>();
                Set<Long> failing = new HashSet<>();
                for (int index = 0; index < BLOCKERS; index++) {
                    boolean fails = index % FAILING_EVERY == FAILING_EVERY - 1;
                    NewTask.Builder task = NewTask.builder("graph-blockers", "blocker " + index)
                            .assignee(BUILDERS)
                            .priority(random.nextInt(3));
                    if (fails) {
                        task.tags("fails");
                    }
                    long id = tx.appendTask(task.build()).id();
                    blockers.add(id);
                    if (fails) {
                        failing.add(id);
                    }
                }
                Map<Long, List<Long>> waitsFor = new TreeMap<>();
                Set<Long> stuck = new HashSet<>();
                List<Long> dependants = new ArrayList<>();
                for (int index = 0; index < DEPENDANTS; index++) {
                    Set<Long> waits = new LinkedHashSet<>();
                    int count = 1 + random.nextInt(3);
                    while (waits.size() < count) {
                        waits.add(blockers.get(random.nextInt(blockers.size())));
                    }
                    if (index % CHAINED_EVERY == CHAINED_EVERY - 1) {
                        waits.add(dependants.get(random.nextInt(dependants.size())));
                    }
                    long id = tx.appendTask(NewTask.builder("graph-dependants", "dependant " + index)
                                    .assignee(WORKERS)
                                    .priority(random.nextInt(3))
                                    .blockedBy(List.copyOf(waits))
                                    .build())
                            .id();
                    dependants.add(id);
                    waitsFor.put(id, waits.stream().sorted().collect(Collectors.toList()));
                    if (waits.stream().anyMatch(wait -> failing.contains(wait) || stuck.contains(wait))) {
                        stuck.add(id);
                    }
                }
                Set<Long> ready = new HashSet<>(dependants);
                ready.removeAll(stuck);
                return new Layout(blockers, failing, waitsFor, ready, stuck);
            });
        }
    }

    private ChildJvm start(List<ChildJvm> processes, String name, String... arguments) throws Exception {
        ChildJvm process = ChildJvm.start(name, folder, GraphProcessMain.class, arguments);
        processes.add(process);
        return process;
    }

    private static List<String> lines(List<ChildJvm> processes, String prefix) {
        return processes.stream()
                .flatMap(process -> process.lines().stream())
                .filter(line -> line.startsWith(prefix))
                .collect(Collectors.toList());
    }

    private static List<Long> ids(List<ChildJvm> processes, String prefix) {
        return lines(processes, prefix).stream()
                .map(line -> Long.parseLong(line.split(" ")[1]))
                .collect(Collectors.toList());
    }

    /** The wall clock the lines end with. */
    private static List<Long> millis(List<ChildJvm> processes, String prefix) {
        return lines(processes, prefix).stream()
                .map(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
                .collect(Collectors.toList());
    }
}
