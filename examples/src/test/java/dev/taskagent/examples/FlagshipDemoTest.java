package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flagship demo run in this JVM through {@link FlagshipDemo#run(String[], Map, PrintStream, PrintStream)},
 * on a temporary data directory and an environment given per test; {@code FlagshipDemoJarIT} runs the
 * packaged jar.
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
                .contains("created #1 [pending]: " + TRIP)
                .contains("[live] step 1 ticked")
                .contains("[live] step 2 ticked")
                .contains("[tool] send_whatsapp to Hanan")
                .contains("claimed and set to working status")
                .contains("created #2 [pending] assigned to researcher: " + FlagshipRun.FOLLOW_UP)
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
    void aSecondRunWithoutResetCreatesNoTaskAgainAndSaysItGoesOnWithTheEarlierOnes() {
        offline();
        List<Task> afterFirstRun = tasks();

        Run second = offline();

        assertThat(second.status()).isZero();
        assertThat(tasks())
                .extracting(Task::id)
                .isEqualTo(afterFirstRun.stream().map(Task::id).toList());
        assertThat(DemoOutput.created(second.out())).isEmpty();
        assertThat(second.out())
                .contains("session family-trip holds 2 task(s) from an earlier run; this run goes on with them")
                .contains("carried over #1 [success] assigned to researcher: " + TRIP)
                .contains("carried over #2 [pending] assigned to concierge: " + FlagshipRun.FOLLOW_UP)
                .contains("already extracted in an earlier run: task #1 holds this conversation's request")
                .contains("skipped: task #1 was done in an earlier run")
                .contains("skipped: the follow-up #2 went to concierge in an earlier run")
                .contains("Hello, Hanan!")
                .doesNotContain("signup_for_task {")
                .doesNotContain("move_task {");
        assertThat(DemoOutput.boards(second.out())).isEqualTo(1);
    }

    @Test
    void everyTaskOnABoardWasAnnouncedEarlierInTheSameRunInTheFirstRunAndInTheSecond() {
        Run first = offline();
        Run second = offline();

        assertThat(DemoOutput.boards(first.out())).isEqualTo(3);
        assertThat(DemoOutput.tasksOnABoardBeforeTheirAnnouncement(first.out())).isEmpty();
        assertThat(DemoOutput.boards(second.out())).isEqualTo(1);
        assertThat(DemoOutput.tasksOnABoardBeforeTheirAnnouncement(second.out()))
                .isEmpty();
    }

    @Test
    void theBoardCheckCatchesATaskThatAppearsWithoutItsCreation() {
        String output = """
                  created #1 [pending]: Research
                ┌─ Task board: after the hand-over (session family-trip)
                │  #1 [success] assigned to researcher: Research
                │  #2 [pending] assigned to concierge: Book tickets
                │  queue of concierge: #2 pending "Book tickets"
                └─
                """;

        assertThat(DemoOutput.tasksOnABoardBeforeTheirAnnouncement(output))
                .containsExactly(
                        "board 'after the hand-over (session family-trip)' shows #2, announced: [1]",
                        "board 'after the hand-over (session family-trip)' shows #2, announced: [1]");
    }

    @Test
    void resetSaysWhatItRemovedAndTheRunStartsAfresh() {
        offline();

        Run reset = offline("--reset");

        assertThat(reset.status()).isZero();
        assertThat(reset.out())
                .contains("  reset: removed " + data.toAbsolutePath() + " (1 file(s): tasks.mv.db, which held 2"
                        + " task(s) of session family-trip)\n")
                .contains("created #1 [pending]: " + TRIP)
                .doesNotContain("carried over");
        assertThat(tasks()).hasSize(2);
    }

    @Test
    void resetOfADirectoryThatDoesNotExistSaysThereIsNothingToRemove() {
        Path missing = data.resolve("never-created");

        Run reset = run(Map.of(), "--reset", "--data", missing.toString());

        assertThat(reset.status()).isZero();
        assertThat(reset.out()).contains("  reset: nothing to remove: " + missing + " does not exist\n");
    }

    @Test
    void resetRemovesADatabaseTheDemoCannotOpenAndSaysItsTasksCouldNotBeCounted() throws IOException {
        Files.writeString(data.resolve("tasks.mv.db"), "not an H2 database");

        Run reset = offline("--reset");

        assertThat(reset.status()).isZero();
        assertThat(reset.out())
                // Opening the damaged file to count its tasks leaves an H2 trace file, removed as well.
                .contains("  reset: removed " + data.toAbsolutePath() + " (2 file(s): tasks.mv.db, tasks.trace.db,"
                        + " whose tasks could not be counted: ")
                .contains("created #1 [pending]: " + TRIP);
    }

    @Test
    void resetRefusesADirectoryThatHoldsFilesTheDemoDidNotCreate() throws IOException {
        offline();
        Path notes = Files.writeString(data.resolve("notes.txt"), "mine");

        Run reset = offline("--reset");

        assertThat(reset.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
        assertThat(reset.err())
                .isEqualTo("taskagent demo: --reset did not remove " + data.toAbsolutePath() + ": it holds files the"
                        + " demo did not create (notes.txt). Remove them yourself, or choose another directory with"
                        + " --data DIR.\n");
        assertThat(notes).hasContent("mine");
        assertThat(data.resolve("tasks.mv.db")).exists();
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
    void aDashboardPortThatIsNotANumberIsAUsageError() {
        Run run = run(Map.of(), "--dashboard", "eighty");

        assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_USAGE);
        assertThat(run.err())
                .startsWith("taskagent demo: --dashboard takes a port from 0 to 65535 (0 picks a free one),"
                        + " not 'eighty'\n\nUsage:");
    }

    @Test
    void aDashboardPortInUseIsOneLineNamingTheAddressAndTheFlag() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();

            Run run = run(Map.of(), "--data", data.toString(), "--dashboard", String.valueOf(port));

            assertThat(run.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
            assertThat(run.err())
                    .isEqualTo("taskagent demo: 127.0.0.1:" + port + " is already in use: choose another port with"
                            + " --dashboard PORT (0 picks a free port), or stop the process that listens there\n");
        }
    }

    @Test
    void withTheDashboardTheBoardServesTheTasksWhileTheDemoRunsAndStopsAfterEnter() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PipedOutputStream enter = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(enter);
        CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> FlagshipDemo.run(
                new String[] {"--data", data.toString(), "--dashboard", "0"},
                Map.of(),
                in,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));

        Matcher address = waitFor(out, Pattern.compile("task board: (http://127\\.0\\.0\\.1:\\d+/)"));
        URI board = URI.create(address.group(1));
        waitFor(out, Pattern.compile("press Enter to stop it"));
        HttpResponse<String> tasks = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(board.resolve("/api/sessions/family-trip/tasks"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(tasks.statusCode()).isEqualTo(200);
        assertThat(tasks.body()).contains(TRIP, "\"steps_done\":2");
        assertThat(demo).isNotDone();

        enter.write('\n');
        enter.flush();

        assertThat(demo.get(30, TimeUnit.SECONDS)).isZero();
        assertThatThrownBy(() -> HttpClient.newHttpClient()
                        .send(HttpRequest.newBuilder(board).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    private static Matcher waitFor(ByteArrayOutputStream out, Pattern pattern) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Matcher matcher = pattern.matcher(out.toString(StandardCharsets.UTF_8));
            if (matcher.find()) {
                return matcher;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The demo did not print " + pattern + " within 60 s:\n" + out);
            }
            Thread.sleep(20);
        }
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

    @Test
    void aRunStoppedByAFailedModelCallDuringTheStepsResumesWhereItStoppedWithoutADuplicate() {
        Task extractedEarlier = storeTaskAsAnEarlierExtractionLeftIt();
        try (FailingModelServer server = FailingModelServer.answering(500, "The server had an error")) {
            Run failed = run(Map.of("OPENAI_BASE_URL", server.baseUrl()), "--data", data.toString());

            assertThat(failed.status()).isEqualTo(FlagshipDemo.EXIT_FAILED);
            assertThat(failed.err().lines()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("taskagent demo: the model call failed during step execution: The model service at "
                            + server.baseUrl() + " failed (HTTP 500")
                    .endsWith(OFFLINE_HINT));
            assertThat(failed.out()).contains("Task #" + extractedEarlier.id() + " claimed and set to working status");
        }

        Run resumed = offline();

        assertThat(resumed.status()).isZero();
        assertThat(resumed.out())
                .contains("carried over #" + extractedEarlier.id() + " [running] assigned to researcher: " + TRIP)
                .contains("skipped: researcher claimed task #" + extractedEarlier.id()
                        + " in an earlier run and goes on with it")
                .contains("2 of 2 steps done; task marked success");
        assertThat(DemoOutput.tasksOnABoardBeforeTheirAnnouncement(resumed.out()))
                .isEmpty();
        assertThat(tasks())
                .extracting(Task::description, Task::status)
                .containsExactly(tuple(TRIP, TaskStatus.SUCCESS), tuple(FlagshipRun.FOLLOW_UP, TaskStatus.PENDING));
    }

    private Task storeTaskAsAnEarlierExtractionLeftIt() {
        try (JdbcTaskStore store = JdbcTaskStore.open(new DemoData(data).jdbcUrl())) {
            return store.inTransaction(transaction -> transaction.appendTask(NewTask.builder(FlagshipDemo.SESSION, TRIP)
                    .steps("- [ ] Research indoor Bangkok attractions for kids\n- [ ] Send the list on WhatsApp\n")
                    .build()));
        }
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
