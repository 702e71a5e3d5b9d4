package dev.taskagent.testkit;

import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit's check of rule TS-1.8 of {@link TaskStore}: a unit of work that returned survives
 * a kill -9 of the process, on every store that persists. A store that keeps its data only in the
 * process's memory has nothing to keep and does not run it.
 *
 * <h2>How to run it</h2>
 *
 * <p>Name a factory that opens your store on a location, and give each test a fresh location:
 *
 * <pre>{@code
 * class MyTaskStoreDurabilityTest extends DurabilityConformanceTest {
 *     public static final class Factory implements StoreFactory {
 *         @Override
 *         public TaskStore open(String location) {
 *             return MyTaskStore.open(Path.of(location));
 *         }
 *     }
 *
 *     @Override
 *     protected Class<? extends StoreFactory> storeFactory() {
 *         return Factory.class;
 *     }
 *
 *     @Override
 *     protected String newLocation(Path directory) {
 *         return directory.resolve("tasks").toString();
 *     }
 * }
 * }</pre>
 *
 * <h2>What it checks, and how</h2>
 *
 * <p>Each round starts a new JVM (the {@code java} of this one, on this one's class path from {@code
 * java.class.path}, with the same environment) that opens the store through a new instance of the
 * factory, then commits units of work in a loop and prints a line after each {@code inTransaction}
 * returned: a task appended; claimed; then given a progress entry, a comment and a message id in one unit
 * of work. Right after reading the n-th of those lines (n from 1 to 12 over the rounds, so that the kill
 * follows each kind of unit of work) the kit kills that JVM with {@code kill -9} ({@link
 * ProcessHandle#destroyForcibly()}: SIGKILL on Linux and macOS) and waits for it to be gone. Then it opens
 * the store in this JVM and checks that every unit of work the child printed is there, and that no task
 * the child claimed can be claimed again. It runs {@link #rounds()} rounds, 20 by default, on one
 * location; a round takes about a second, most of it the new JVM starting. A store that writes a commit
 * to disk some time after it returned (H2 with a write delay, for one) loses the last units of work in the
 * first round or so.
 *
 * <p>Every process the kit starts is killed by its pid by the end of the test, with any process it
 * started in turn, and the test fails if one of them is still alive. Every wait has a deadline of 60 s.
 *
 * <p>Before each reopening the kit copies the test's directory, as the killed JVM left it, into its
 * {@value #KILLED_STATE} folder. A test that fails keeps its directory and names it in its message, so
 * that the files a store could not read back can be looked at (for a store whose location is a file in
 * that directory).
 *
 * <p>Not thread-safe; JUnit creates one instance per test.
 */
public abstract class DurabilityConformanceTest {

    /** How long any wait of the kit lasts at most. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static final int DEFAULT_ROUNDS = 20;

    /** The kill lands after the first up to the 12th line, so after each kind of unit of work. */
    private static final int KILL_POINTS = 12;

    /** The probe runs for a second: compiling less and a simple collector let it start sooner. */
    private static final List<String> PROBE_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final int STDERR_TAIL_CHARACTERS = 4_000;

    /** The folder of the test's directory that holds its files as the last killed JVM left them. */
    static final String KILLED_STATE = "killed-state";

    private final List<ProcessHandle> started = new ArrayList<>();

    /** For subclasses, which name the store under test through their store factory. */
    protected DurabilityConformanceTest() {}

    /**
     * Opens the store under test on a location. The kit creates one instance in this JVM and one in each
     * child JVM, so the class must be public, with a public no-argument constructor (a {@code public
     * static} nested class of the test will do).
     */
    public interface StoreFactory {
        /**
         * Opens the store on a location, creating it when it does not exist yet.
         *
         * @param location what {@link DurabilityConformanceTest#newLocation(Path)} returned: a directory, a
         *     file, a JDBC URL
         * @return the store; closing it releases everything this method opened (connections, pools, file
         *     locks), since the next child JVM opens the same location
         * @throws Exception if the store cannot be opened; the test fails with it
         */
        TaskStore open(String location) throws Exception;
    }

    /**
     * Names the factory that opens the store under test, in this JVM and in the child JVMs.
     *
     * @return a public class with a public no-argument constructor
     */
    protected abstract Class<? extends StoreFactory> storeFactory();

    /**
     * Returns a fresh location for one test: every round of the test opens the store there.
     *
     * @param directory an empty directory of the test's own, deleted after it
     * @return the location, handed to {@link StoreFactory#open(String)}; a string, since it travels to the
     *     child JVM as an argument
     * @throws Exception if no location can be made; the test fails with it
     */
    protected abstract String newLocation(Path directory) throws Exception;

    /**
     * Tells how many child JVMs to kill, one after the other, on one location.
     *
     * @return at least 1; 20 by default
     */
    protected int rounds() {
        return DEFAULT_ROUNDS;
    }

    @Test
    void ts18_unitsOfWorkThatReturnedSurviveAKill9OfTheProcess(
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path directory) throws Exception {
        StoreFactory factory = instantiate(storeFactory());
        String location = Objects.requireNonNull(newLocation(directory), "newLocation(Path) returned null");
        int rounds = rounds();
        if (rounds < 1) {
            throw new IllegalStateException("rounds() must be at least 1, was " + rounds);
        }
        for (int round = 1; round <= rounds; round++) {
            killAndReopen(factory, location, directory, round, rounds);
        }
    }

    @AfterEach
    final void killEveryProbeLeft() {
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle process : started) {
            if (process.isAlive()) {
                process.destroyForcibly();
                alive.add(process);
            }
        }
        for (ProcessHandle process : alive) {
            awaitExit(process);
        }
        List<Long> left = started.stream()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid)
                .toList();
        started.clear();
        if (!left.isEmpty()) {
            throw new AssertionError("Processes started by the kit are still alive after kill -9: pids " + left);
        }
    }

    /** One round: start a probe, kill it right after it printed a unit of work, check the store kept it. */
    private void killAndReopen(StoreFactory factory, String location, Path directory, int round, int rounds)
            throws Exception {
        String where = "TS-1.8, round " + round + " of " + rounds + ": ";
        String tag = round + "-" + Long.toString(System.currentTimeMillis(), 36);
        Path errors = directory.resolve("probe-" + round + "-stderr.txt");
        Process process = new ProcessBuilder(probeCommand(location, tag))
                .redirectError(errors.toFile())
                .start();
        ProcessHandle probe = process.toHandle();
        started.add(probe);
        process.getOutputStream().close();
        ProbeOutput output = new ProbeOutput(process.getInputStream(), "ts18-probe-" + round);

        String opened = output.next();
        if (!DurabilityProbe.OPENED.equals(opened)) {
            throw new AssertionError(
                    where + "the probe did not open the store (it printed " + opened + ")" + standardError(errors));
        }
        int killAfter = 1 + (round - 1) * 7 % KILL_POINTS;
        List<String> returned = new ArrayList<>();
        while (returned.size() < killAfter) {
            String line = output.next();
            if (line == null) {
                throw new AssertionError(where + "the probe stopped after " + returned + standardError(errors));
            }
            returned.add(line);
        }
        List<ProcessHandle> children = probe.descendants().toList();
        started.addAll(children);
        if (!probe.destroyForcibly()) {
            throw new AssertionError(where + "could not kill the probe, pid " + probe.pid());
        }
        awaitExit(probe);
        // What it printed before the signal landed returned too.
        returned.addAll(output.rest());
        children.forEach(ProcessHandle::destroyForcibly);
        children.forEach(DurabilityConformanceTest::awaitExit);

        Path killedState = keepKilledState(directory);
        List<String> lost;
        try {
            lost = lostUnitsOfWork(factory, location, DurabilityProbe.name(tag), returned);
        } catch (Exception e) {
            throw new AssertionError(
                    where + "after the probe was killed (kill -9), the store failed to open again or to read: " + e
                            + kept(killedState),
                    e);
        }
        if (!lost.isEmpty()) {
            throw new AssertionError(where + "the probe was killed (kill -9) right after these units of work"
                    + " returned: " + returned + ". Reopened, the store lost " + lost.size() + ":\n  "
                    + String.join("\n  ", lost) + kept(killedState) + standardError(errors));
        }
    }

    /**
     * Copies the files of the test's directory, as the killed probe left them, into its {@link
     * #KILLED_STATE} folder, replacing the previous round's.
     */
    private static Path keepKilledState(Path directory) throws IOException {
        Path state = directory.resolve(KILLED_STATE);
        if (Files.exists(state)) {
            try (Stream<Path> old = Files.walk(state)) {
                for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.filter(path -> !path.startsWith(state)).toList()) {
                Path copy = state.resolve(directory.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return state;
    }

    private static String kept(Path killedState) {
        return "\nThe files as the killed JVM left them: " + killedState + " (the test keeps its directory when it"
                + " fails)";
    }

    private List<String> probeCommand(String location, String tag) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(PROBE_JVM_OPTIONS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DurabilityProbe.class.getName());
        command.add(storeFactory().getName());
        command.add(location);
        command.add(tag);
        return command;
    }

    /** Opens the store again and lists what it lost of the units of work the probe printed. */
    private static List<String> lostUnitsOfWork(StoreFactory factory, String location, String name, List<String> lines)
            throws Exception {
        List<String> lost = new ArrayList<>();
        Set<Long> claimed = new HashSet<>();
        try (TaskStore store = factory.open(location)) {
            for (String line : lines) {
                String[] parts = line.split(" ");
                if (parts.length != 3) {
                    lost.add(line + ": not a line the probe prints");
                    continue;
                }
                long id = Long.parseLong(parts[1]);
                long n = Long.parseLong(parts[2]);
                Optional<Task> task = store.findTask(id);
                if (task.isEmpty()) {
                    lost.add(line + ": there is no task " + id);
                    continue;
                }
                if (parts[0].equals(DurabilityProbe.CLAIMED)) {
                    claimed.add(id);
                }
                missing(parts[0], task.get(), name, n).ifPresent(what -> lost.add(line + ": " + what));
            }
            // The claim must not hand out again what it handed out before the kill.
            store.claimNext(name, java.time.Duration.ofHours(1))
                    .filter(again -> claimed.contains(again.id()))
                    .ifPresent(again -> lost.add("CLAIMED " + again.id() + ": the claim returned it again"));
        }
        return lost;
    }

    /** What a task lacks of a unit of work the probe printed, if anything. */
    private static Optional<String> missing(String kind, Task task, String name, long n) {
        switch (kind) {
            case DurabilityProbe.INSERTED -> {
                boolean asInserted = task.sessionId().equals(name)
                        && task.description().equals(DurabilityProbe.description(n))
                        && name.equals(task.assignee());
                return asInserted ? Optional.empty() : Optional.of("task " + task.id() + " reads back as " + task);
            }
            case DurabilityProbe.CLAIMED -> {
                return task.status() == TaskStatus.RUNNING
                        ? Optional.empty()
                        : Optional.of("task " + task.id() + " is " + task.status() + ", not running");
            }
            case DurabilityProbe.APPENDED -> {
                boolean appended = task.progresses().contains(DurabilityProbe.progress(n))
                        && task.comments().stream().map(Comment::text).anyMatch(DurabilityProbe.comment(n)::equals)
                        && task.messageIds().contains(DurabilityProbe.messageId(n));
                return appended
                        ? Optional.empty()
                        : Optional.of("task " + task.id() + " lacks '" + DurabilityProbe.progress(n) + "', '"
                                + DurabilityProbe.comment(n) + "' or '" + DurabilityProbe.messageId(n) + "': "
                                + task);
            }
            default -> {
                return Optional.of("not a line the probe prints");
            }
        }
    }

    /**
     * Creates the factory a subclass names.
     *
     * @throws IllegalStateException if the class cannot be created as the kit must, in a new JVM
     */
    static StoreFactory instantiate(Class<? extends StoreFactory> type) {
        Objects.requireNonNull(type, "storeFactory() returned null");
        String demand = "storeFactory() must name a public class with a public no-argument constructor, so"
                + " that the kit can create it in a new JVM; ";
        if (!Modifier.isPublic(type.getModifiers())
                || (type.isMemberClass() && !Modifier.isStatic(type.getModifiers()))) {
            throw new IllegalStateException(demand + type.getName() + " is not a public top-level or static class");
        }
        try {
            Constructor<? extends StoreFactory> constructor = type.getConstructor();
            return constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(demand + type.getName() + " has none", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("The constructor of " + type.getName() + " threw " + e.getCause(), e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(demand + type.getName() + " cannot be created: " + e, e);
        }
    }

    private static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(
                    "Process " + process.pid() + " was still alive " + DEADLINE.toSeconds() + " s after kill -9", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for process " + process.pid() + " to end", e);
        } catch (ExecutionException e) {
            throw new AssertionError("Could not wait for process " + process.pid() + " to end", e);
        }
    }

    private static String standardError(Path errors) {
        try {
            String text = Files.readString(errors);
            String tail = text.length() <= STDERR_TAIL_CHARACTERS
                    ? text
                    : "…" + text.substring(text.length() - STDERR_TAIL_CHARACTERS);
            return tail.isBlank() ? "" : "\nThe probe's standard error:\n" + tail;
        } catch (IOException e) {
            return "\n(Could not read the probe's standard error, " + errors + ": " + e + ")";
        }
    }

    /**
     * The probe's standard output, read line by line on a thread of its own so that every wait has a
     * deadline. A last line without its line feed was cut off by the kill and is dropped.
     */
    private static final class ProbeOutput {
        private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();
        private boolean ended;

        ProbeOutput(InputStream input, String threadName) {
            Thread reader = new Thread(() -> read(input), threadName);
            reader.setDaemon(true);
            reader.start();
        }

        private void read(InputStream input) {
            try (InputStream in = new BufferedInputStream(input)) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                for (int b = in.read(); b >= 0; b = in.read()) {
                    if (b == '\n') {
                        lines.add(Optional.of(line.toString(StandardCharsets.UTF_8)));
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
            } catch (IOException e) {
                // The pipe broke with the process: what was read is all there is.
            } finally {
                lines.add(Optional.empty());
            }
        }

        /**
         * Waits for the next line.
         *
         * @return the line, or null when the output ended
         * @throws AssertionError if no line came within the deadline
         */
        String next() throws InterruptedException {
            if (ended) {
                return null;
            }
            Optional<String> line = lines.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("The probe printed nothing for " + DEADLINE.toSeconds() + " s");
            }
            ended = line.isEmpty();
            return line.orElse(null);
        }

        /** Reads every line up to the end of the output. */
        List<String> rest() throws InterruptedException {
            List<String> rest = new ArrayList<>();
            for (String line = next(); line != null; line = next()) {
                rest.add(line);
            }
            return rest;
        }
    }
}
