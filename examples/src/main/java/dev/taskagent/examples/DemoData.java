package dev.taskagent.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The flagship demo's data directory: the H2 file database the demo keeps its tasks in, and what {@code
 * --reset} removes.
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

    /** Deletes the directory and everything in it, if it exists. */
    void delete() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + directory + " for --reset", e);
        }
    }
}
