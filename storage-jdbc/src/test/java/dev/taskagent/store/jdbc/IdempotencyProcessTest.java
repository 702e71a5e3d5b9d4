package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.Task;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Idempotency keys hold across processes: two JVMs, each with four threads, create a task for each of the same
 * keys at the same moment, in sessions of their own; every key ends with exactly one task, and every create
 * names it. Runs on PostgreSQL and MariaDB when their URLs are set, and on H2 in server mode.
 */
class IdempotencyProcessTest {
    private static final int KEYS = 150;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path folder;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void twoProcessesCreatingWithTheSameKeysMakeOneTaskPerKey(String database) throws Exception {
        SharedDatabase shared = SharedDatabase.open(database, folder, "tasks");
        String url = shared.url();
        String prefix = "order-" + UUID.randomUUID() + "-";
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            long startAt = System.currentTimeMillis() + 4_000;
            for (String host : List.of("host-a", "host-b")) {
                ChildJvm process = ChildJvm.start(
                        host,
                        folder,
                        IdempotentCreateMain.class,
                        url,
                        host,
                        prefix,
                        String.valueOf(KEYS),
                        "4",
                        String.valueOf(startAt));
                processes.add(process);
            }
            for (ChildJvm process : processes) {
                process.awaitLine("READY"::equals, DEADLINE);
            }
            for (ChildJvm process : processes) {
                process.awaitExit(DEADLINE);
            }

            Map<String, Set<Long>> idsByKey = new HashMap<>();
            Map<String, Integer> createdByKey = new HashMap<>();
            for (ChildJvm process : processes) {
                for (String line : process.lines()) {
                    String[] parts = line.split(" ");
                    if (parts[0].equals("CREATED") || parts[0].equals("EXISTS")) {
                        idsByKey.computeIfAbsent(parts[1], key -> new HashSet<>())
                                .add(Long.parseLong(parts[2]));
                        if (parts[0].equals("CREATED")) {
                            createdByKey.merge(parts[1], 1, Integer::sum);
                        }
                    }
                }
            }
            List<Task> tasks = new ArrayList<>(store.listTasks("host-a"));
            tasks.addAll(store.listTasks("host-b"));
            assertThat(idsByKey).as("keys answered").hasSize(KEYS);
            assertThat(idsByKey.values()).as("one task per key in every answer").allSatisfy(ids -> assertThat(ids)
                    .hasSize(1));
            assertThat(createdByKey.values()).as("one create per key").containsOnly(1);
            assertThat(createdByKey).hasSize(KEYS);
            assertThat(tasks).as("tasks in the two sessions").hasSize(KEYS);
            Set<Long> answered = new HashSet<>();
            idsByKey.values().forEach(answered::addAll);
            assertThat(tasks).extracting(Task::id).containsExactlyInAnyOrderElementsOf(answered);
        } finally {
            for (ChildJvm process : processes) {
                process.close();
            }
            shared.close();
        }
    }
}
