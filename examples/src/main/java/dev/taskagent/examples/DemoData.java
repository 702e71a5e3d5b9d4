package dev.taskagent.examples;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The flagship demo's data directory: the H2 file database the demo keeps its tasks in, and what {@code
 * --reset} removes.
 *
 * <p>{@code --reset} deletes only what the demo created there (the files H2 names after the database,
 * {@code tasks.*}) and then the directory if it is empty: a directory given with {@code --data} by mistake,
 * such as a home directory, is refused rather than emptied.
 *
 * <p>Immutable and thread-safe; the files it names are not.
 */
final class DemoData {
    private static final String DATABASE = "tasks";

    private final Path directory;

    DemoData(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    /** @return the JDBC URL of the H2 file database in the directory */
    String jdbcUrl() {
        return "jdbc:h2:file:" + directory.resolve(DATABASE);
    }

    /**
     * Deletes the demo's database files and then the directory if nothing else is left in it.
     *
     * @param sessionId the demo's session, whose tasks are counted for the report
     * @return what was removed, as a sentence for the user
     * @throws DemoFailure if the directory holds anything the demo did not create, or a file cannot be
     *     deleted
     */
    String reset(String sessionId) {
        if (!Files.exists(directory)) {
            return "nothing to remove: " + directory + " does not exist";
        }
        if (!Files.isDirectory(directory)) {
            throw new DemoFailure("--reset did not remove " + directory + ": it is a file, not the demo's data"
                    + " directory. Choose a directory with --data DIR.");
        }
        List<Path> entries = list();
        List<String> foreign = entries.stream()
                .filter(entry -> !isDatabaseFile(entry))
                .map(entry -> entry.getFileName().toString())
                .sorted()
                .toList();
        if (!foreign.isEmpty()) {
            throw new DemoFailure("--reset did not remove " + directory + ": it holds files the demo did not"
                    + " create (" + String.join(", ", foreign) + "). Remove them yourself, or choose another"
                    + " directory with --data DIR.");
        }
        String tasks = countTasks(sessionId);
        // Opening the database to count may have added a file of its own (a trace file).
        entries = list();
        for (Path entry : entries) {
            delete(entry);
        }
        delete(directory);
        return "removed " + directory + " (" + files(entries) + tasks + ")";
    }

    private List<Path> list() {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory + " for --reset", e);
        }
    }

    private static boolean isDatabaseFile(Path entry) {
        return Files.isRegularFile(entry) && entry.getFileName().toString().startsWith(DATABASE + ".");
    }

    // --reset is also the way out of a database the demo cannot open (a file of another H2 version, a
    // damaged file): the count is a courtesy and never stops the reset.
    private String countTasks(String sessionId) {
        if (!Files.isRegularFile(directory.resolve(DATABASE + ".mv.db"))) {
            return "";
        }
        try (JdbcTaskStore store = JdbcTaskStore.open(jdbcUrl() + ";IFEXISTS=TRUE")) {
            return ", which held " + store.listTasks(sessionId).size() + " task(s) of session " + sessionId;
        } catch (RuntimeException e) {
            return ", whose tasks could not be counted: " + firstLine(e.getMessage());
        }
    }

    private static String files(List<Path> entries) {
        if (entries.isEmpty()) {
            return "an empty directory";
        }
        return entries.size() + " file(s): "
                + entries.stream().map(entry -> entry.getFileName().toString()).collect(Collectors.joining(", "));
    }

    private static String firstLine(String message) {
        return message == null
                ? "no message"
                : message.strip().lines().findFirst().orElse("no message");
    }

    private void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new DemoFailure("--reset could not delete " + path + ": " + e + ". Is another run of the demo"
                    + " still using it?");
        }
    }
}
