package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.taskagent.taskfile.UserTasks.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Timeouts, process groups, large outputs and concurrent runs, with real processes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessSafetyTest {
    private static final Path PROC = Path.of("/proc");

    @TempDir
    Path root;

    @Test
    void aTimeoutStopsTheWholeProcessGroupIncludingBackgroundChildrenThatIgnoreSigterm() throws Exception {
        assumeTrue(Files.isDirectory(PROC), "needs /proc to inspect process groups");
        UserTasks tasks = UserTasks.create(
                root, """
                version: '3'
                tasks:
                  hang:
                    silent: true
                    cmds:
                      - defer: touch deferred.ran
                      - |
                        trap '' TERM
                        sleep 300 &
                        child=$!
                        (sleep 300 &)
                        nohup sleep 300 >/dev/null 2>&1 &
                        echo "group=$$ child=$child"
                        sleep 300
                """, builder -> builder.timeout(Duration.ofSeconds(1)).killGracePeriod(Duration.ofMillis(200)));
        Run run = tasks.run("hang");
        assertThat(run.isError()).isTrue();
        assertThat(run.isTimedOut()).isTrue();
        assertThat(run.exitCode()).isEqualTo(124);
        assertThat(run.message())
                .isEqualTo("Task 'hang' timed out after 1 s; all its processes were stopped (exit code 124).");
        assertThat(run.stderr()).contains("the deferred commands of 'hang' did not run: the run timed out");
        Matcher ids = Pattern.compile("group=(\\d+) child=(\\d+)").matcher(run.stdout());
        assertThat(ids.find()).as(run.stdout()).isTrue();
        long group = Long.parseLong(ids.group(1));
        long child = Long.parseLong(ids.group(2));
        assertThat(awaitGroupGone(group, Duration.ofSeconds(10)))
                .as("processes of group %d still alive: %s", group, liveMembers(group))
                .isTrue();
        assertThat(isAlive(child)).isFalse();
        assertThat(root.resolve("deferred.ran")).doesNotExist();
    }

    @Test
    void backgroundProcessesAreStoppedWhenACommandEnds() throws Exception {
        assumeTrue(Files.isDirectory(PROC), "needs /proc to inspect process groups");
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                tasks:
                  leaky:
                    silent: true
                    cmds:
                      - sleep 300 >/dev/null 2>&1 & echo "group=$$"
                """);
        Run run = tasks.run("leaky");
        assertThat(run.isError()).as(run.text()).isFalse();
        Matcher id = Pattern.compile("group=(\\d+)").matcher(run.stdout());
        assertThat(id.find()).isTrue();
        long group = Long.parseLong(id.group(1));
        assertThat(awaitGroupGone(group, Duration.ofSeconds(10)))
                .as("%s", liveMembers(group))
                .isTrue();
    }

    @Test
    void fiftyMegabytesOfOutputAreCappedWithoutDeadlock() {
        int limit = 64 * 1024;
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                tasks:
                  flood:
                    silent: true
                    cmds:
                      - head -c 50000000 /dev/zero | tr '\\0' e >&2; echo START; head -c 50000000 /dev/zero | tr '\\0' o; echo END
                """, builder -> builder.outputLimitBytes(limit));
        Run run = tasks.run("flood");
        assertThat(run.isError()).as(run.message()).isFalse();
        assertThat(run.isTruncated()).isTrue();
        String stdout = run.stdout();
        String stderr = run.stderr();
        // Compare short pieces: a failure message with kilobytes of 'o' helps nobody. The answer shows the start
        // and the end of what was kept; CappedOutputTest checks the cap itself.
        assertThat(stdout.substring(0, 10)).isEqualTo("START\noooo");
        assertThat(stdout.substring(stdout.length() - 8)).isEqualTo("ooooEND\n");
        assertThat(stdout)
                .containsPattern(
                        "\n\\[\\.\\.\\. [\\d,]+ characters left out here to keep the answer short" + " \\.\\.\\.\\]\n");
        assertThat(stdout.length()).isLessThan(limit);
        assertThat(stderr.replaceFirst("\n\\[\\.\\.\\. [^\\]]+\\]\n", "")
                        .chars()
                        .allMatch(c -> c == 'e'))
                .isTrue();
        assertThat(run.message())
                .contains("The output was longer than 65536 bytes: its middle was dropped.")
                .endsWith("The output is too long for one answer: the middle of the longer streams is left out;"
                        + " have the task print less (an argument, a filter) to see it.");
    }

    @Test
    void concurrentRunsKeepTheirOutputsApart() throws Exception {
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                tasks:
                  count:
                    silent: true
                    cmds:
                      - for i in 1 2 3 4 5; do echo {{.CLI_ARGS}}-$i; echo {{.CLI_ARGS}}-err-$i >&2; sleep 0.01; done
                """);
        int runs = 8;
        ExecutorService pool = Executors.newFixedThreadPool(runs);
        try {
            for (int round = 0; round < 3; round++) {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Run>> futures = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    String name = "run" + round + "x" + i;
                    futures.add(pool.submit(() -> {
                        start.await();
                        return tasks.run("count", name);
                    }));
                }
                start.countDown();
                for (int i = 0; i < runs; i++) {
                    String name = "run" + round + "x" + i;
                    Run run = futures.get(i).get(30, TimeUnit.SECONDS);
                    assertThat(run.stdout()).isEqualTo(expected(name, ""));
                    assertThat(run.stderr()).isEqualTo(expected(name, "err-"));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String expected(String name, String infix) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            text.append(name).append('-').append(infix).append(i).append('\n');
        }
        return text.toString();
    }

    private static boolean awaitGroupGone(long group, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!liveMembers(group).isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** The pids of live (not zombie) processes in a process group, read from /proc. */
    private static List<Long> liveMembers(long group) {
        List<Long> members = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                String[] fields = statFields(entry);
                if (fields != null && fields[2].equals(Long.toString(group)) && !fields[0].equals("Z")) {
                    members.add(Long.parseLong(entry.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return members;
    }

    private static boolean isAlive(long pid) {
        String[] fields = statFields(PROC.resolve(Long.toString(pid)));
        return fields != null && !fields[0].equals("Z");
    }

    private static String[] statFields(Path processDir) {
        try {
            String stat = Files.readString(processDir.resolve("stat"), StandardCharsets.UTF_8);
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            return null;
        }
    }
}
