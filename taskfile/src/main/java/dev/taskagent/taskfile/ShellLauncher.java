package dev.taskagent.taskfile;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one shell command with {@code bash -e -c} in a process group of its own, and makes sure nothing
 * of it outlives the call.
 *
 * <ul>
 *   <li>The command is started through {@code setsid}, so bash leads a new session and process group
 *       (and has no controlling terminal); every process it starts, background jobs included, is in
 *       that group unless it deliberately leaves it.
 *   <li>stdin is {@code /dev/null}; stdout and stderr are drained on their own threads from the start,
 *       so a chatty command never blocks on a full pipe.
 *   <li>When the command ends, or at the deadline, whatever is left of the group gets SIGTERM, then
 *       SIGKILL after the grace period; the call returns only when the group is empty.
 * </ul>
 *
 * <p>Without {@code setsid} (macOS), the process and its descendants are stopped instead; a process that
 * was reparented is then missed. Thread-safe: every call is independent.
 */
final class ShellLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(ShellLauncher.class);
    private static final File DEV_NULL = new File("/dev/null");
    private static final Path PROC = Path.of("/proc");
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    /** Receives output bytes; implementations must be thread-safe. */
    interface Sink {
        /** A sink that drops everything. */
        Sink DISCARD = (bytes, offset, length) -> {};

        /**
         * Takes bytes.
         *
         * @param bytes the buffer
         * @param offset where the bytes start
         * @param length how many
         */
        void write(byte[] bytes, int offset, int length);
    }

    /**
     * How a command ended.
     *
     * @param exitCode bash's exit status (128 + n when killed by signal n), or 124 when it timed out
     * @param timedOut whether the deadline stopped it
     */
    record Outcome(int exitCode, boolean timedOut) {}

    private final String bash;
    private final String setsid;
    private final Duration grace;

    /**
     * Creates a launcher.
     *
     * @param searchPath the PATH to look for {@code bash} and {@code setsid} in
     * @param grace how long a process group has between SIGTERM and SIGKILL
     */
    ShellLauncher(String searchPath, Duration grace) {
        this.bash = find("bash", searchPath);
        if (this.bash == null) {
            throw new IllegalStateException("bash was not found on the PATH (" + searchPath
                    + ") nor in /bin or /usr/bin; the Taskfile tools run every command with bash -e -c");
        }
        this.setsid = find("setsid", searchPath);
        if (this.setsid == null) {
            LOG.warn("setsid was not found: Taskfile commands cannot get a process group of their own, so only"
                    + " their direct descendants are stopped at the end or on timeout");
        }
        this.grace = grace;
    }

    /**
     * Runs a command and waits until it and every process it started have ended.
     *
     * @param command the command text for {@code bash -e -c}
     * @param directory the working directory
     * @param environment the complete environment of the process
     * @param stdout receives its stdout
     * @param stderr receives its stderr
     * @param deadlineNanos the {@link System#nanoTime()} at which it is stopped
     * @return how it ended
     * @throws IOException if it cannot be started
     * @throws InterruptedException if the calling thread is interrupted (the processes are stopped first)
     */
    Outcome run(
            String command,
            Path directory,
            Map<String, String> environment,
            Sink stdout,
            Sink stderr,
            long deadlineNanos)
            throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>();
        if (setsid != null) {
            argv.add(setsid);
        }
        argv.addAll(List.of(bash, "-e", "-c", command));
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        Process process;
        try {
            builder.environment().clear();
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IllegalArgumentException e) {
            throw new IOException(
                    "the environment or the command holds a character a process cannot take (" + e.getMessage() + ")",
                    e);
        }
        Thread outReader = drain(process.getInputStream(), stdout, "stdout-" + process.pid());
        Thread errReader = drain(process.getErrorStream(), stderr, "stderr-" + process.pid());
        boolean hasExited = false;
        try {
            long remaining = deadlineNanos - System.nanoTime();
            hasExited = remaining > 0 && process.waitFor(remaining, TimeUnit.NANOSECONDS);
        } finally {
            stop(process);
        }
        awaitReader(outReader, process);
        awaitReader(errReader, process);
        return hasExited ? new Outcome(process.exitValue(), false) : new Outcome(124, true);
    }

    private static Thread drain(InputStream stream, Sink sink, String name) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[16384];
                    try (InputStream in = stream) {
                        int count;
                        while ((count = in.read(buffer)) >= 0) {
                            sink.write(buffer, 0, count);
                        }
                    } catch (IOException e) {
                        // the pipe was closed under us: nothing more to read
                    }
                },
                "taskfile-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void awaitReader(Thread reader, Process process) throws InterruptedException {
        reader.join(grace.toMillis() + 1000);
        if (reader.isAlive()) {
            LOG.warn(
                    "The output of process {} is still open after its process group ended: a process left the"
                            + " group (setsid, a daemon) and keeps the pipe; its further output is not collected",
                    process.pid());
        }
    }

    /** Stops whatever is left of the command's processes: SIGTERM, grace period, SIGKILL. */
    private void stop(Process process) throws InterruptedException {
        if (setsid == null) {
            stopDescendants(process);
            return;
        }
        long group = process.pid();
        if (!isGroupAlive(group)) {
            return;
        }
        signalGroup(group, "TERM");
        if (awaitGroupEnd(group, grace)) {
            return;
        }
        signalGroup(group, "KILL");
        if (!awaitGroupEnd(group, KILL_WAIT)) {
            LOG.warn("Process group {} still has processes {} after SIGKILL", group, KILL_WAIT);
        }
        process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void stopDescendants(Process process) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        all.forEach(ProcessHandle::destroyForcibly);
        process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private boolean awaitGroupEnd(long group, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = 2;
        while (isGroupAlive(group)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 50);
        }
        return true;
    }

    private void signalGroup(long group, String signal) throws InterruptedException {
        try {
            Process kill = new ProcessBuilder(bash, "-c", "kill -s " + signal + " -- -" + group + " 2>/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!kill.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            LOG.warn("Could not send SIG{} to process group {}: {}", signal, group, e.toString());
        }
    }

    /**
     * Tells whether a process group still has a live (not zombie) process.
     *
     * @param group the process group id
     * @return true when some process of the group is running
     */
    boolean isGroupAlive(long group) throws InterruptedException {
        if (!Files.isDirectory(PROC)) {
            return isGroupAliveByKill(group);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ShellLauncher::isProcessEntry)) {
            for (Path entry : entries) {
                if (isLiveMember(entry.resolve("stat"), group)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return isGroupAliveByKill(group);
        }
    }

    private static boolean isProcessEntry(Path entry) {
        String name = entry.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** Reads {@code /proc/<pid>/stat}: "pid (comm) state ppid pgrp …"; comm may hold spaces and ')'. */
    private static boolean isLiveMember(Path stat, long group) {
        String text;
        try {
            text = new String(Files.readAllBytes(stat), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return false; // the process ended while we looked
        }
        int end = text.lastIndexOf(')');
        if (end < 0 || end + 2 >= text.length()) {
            return false;
        }
        String[] fields = text.substring(end + 2).split(" ", 4);
        if (fields.length < 3) {
            return false;
        }
        String state = fields[0];
        return fields[2].equals(Long.toString(group)) && !state.equals("Z") && !state.equals("X");
    }

    private boolean isGroupAliveByKill(long group) throws InterruptedException {
        try {
            Process probe = new ProcessBuilder(bash, "-c", "kill -0 -- -" + group + " 2>/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return probe.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static String find(String program, String searchPath) {
        List<String> folders = new ArrayList<>();
        if (searchPath != null) {
            folders.addAll(List.of(searchPath.split(File.pathSeparator)));
        }
        folders.addAll(List.of("/bin", "/usr/bin"));
        for (String folder : folders) {
            if (folder.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(folder, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
