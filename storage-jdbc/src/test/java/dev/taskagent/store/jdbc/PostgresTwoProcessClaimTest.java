package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out promise: two JVMs sharing one PostgreSQL database claim every task exactly once. The
 * second JVM is a real process ({@link ClaimWorkerMain}) started on this test's class path.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresTwoProcessClaimTest {
    private static final Duration LEASE = Duration.ofMinutes(15);

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final int TASKS = 600;
    private static final int THREADS_PER_PROCESS = 4;

    @TempDir
    Path folder;

    @Test
    void twoProcessesClaimEveryTaskExactlyOnce() throws Exception {
        String url = TestDatabase.POSTGRES.newUrl();
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            List<Long> ids = store.inTransaction(tx -> {
                List<Long> created = new ArrayList<>();
                for (int index = 0; index < TASKS; index++) {
                    created.add(tx.appendTask(NewTask.builder("s" + index % 10, "task " + index)
                                    .assignee("worker")
                                    .priority(index % 3)
                                    .build())
                            .id());
                }
                return created;
            });

            Path errors = folder.resolve("worker-stderr.txt");
            Process worker = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            ClaimWorkerMain.class.getName(),
                            url,
                            "worker",
                            String.valueOf(THREADS_PER_PROCESS))
                    .redirectError(errors.toFile())
                    .start();
            ExecutorService executor = Executors.newFixedThreadPool(THREADS_PER_PROCESS + 1);
            try {
                BlockingQueue<String> lines = new LinkedBlockingQueue<>();
                executor.submit(() -> readLines(worker, lines));
                assertThat(lines.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                        .as("the worker process started (stderr: %s)", errors)
                        .isEqualTo("READY");

                try (Writer go = new OutputStreamWriter(worker.getOutputStream(), StandardCharsets.UTF_8)) {
                    go.write("GO\n");
                }
                // This JVM is warm and could drain the queue before the new one claims its first task: start
                // here once it has, so that the two claim side by side.
                List<Long> claimedThere = new ArrayList<>();
                String first = lines.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                assertThat(first)
                        .as("the worker process's first claim (stderr: %s)", errors)
                        .startsWith("CLAIMED ");
                claimedThere.add(Long.parseLong(first.substring("CLAIMED ".length())));
                List<Future<List<Long>>> here = new ArrayList<>();
                for (int thread = 0; thread < THREADS_PER_PROCESS; thread++) {
                    here.add(executor.submit(() -> ClaimWorkerMain.claimAll(store, "worker")));
                }
                List<Long> claimedHere = new ArrayList<>();
                for (Future<List<Long>> future : here) {
                    claimedHere.addAll(future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
                }
                for (String line = lines.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                        line != null && !line.equals("DONE");
                        line = lines.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                    assertThat(line).startsWith("CLAIMED ");
                    claimedThere.add(Long.parseLong(line.substring("CLAIMED ".length())));
                }
                assertThat(worker.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                        .isTrue();
                assertThat(worker.exitValue())
                        .as("worker exit code; stderr: %s", Files.readString(errors))
                        .isZero();

                List<Long> all = new ArrayList<>(claimedHere);
                all.addAll(claimedThere);
                assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
                assertThat(claimedHere).as("this process claimed some").isNotEmpty();
                assertThat(claimedThere).as("the other process claimed some").isNotEmpty();
                assertThat(store.claimNext("worker", LEASE)).isEmpty();
                List<Task> queue = store.inTransaction(tx -> tx.listQueue("worker"));
                assertThat(queue).extracting(Task::version).containsOnly(2L);
            } finally {
                worker.destroyForcibly();
                executor.shutdownNow();
            }
        }
    }

    private static Void readLines(Process process, BlockingQueue<String> lines) throws IOException {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        }
        return null;
    }
}
