package dev.taskagent.mcp;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runnable jar ({@code taskagent-mcp-<version>-all.jar}) started as the README says, for the
 * integration tests, which run after the jar is packaged. Its standard error goes to a file under {@code
 * target/}.
 */
final class JarProcess implements AutoCloseable {
    private static final Pattern ENDPOINT = Pattern.compile(" at (http://\\S+/mcp)");

    private final Process process;
    private final Path log;

    private JarProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** The packaged runnable jar. */
    static Path jar() {
        Path jar = Path.of(System.getProperty("taskagent.mcp.jar", "target/missing-all.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "The runnable jar " + jar + " is missing: run the tests with ./mvnw verify");
        }
        return jar;
    }

    /** The java binary of this JVM. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Starts {@code java -jar <jar> <arguments>}. */
    static JarProcess start(String name, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar().toString()));
        command.addAll(List.of(arguments));
        return start(name, command);
    }

    /**
     * Starts the server's command line with this JVM's class path, as {@link ChildProcesses#serverCommand}
     * does: for unit tests, which run before the jar is packaged.
     */
    static JarProcess startFromClassPath(String name, String... arguments) throws IOException {
        return start(name, ChildProcesses.serverCommand(arguments));
    }

    /** Starts a main class of the test class path (a server with test fixtures). */
    static JarProcess startMain(String name, Class<?> mainClass, String... arguments) throws IOException {
        List<String> command =
                new ArrayList<>(List.of(java(), "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(arguments));
        return start(name, command);
    }

    private static JarProcess start(String name, List<String> command) throws IOException {
        Path log = Files.createDirectories(Path.of("target", "it-logs")).resolve(name + ".stderr.txt");
        Process process = new ProcessBuilder(command)
                .redirectError(log.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        return new JarProcess(process, log);
    }

    /** Waits for the server's "serving … at http://…/mcp" line and returns the endpoint. */
    URI awaitEndpoint() {
        AtomicReference<URI> endpoint = new AtomicReference<>();
        McpClients.await("the server to print its endpoint in " + log, Duration.ofSeconds(60), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("The server exited with " + process.exitValue() + ": " + stderr());
            }
            Matcher matcher = ENDPOINT.matcher(stderr());
            if (matcher.find()) {
                endpoint.set(URI.create(matcher.group(1)));
                return true;
            }
            return false;
        });
        return endpoint.get();
    }

    String stderr() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Kills the process with SIGKILL, as a crash would end it, and waits until it is gone. */
    void killHard() {
        process.destroyForcibly();
        McpClients.await("process " + process.pid() + " to die", Duration.ofSeconds(20), () -> !process.isAlive());
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
