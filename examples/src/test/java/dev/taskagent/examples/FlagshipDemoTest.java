package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flagship demo run in this JVM through {@link FlagshipDemo#run(String[], Map, PrintStream, PrintStream)},
 * on a temporary data directory and an environment given per test.
 */
class FlagshipDemoTest {
    private static final String TRIP = "Research Bangkok attractions for the kids and send me the list on WhatsApp";
    private static final String OFFLINE_HINT =
            "Or unset OPENAI_API_KEY and OPENAI_BASE_URL to run the demo offline on its scripted model.";

    @TempDir
    Path data;

    @Test
    void theOfflineDemoTurnsTheConversationIntoATaskAndTakesItThroughEveryStage() {
        Run run = offline();

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .contains("model: scripted model (offline")
                .contains("[live] step 1 ticked")
                .contains("[live] step 2 ticked")
                .contains("[tool] send_whatsapp to Hanan")
                .contains("claimed and set to working status")
                .contains("transferred from researcher to concierge")
                .contains("queue of concierge: #2")
                .contains("Hello, Hanan!");
        assertThat(run.out().indexOf("[live] step 1 ticked"))
                .isLessThan(run.out().indexOf("[tool] send_whatsapp"));
        assertThat(run.out().indexOf("[tool] send_whatsapp"))
                .isLessThan(run.out().indexOf("[live] step 2 ticked"));
        Task trip = tasks().get(0);
        assertThat(trip.description()).isEqualTo(TRIP);
        assertThat(trip.userPreferences()).containsExactly("Indoor places (it is 38 degrees); suitable for kids");
        assertThat(trip.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(trip.steps())
                .isEqualTo(
                        "- [x] Research indoor Bangkok attractions for kids\n" + "- [x] Send the list on WhatsApp\n");
    }

    @Test
    void theTasksPersistInTheH2FileBetweenRunsAndResetStartsAfresh() {
        offline();

        assertThat(offline().out()).contains("found 2 task(s) of earlier runs");
        assertThat(offline("--reset").out()).doesNotContain("of earlier runs");
    }

    @Test
    void helpPrintsTheUsageOnStandardOutputAndExitsWithZero() {
        for (String help : List.of("--help", "-h")) {
            Run run = run(Map.of(), help);

            assertThat(run.status()).isZero();
            assertThat(run.out()).isEqualTo(FlagshipDemo.USAGE).contains("--reset", "--data DIR", "OPENAI_BASE_URL");
            assertThat(run.err()).isEmpty();
        }
    }

    @Test
    void anUnknownArgumentPrintsTheUsageOnStandardErrorAndExitsWithTwo() {
        Run run = run(Map.of(), "--frobnicate");

        assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("taskagent demo: unknown argument '--frobnicate'\n\n" + FlagshipDemo.USAGE);
    }

    @Test
    void dataWithoutADirectoryIsAUsageError() {
        Run run = run(Map.of(), "--data");

        assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_USAGE);
        assertThat(run.err()).startsWith("taskagent demo: --data needs a directory, e.g. --data /tmp/demo\n\nUsage:");
    }

    @Test
    void anUnreachableModelServerEndsTheDemoWithOneLineThatSaysWhatToCheck() {
        String baseUrl = FailingModelServer.unreachableBaseUrl();

        Run run = run(Map.of("OPENAI_BASE_URL", baseUrl), "--data", data.toString());

        assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
        assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("taskagent demo: the model call failed during extraction: Could not reach the model"
                        + " service at " + baseUrl)
                .contains("Check OPENAI_BASE_URL")
                .endsWith(OFFLINE_HINT));
        assertThat(run.out()).contains("model: OpenAiChatModel").doesNotContain("Task board");
        assertThat(tasks()).isEmpty();
    }

    @Test
    void aRefusedApiKeyEndsTheDemoWithOneLineThatNamesTheVariableAndNotTheKey() {
        try (FailingModelServer server = FailingModelServer.answering(401, "Incorrect API key provided")) {
            Run run = run(
                    Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_API_KEY", "sk-demo-secret-4711"),
                    "--data",
                    data.toString());

            assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
            assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("taskagent demo: the model call failed during extraction: The model service at "
                            + server.baseUrl() + " refused the API key (HTTP 401")
                    .contains("Check OPENAI_API_KEY")
                    .endsWith(OFFLINE_HINT));
            assertThat(run.out() + run.err()).doesNotContain("sk-demo-secret-4711");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    @Test
    void anInvalidBaseUrlIsReportedInOneLineBeforeAnythingRuns() {
        Run run = run(Map.of("OPENAI_BASE_URL", "localhost:11434"), "--data", data.toString());

        assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
        assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("taskagent demo: the model configuration is invalid: baseUrl 'localhost:11434'")
                .endsWith(OFFLINE_HINT));
        assertThat(run.out()).isEmpty();
    }

    private List<Task> tasks() {
        try (JdbcTaskStore store = JdbcTaskStore.open(new DemoData(data).jdbcUrl())) {
            return store.listTasks(FlagshipDemo.SESSION);
        }
    }

    private Run offline(String... args) {
        return run(
                Map.of(),
                Stream.concat(Stream.of("--data", data.toString()), Stream.of(args))
                        .toArray(String[]::new));
    }

    private static Run run(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FlagshipDemo.run(
                args,
                environment,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Run(int status, String out, String err) {}
}
