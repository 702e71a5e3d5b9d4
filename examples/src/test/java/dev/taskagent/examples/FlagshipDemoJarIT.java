package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged demo jar in a child JVM, as the README tells a user to run it: in a fresh working directory,
 * with the {@code OPENAI_*} variables unset unless a test sets them. What it checks is what only a real
 * process shows: the exit status, and that standard error holds one line when a model call fails (the
 * library's log lines go there too).
 */
class FlagshipDemoJarIT {
    private static final String OFFLINE_HINT =
            "Or unset OPENAI_API_KEY and OPENAI_BASE_URL to run the demo offline on its scripted model.";
    private static Path jar;

    @TempDir
    Path workingDirectory;

    @BeforeAll
    static void findTheJar() {
        String location = System.getProperty("taskagent.demo.jar");
        assertThat(location)
                .as("the system property taskagent.demo.jar, set by the build (run ./mvnw verify)")
                .isNotNull();
        jar = Path.of(location);
        assertThat(jar).as("the demo jar, built in the package phase").isRegularFile();
    }

    @Test
    void twoOfflineRunsSayScriptedModelExitWithZeroAndTheSecondCreatesNothing() throws Exception {
        Run first = demo(Map.of());
        Run second = demo(Map.of());

        assertThat(first.status()).isZero();
        assertThat(first.out()).contains("model: scripted model (offline").contains("created #1 [pending]");
        assertThat(first.err()).isEmpty();
        assertThat(second.status()).isZero();
        assertThat(second.out())
                .contains("already extracted in an earlier run: task #1")
                .doesNotContain("created #");
        assertThat(DemoOutput.tasksOnABoardBeforeTheirAnnouncement(first.out() + second.out()))
                .isEmpty();
        assertThat(workingDirectory.resolve(".taskagent-demo").resolve("tasks.mv.db"))
                .isRegularFile();
    }

    @Test
    void helpPrintsTheUsageOnStandardOutputAndExitsWithZero() throws Exception {
        Run run = demo(Map.of(), "--help");

        assertThat(run.status()).isZero();
        assertThat(run.out()).startsWith("Usage: java -jar taskagent-demo.jar [--reset] [--data DIR]");
        assertThat(run.err()).isEmpty();
        assertThat(workingDirectory).isEmptyDirectory();
    }

    @Test
    void anUnknownArgumentPrintsTheUsageOnStandardErrorAndExitsWithTwo() throws Exception {
        Run run = demo(Map.of(), "--frobnicate");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .startsWith("taskagent demo: unknown argument '--frobnicate'\n\nUsage: java -jar taskagent-demo.jar");
    }

    @Test
    void anUnreachableModelServerEndsTheDemoWithOneLineOnStandardErrorAndExitCodeOne() throws Exception {
        String baseUrl = FailingModelServer.unreachableBaseUrl();

        Run run = demo(Map.of("OPENAI_BASE_URL", baseUrl));

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("taskagent demo: the model call failed during extraction: Could not reach the model"
                        + " service at " + baseUrl)
                .endsWith(OFFLINE_HINT));
    }

    @Test
    void aRefusedApiKeyEndsTheDemoWithOneLineOnStandardErrorAndExitCodeOne() throws Exception {
        try (FailingModelServer server = FailingModelServer.answering(401, "Incorrect API key provided")) {
            Run run = demo(Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_API_KEY", "sk-demo-secret-4711"));

            assertThat(run.status()).isEqualTo(1);
            assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("taskagent demo: the model call failed during extraction: The model service at "
                            + server.baseUrl() + " refused the API key (HTTP 401")
                    .contains("Check OPENAI_API_KEY")
                    .endsWith(OFFLINE_HINT));
            assertThat(run.out() + run.err()).doesNotContain("sk-demo-secret-4711");
        }
    }

    @Test
    void aSecondDemoOnTheSameDataEndsWithOneLineThatTheFileIsInUseAndExitCodeOne() throws Exception {
        Process first = new ProcessBuilder(command("--dashboard", "0"))
                .directory(workingDirectory.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BufferedReader firstOut =
                    new BufferedReader(new InputStreamReader(first.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> boardLine =
                    CompletableFuture.supplyAsync(() -> readLineStartingWith(firstOut, "  task board: "));
            assertThat(boardLine.get(2, TimeUnit.MINUTES))
                    .as("the first demo's board is up")
                    .isNotNull();

            Run second = demo(Map.of());

            assertThat(second.status()).isEqualTo(1);
            assertThat(second.err().lines().toList())
                    .containsExactly("taskagent demo: the task store could not be opened: The H2 database jdbc:h2:file:"
                            + workingDirectory
                                    .toAbsolutePath()
                                    .resolve(".taskagent-demo")
                                    .resolve("tasks")
                            + " is in use by another process: an embedded H2 file opens in one process at a time."
                            + " Stop the other process, or share the database: add ;AUTO_SERVER=TRUE to the URL in"
                            + " every process, serve it with an H2 TCP server (jdbc:h2:tcp://...), or use PostgreSQL"
                            + " or MariaDB.");
        } finally {
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS))
                    .as("the first demo is gone")
                    .isTrue();
        }
    }

    private static String readLineStartingWith(BufferedReader reader, String prefix) {
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private Run demo(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = command(args);
        Path out = Files.createTempFile("demo", ".out");
        Path err = Files.createTempFile("demo", ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workingDirectory.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("OPENAI_"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(2, TimeUnit.MINUTES))
                    .as("the demo ended within two minutes")
                    .isTrue();
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
        assertThat(ProcessHandle.of(process.pid()).filter(ProcessHandle::isAlive))
                .as("the demo process is gone")
                .isEmpty();
        try {
            return new Run(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    private record Run(int status, String out, String err) {}
}
