package dev.taskagent.store.jdbc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM started on this test's class path running a main class, whose standard output is read line by
 * line as it arrives: for the tests that kill worker processes with SIGKILL. {@link #close()} kills it,
 * and any process it started, by pid, and waits until they are gone.
 *
 * <p>Thread-safe for one reader (the test) besides the line-reading thread.
 */
final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> unread = new LinkedBlockingQueue<>();
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "read-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a JVM running a main class of the test class path.
     *
     * @param name names the process in messages and its stderr file
     * @param folder where its stderr goes
     * @param mainClass the class whose main runs
     * @param arguments its arguments
     * @return the running process
     */
    static ChildJvm start(String name, Path folder, Class<?> mainClass, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass.getName()));
        command.addAll(List.of(arguments));
        Path stderr = folder.resolve(name + "-stderr.txt");
        Process process =
                new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ChildJvm(name, process, stderr);
    }

    private void readLines() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
                unread.add(line);
            }
        } catch (IOException e) {
            // the process died: its lines so far are kept
        }
    }

    /**
     * Waits for a line that matches, reading past the others (they stay in {@link #lines()}).
     *
     * @return the line
     * @throws AssertionError if none comes within the deadline or the process ended first
     */
    String awaitLine(Predicate<String> wanted, Duration deadline) throws InterruptedException {
        Instant end = Instant.now().plus(deadline);
        while (Instant.now().isBefore(end)) {
            String line = unread.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && wanted.test(line)) {
                return line;
            }
            if (line == null && !process.isAlive() && unread.isEmpty()) {
                throw new AssertionError(name + " ended (exit " + process.exitValue() + ") before the line awaited;"
                        + " its stderr: " + stderrTail());
            }
        }
        throw new AssertionError(name + " printed no such line within " + deadline + "; its stderr: " + stderrTail());
    }

    /**
     * Writes a line to the process's standard input.
     *
     * @param line the line, without its line break
     */
    void send(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Counts the lines printed so far that match. */
    long count(Predicate<String> matching) {
        return lines.stream().filter(matching).count();
    }

    /** @return every line printed so far */
    List<String> lines() {
        return List.copyOf(lines);
    }

    /** Waits for the process to end by itself, and checks its exit code is 0. */
    void awaitExit(Duration deadline) throws InterruptedException {
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not end within " + deadline + "; its stderr: " + stderrTail());
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(
                    name + " ended with exit code " + process.exitValue() + "; its stderr: " + stderrTail());
        }
    }

    /** Kills the process with SIGKILL, as a crashed host would lose it, and waits until it is gone. */
    void kill9() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String stderrTail() {
        try {
            String text = Files.readString(stderr);
            return text.length() > 4000 ? "…" + text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill9();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
