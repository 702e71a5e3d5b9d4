package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Request ids on appends hold across processes (TS-5.7): two JVMs, each with four threads, comment on or link
 * the same tasks at the same moment, every call on a task with that task's one request id; every task ends with
 * exactly one entry, and exactly one call wrote it. Runs on PostgreSQL and MariaDB when their URLs are set, and on
 * H2 in server mode.
 */
class RequestIdProcessTest {
    private static final int TASKS = 60;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path folder;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.taskagent.store.jdbc.SharedDatabase#names")
    void twoProcessesRetryingOneRequestIdPerTaskWriteOneEntryPerTask(String database) throws Exception {
        SharedDatabase shared = SharedDatabase.open(database, folder, "tasks");
        String url = shared.url();
        String prefix = "retry-" + UUID.randomUUID() + "-";
        List<ChildJvm> processes = new ArrayList<>();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            String session = "requests-" + UUID.randomUUID();
            List<Long> ids = store.inTransaction(tx -> {
                List<Long> created = new ArrayList<>();
                for (int index = 0; index < TASKS; index++) {
                    created.add(
                            tx.appendTask(NewTask.of(session, "task " + index)).id());
                }
                return created;
            });
            String taskIds = ids.stream().map(String::valueOf).collect(Collectors.joining(","));
            long startAt = System.currentTimeMillis() + 4_000;
            for (String host : List.of("host-a", "host-b")) {
                processes.add(ChildJvm.start(
                        host,
                        folder,
                        RequestIdAppendMain.class,
                        url,
                        host,
                        prefix,
                        taskIds,
                        "4",
                        String.valueOf(startAt)));
            }
            for (ChildJvm process : processes) {
                process.awaitLine("READY"::equals, DEADLINE);
            }
            for (ChildJvm process : processes) {
                process.awaitExit(DEADLINE);
            }

            Map<Long, Integer> written = new HashMap<>();
            Map<Long, Integer> answered = new HashMap<>();
            for (ChildJvm process : processes) {
                for (String line : process.lines()) {
                    String[] parts = line.split(" ");
                    if (parts[0].equals("WROTE") || parts[0].equals("REPLAY")) {
                        long taskId = Long.parseLong(parts[1]);
                        answered.merge(taskId, 1, Integer::sum);
                        if (parts[0].equals("WROTE")) {
                            written.merge(taskId, 1, Integer::sum);
                        }
                    }
                }
            }
            assertThat(answered).as("calls answered per task").hasSize(TASKS).containsOnlyKeys(ids);
            assertThat(answered.values())
                    .as("calls per task, two hosts of four threads")
                    .containsOnly(8);
            assertThat(written).as("tasks written").hasSize(TASKS);
            assertThat(written.values()).as("calls that wrote, per task").containsOnly(1);
            for (Task task : store.listTasks(session)) {
                assertThat(task.comments().size() + task.links().size())
                        .as("entries of task %d", task.id())
                        .isEqualTo(1);
                assertThat(task.version()).as("version of task %d", task.id()).isEqualTo(2);
            }
        } finally {
            for (ChildJvm process : processes) {
                process.close();
            }
            shared.close();
        }
    }
}
