package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.taskagent.taskfile.UserTasks.Run;
import dev.taskagent.tool.ToolResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Taskfiles and dotenv files that are not what they seem: named pipes, links to devices, huge files. A hang
 * is the failure these tests exist to catch, and a thread blocked opening a pipe ignores interrupts, so the
 * timeout runs each test on a thread of its own and fails it even while that thread is stuck.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileFilesTest {
    private static final Path DEV_ZERO = Path.of("/dev/zero");
    private static final String TASKFILE = """
            version: '3'
            tasks:
              build:
                desc: Builds
                silent: true
                cmds: [echo building]
            """;
    private static final String NOT_USABLE = " The user tasks cannot be used until the file is fixed; tell the user.";

    @TempDir
    Path root;

    @AfterEach
    void noReadIsLeftBlocked() throws InterruptedException {
        assertThat(awaitNoThreadNamed("taskfile-read-", Duration.ofSeconds(5)))
                .as("threads still reading: %s", threadsNamed("taskfile-read-"))
                .isTrue();
    }

    @Test
    void aTaskfileReplacedByANamedPipeAfterRegistrationIsASoftErrorNotAHang() throws Exception {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        Path taskfile = root.resolve(".agent/Taskfile.yml");
        Files.delete(taskfile);
        mkfifo(taskfile);

        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text())
                .isEqualTo(".agent/Taskfile.yml is a named pipe (FIFO), not a regular file; a Taskfile must be a"
                        + " regular file of at most 1 MiB (a symbolic link to one is fine)." + NOT_USABLE);
        assertThat(tasks.run("build").text()).isEqualTo(list.text());

        Files.delete(taskfile);
        tasks.rewrite(TASKFILE);
        assertThat(tasks.run("build").stdout()).isEqualTo("building\n");
    }

    @Test
    void aTaskfileReplacedByALinkToDevZeroIsASoftErrorNotAnExhaustedHeap() throws IOException {
        assumeTrue(Files.exists(DEV_ZERO), "needs /dev/zero");
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        Path taskfile = root.resolve(".agent/Taskfile.yml");
        Files.delete(taskfile);
        Files.createSymbolicLink(taskfile, DEV_ZERO);

        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text())
                .isEqualTo(".agent/Taskfile.yml links to /dev/zero, a character device, not a regular file; a"
                        + " Taskfile must be a regular file of at most 1 MiB (a symbolic link to one is fine)."
                        + NOT_USABLE);
        assertThat(tasks.run("build").isError()).isTrue();
    }

    @Test
    void aTaskfileThatIsANamedPipeAtRegistrationIsAWarningNotAHang() throws Exception {
        mkfifo(Files.createDirectories(root.resolve(".agent")).resolve("Taskfile.yml"));
        UserTasks tasks = UserTasks.create(root, null);
        assertThat(tasks.toolbox.isEmpty()).isTrue();
        assertThat(tasks.warnings)
                .containsExactly(".agent/Taskfile.yml is a named pipe (FIFO), not a regular file; a Taskfile must be a"
                        + " regular file of at most 1 MiB (a symbolic link to one is fine). The tools list_user_tasks"
                        + " and run_user_task are not registered; fix the file and restart.");
    }

    @Test
    void aTaskfileLargerThanOneMebibyteIsRefused() throws IOException {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        tasks.rewrite(TASKFILE + ("# " + "x".repeat(1022) + "\n").repeat(1024));
        assertThat(Files.size(root.resolve(".agent/Taskfile.yml"))).isGreaterThan(SmallFile.MAX_BYTES);

        assertThat(tasks.list().text())
                .isEqualTo(".agent/Taskfile.yml is larger than the limit of 1 MiB; a Taskfile must be a regular file of"
                        + " at most 1 MiB (a symbolic link to one is fine)." + NOT_USABLE);
    }

    @Test
    void aTaskfileThatLinksToARegularFileIsRead() throws IOException {
        UserTasks.write(root.resolve("Taskfile.yml"), TASKFILE);
        Files.createDirectories(root.resolve(".agent"));
        Files.createSymbolicLink(root.resolve(".agent/Taskfile.yml"), Path.of("../Taskfile.yml"));
        UserTasks tasks = UserTasks.create(root, null);
        assertThat(tasks.warnings).isEmpty();
        assertThat(tasks.run("build").stdout()).isEqualTo("building\n");
    }

    @Test
    void aDotenvFileThatIsANamedPipeStopsTheRunAtOnceInsteadOfHangingPastTheTimeout() throws Exception {
        mkfifo(root.resolve(".env"));
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                dotenv: ['.env']
                tasks:
                  build:
                    cmds: [touch built]
                """, builder -> builder.timeout(Duration.ofSeconds(5)));

        Run run = tasks.run("build");
        assertThat(run.isError()).isTrue();
        assertThat(run.message())
                .isEqualTo("The dotenv file '.env' is a named pipe (FIFO), not a regular file; dotenv files must be"
                        + " regular files of at most 1 MiB.");
        assertThat(run.isTimedOut()).isFalse();
        assertThat(run.json().get("duration_ms").asLong()).isLessThan(5000);
        assertThat(root.resolve("built")).doesNotExist();
        assertThat(tasks.list().text()).startsWith("The dotenv file '.env' is a named pipe (FIFO)");
    }

    @Test
    void aDotenvFileThatLinksToDevZeroIsRefusedWithoutBeingRead() throws IOException {
        assumeTrue(Files.exists(DEV_ZERO), "needs /dev/zero");
        Files.createSymbolicLink(root.resolve(".env"), DEV_ZERO);
        UserTasks tasks = UserTasks.create(root, "version: '3'\ndotenv: ['.env']\ntasks:\n  build: touch built\n");

        // A device cannot be beneath the project root, so the confinement of dotenv files refuses it first.
        Run run = tasks.run("build");
        assertThat(run.message())
                .isEqualTo("The dotenv file '.env' is outside the project root " + root + "; keep .env files beneath"
                        + " it.");
        assertThat(root.resolve("built")).doesNotExist();
    }

    @Test
    void aDotenvFileLargerThanOneMebibyteIsRefused() {
        UserTasks.write(root.resolve(".env"), ("A=" + "x".repeat(1021) + "\n").repeat(1025));
        UserTasks tasks = UserTasks.create(root, "version: '3'\ndotenv: ['.env']\ntasks:\n  build: touch built\n");

        assertThat(tasks.run("build").message())
                .isEqualTo(
                        "The dotenv file '.env' is larger than the limit of 1 MiB; dotenv files must be regular files"
                                + " of at most 1 MiB.");
        assertThat(root.resolve("built")).doesNotExist();
    }

    @Test
    void aDotenvNameThatIsNoPathIsRefused() {
        UserTasks tasks =
                UserTasks.create(root, "version: '3'\ndotenv: [\"bad\\0name\"]\ntasks:\n  build: touch built\n");
        Run run = tasks.run("build");
        assertThat(run.message())
                .isEqualTo("The dotenv file name at line 2, column 10 is not a valid path: Nul character not allowed.");
        assertThat(root.resolve("built")).doesNotExist();
    }

    @Test
    void variablesThatRepeatEachOtherAreRefusedInsteadOfFillingTheHeap() {
        // V0 has 16 characters, each next one 16 times the one before: V8 would have 68 billion
        StringBuilder taskfile = new StringBuilder("version: '3'\nvars:\n  V0: aaaaaaaaaaaaaaaa\n");
        for (int i = 1; i <= 8; i++) {
            taskfile.append("  V")
                    .append(i)
                    .append(": '")
                    .append(("{{.V" + (i - 1) + "}}").repeat(16))
                    .append("'\n");
        }
        taskfile.append("tasks:\n  show:\n    desc: 'Shows {{.V8}}'\n    cmds: [touch shown]\n");
        UserTasks tasks = UserTasks.create(root, taskfile.toString());
        // V0 to V4 (16 + 256 + … + 16^5 characters) fit in 16 Mi; V5 (16^6, line 8) does not
        String expected = "The Taskfile's templates expand to more than 16,777,216 characters (the last one at line 8,"
                + " column 7); look for variables that repeat each other.";

        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text()).isEqualTo(expected + NOT_USABLE);
        Run run = tasks.run("show");
        assertThat(run.isError()).isTrue();
        assertThat(run.exitCode()).isNull();
        assertThat(run.message()).isEqualTo(expected);
        assertThat(root.resolve("shown")).doesNotExist();
    }

    @Test
    void aReadStillBlockedAtTheDeadlineIsAbandonedAndTheCallerGoesOn() throws Exception {
        // What the type check cannot prevent: a file swapped for a pipe between the check and the open.
        Path pipe = mkfifo(root.resolve("pipe"));
        long deadline = System.nanoTime() + Duration.ofMillis(200).toNanos();

        assertThatThrownBy(
                        () -> SmallFile.withinDeadline(() -> Files.readAllBytes(pipe), deadline, "taskfile-read-pipe"))
                .isInstanceOf(TimeoutException.class);

        // The helper is blocked opening the pipe; a writer releases it, and nothing stays behind.
        try (OutputStream writer = Files.newOutputStream(pipe)) {
            writer.flush();
        }
    }

    private static Path mkfifo(Path path) throws IOException, InterruptedException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue())
                .as(new String(mkfifo.getInputStream().readAllBytes()))
                .isZero();
        return path;
    }

    private static boolean awaitNoThreadNamed(String prefix, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Thread thread : threadsNamed(prefix)) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                thread.join(TimeUnit.NANOSECONDS.toMillis(remaining) + 1);
            }
        }
        return threadsNamed(prefix).isEmpty();
    }

    private static List<Thread> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith(prefix))
                .toList();
    }
}
