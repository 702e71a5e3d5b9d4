package dev.taskagent.taskfile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;

/**
 * The project's Taskfile, re-read when it changes: every call reads the file (it is small) and parses it
 * again only when its bytes differ from the last read, so an edit is picked up by the next tool call.
 * Every read goes through {@link SmallFile}: a file replaced by a named pipe, a device or something too
 * large gives a problem to report, never a hang or an exhausted heap.
 *
 * <p>Thread-safe.
 */
final class TaskfileSource {
    /**
     * What reading the file gave: a Taskfile, or a problem to report.
     *
     * @param taskfile the parsed Taskfile, or null
     * @param problem what is wrong (with line and column when the content is at fault), or null
     */
    record Snapshot(Taskfile taskfile, String problem) {}

    private final Path file;
    private final String shownName;
    private byte[] lastBytes;
    private Snapshot lastSnapshot;

    TaskfileSource(Path file) {
        this.file = file;
        this.shownName = ".agent/Taskfile.yml";
    }

    /** @return the file's path */
    Path file() {
        return file;
    }

    /**
     * Returns the Taskfile as the file holds it now.
     *
     * @return the snapshot; never null
     */
    synchronized Snapshot current() {
        byte[] bytes;
        try {
            bytes = SmallFile.read(file, System.nanoTime() + SmallFile.READ_TIMEOUT.toNanos());
        } catch (NoSuchFileException e) {
            return remember(null, new Snapshot(null, shownName + " was not found at " + file + "."));
        } catch (SmallFile.RefusedFileException e) {
            return remember(
                    null,
                    new Snapshot(
                            null,
                            shownName + " " + e.getMessage() + "; a Taskfile must be a regular file of at most "
                                    + SmallFile.MAX_SIZE_TEXT + " (a symbolic link to one is fine)."));
        } catch (TimeoutException e) {
            return remember(
                    null,
                    new Snapshot(
                            null,
                            shownName + " could not be read within " + TaskRun.describe(SmallFile.READ_TIMEOUT)
                                    + "; is it a named pipe? A Taskfile must be a regular file."));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return remember(null, new Snapshot(null, "Reading " + shownName + " was interrupted."));
        } catch (IOException e) {
            return remember(null, new Snapshot(null, shownName + " cannot be read: " + e.getMessage()));
        }
        if (lastSnapshot != null && Arrays.equals(bytes, lastBytes)) {
            return lastSnapshot;
        }
        return remember(bytes, parse(bytes));
    }

    private Snapshot parse(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return new Snapshot(null, shownName + " is not UTF-8 text.");
        }
        try {
            return new Snapshot(TaskfileReader.read(text), null);
        } catch (TaskfileException e) {
            String problem = e.getMessage();
            return new Snapshot(null, shownName + " is invalid at " + problem + (problem.endsWith(".") ? "" : "."));
        }
    }

    private Snapshot remember(byte[] bytes, Snapshot snapshot) {
        lastBytes = bytes;
        lastSnapshot = bytes == null ? null : snapshot;
        return snapshot;
    }
}
