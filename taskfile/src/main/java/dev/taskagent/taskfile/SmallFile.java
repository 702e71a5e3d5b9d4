package dev.taskagent.taskfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the small files the tools depend on (the Taskfile, dotenv files) so that no file can hang a call or
 * exhaust the heap: only a regular file is read, at most {@link #MAX_BYTES} of it, and within a deadline.
 *
 * <ul>
 *   <li>Symbolic links are followed; what they lead to must be a regular file. A named pipe, a device
 *       ({@code /dev/zero}), a socket or a directory is refused with a message that names it.
 *   <li>The type is checked before the file is opened, because opening a named pipe blocks until a writer
 *       appears. A file swapped for a pipe between the check and the open would still block, so the read
 *       runs on a helper thread and the caller stops waiting at the deadline. The helper, a daemon thread
 *       that holds nothing else, stays blocked until the pipe gets a writer.
 *   <li>The size is checked before reading and enforced while reading, so a file that grows, or a device
 *       swapped in after the check, cannot deliver more than the limit.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class SmallFile {
    /** Larger files are refused: a Taskfile or a {@code .env} file is a few kilobytes. */
    static final int MAX_BYTES = 1024 * 1024;

    /** The limit as the messages show it. */
    static final String MAX_SIZE_TEXT = "1 MiB";

    /**
     * How long a read outside a run may take (the Taskfile, the dotenv files for a listing); a run's reads
     * have the run's deadline. A regular file of at most {@link #MAX_BYTES} reads in milliseconds; only a
     * file swapped for a named pipe while it is read can need more.
     */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;

    /**
     * The file is not one to read: not a regular file, or larger than {@link #MAX_BYTES}. The message is a
     * phrase that follows the file's name ("is a named pipe (FIFO), not a regular file").
     */
    static final class RefusedFileException extends IOException {
        private static final long serialVersionUID = 1L;

        RefusedFileException(String problem) {
            super(problem);
        }
    }

    private SmallFile() {}

    /**
     * Reads a regular file of at most {@link #MAX_BYTES}, following symbolic links.
     *
     * @param file the file
     * @param deadlineNanos the {@link System#nanoTime()} at which the caller stops waiting
     * @return the file's bytes
     * @throws java.nio.file.NoSuchFileException if nothing is there (a dangling link included)
     * @throws RefusedFileException if it is not a regular file or is too large
     * @throws TimeoutException if it was not read by the deadline
     * @throws IOException if it cannot be read
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    static byte[] read(Path file, long deadlineNanos) throws IOException, TimeoutException, InterruptedException {
        return withinDeadline(() -> readRegular(file), deadlineNanos, "taskfile-read-" + file.getFileName());
    }

    /**
     * Runs a read on a daemon thread and waits for it until the deadline.
     *
     * @param read the read
     * @param deadlineNanos the {@link System#nanoTime()} at which the caller stops waiting
     * @param threadName the helper thread's name
     * @return what the read returned
     * @throws IOException if the read failed so
     * @throws TimeoutException if it did not finish by the deadline (it goes on, abandoned)
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    static byte[] withinDeadline(Callable<byte[]> read, long deadlineNanos, String threadName)
            throws IOException, TimeoutException, InterruptedException {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try {
                        result.complete(read.call());
                    } catch (Throwable e) { // whatever it is, the waiting caller must hear of it
                        result.completeExceptionally(e);
                    }
                },
                threadName);
        reader.setDaemon(true);
        reader.start();
        try {
            return result.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        }
    }

    private static IOException rethrown(Throwable cause) {
        if (cause instanceof IOException e) {
            return e;
        }
        if (cause instanceof RuntimeException e) {
            throw e;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new IOException(cause);
    }

    private static byte[] readRegular(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new RefusedFileException(notRegular(file, attributes));
        }
        if (attributes.size() > MAX_BYTES) {
            throw tooLarge();
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw tooLarge();
            }
            return bytes;
        }
    }

    private static RefusedFileException tooLarge() {
        return new RefusedFileException("is larger than the limit of " + MAX_SIZE_TEXT);
    }

    private static String notRegular(Path file, BasicFileAttributes attributes) {
        String kind = attributes.isDirectory() ? "a directory" : specialKind(file);
        if (Files.isSymbolicLink(file)) {
            try {
                return "links to " + file.toRealPath() + ", " + kind + ", not a regular file";
            } catch (IOException e) {
                return "links to " + kind + ", not a regular file";
            }
        }
        return "is " + kind + ", not a regular file";
    }

    /** Names a special file from its mode; the {@code unix} attribute view exists on Linux and macOS. */
    private static String specialKind(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            switch (mode & S_IFMT) {
                case S_IFIFO:
                    return "a named pipe (FIFO)";
                case S_IFCHR:
                    return "a character device";
                case S_IFBLK:
                    return "a block device";
                case S_IFSOCK:
                    return "a socket";
                default:
                    return "a special file";
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a special file";
        }
    }
}
