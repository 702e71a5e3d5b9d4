package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import dev.taskagent.testkit.MutableClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DashboardApiTest {
    private static final String XSS = "<img src=x onerror=alert(1)>";

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryTaskStore store = new InMemoryTaskStore(clock);
    private final TaskQueue queue = TaskQueue.builder(store).build();
    private TaskDashboard board;
    private BoardClient client;

    @BeforeEach
    void startBoard() {
        board = TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .clock(clock)
                .build()
                .start();
        client = new BoardClient(board);
    }

    @AfterEach
    void stopBoard() {
        board.close();
    }

    private Task create(String session, String description, String assignee) {
        return queue.create(
                NewTask.builder(session, description).assignee(assignee).build());
    }

    @Test
    void sessionsAreListedOnceEachInOrder() {
        create("trip", "Book flights", "ann");
        create("trip", "Book a hotel", "ann");
        create("garden", "Water the roses", null);

        JsonNode sessions = client.get("/api/sessions").json();

        assertThat(sessions.get("sessions")).extracting(JsonNode::asText).containsExactly("garden", "trip");
        assertThat(sessions.get("total").asInt()).isEqualTo(2);
    }

    @Test
    void aSessionsTasksComeInOrderAsCardsWithStepsProgressPreferenceCommentsAndLinks() {
        Task flights = create("trip", "Book flights", "ann");
        create("trip", "Book a hotel", "bob");
        queue.update(TaskUpdate.of(flights.id())
                .steps(MarkdownSteps.checklist(List.of("Compare prices", "Pay"))
                        .markDone(1)
                        .document())
                .currentStep(1)
                .userPreference("window seat")
                .build());
        store.inTransaction(tx -> tx.appendProgress(flights.id(), "Found three fares"));
        queue.comment(flights.id(), "ann", "Cheapest is on Tuesday");
        queue.link(flights.id(), "https://example.com/fares", "fares", "ann");

        BoardClient.Reply reply = client.get("/api/sessions/trip/tasks");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        JsonNode tasks = reply.json().get("tasks");
        assertThat(tasks)
                .extracting(task -> task.get("description").asText())
                .containsExactly("Book flights", "Book a hotel");
        JsonNode card = tasks.get(0);
        assertThat(card.get("status").asText()).isEqualTo("pending");
        assertThat(card.get("assignee").asText()).isEqualTo("ann");
        assertThat(card.get("steps_done").asInt()).isEqualTo(1);
        assertThat(card.get("steps_total").asInt()).isEqualTo(2);
        assertThat(card.get("steps").get(0).get("text").asText()).isEqualTo("Compare prices");
        assertThat(card.get("steps").get(0).get("done").asBoolean()).isTrue();
        assertThat(card.get("steps").get(1).get("done").asBoolean()).isFalse();
        assertThat(card.get("progress").get(0).asText()).isEqualTo("Found three fares");
        assertThat(card.get("preference").asText()).isEqualTo("window seat");
        assertThat(card.get("comments").get(0).get("text").asText()).isEqualTo("Cheapest is on Tuesday");
        assertThat(card.get("links").get(0).get("url").asText()).isEqualTo("https://example.com/fares");
        assertThat(card.get("truncated")).isEmpty();
        assertThat(reply.json().get("position").asLong())
                .isEqualTo(store.eventFeed().lastPosition());
    }

    @Test
    void filtersByStatusAssigneeAndTextCombine() {
        create("trip", "Book flights", "ann");
        create("trip", "Book a hotel", "ann");
        Task car = create("trip", "Rent a car", "bob");
        queue.claimNext("ann");

        assertThat(descriptions("/api/sessions/trip/tasks?assignee=ann"))
                .containsExactly("Book flights", "Book a hotel");
        assertThat(descriptions("/api/sessions/trip/tasks?status=running")).containsExactly("Book flights");
        assertThat(descriptions("/api/sessions/trip/tasks?status=pending,running&assignee=bob"))
                .containsExactly("Rent a car");
        assertThat(descriptions("/api/sessions/trip/tasks?text=BOOK%20A")).containsExactly("Book a hotel");
        JsonNode filtered =
                client.get("/api/sessions/trip/tasks?assignee=nobody").json();
        assertThat(filtered.get("total").asInt()).isZero();
        assertThat(filtered.get("session_total").asInt()).isEqualTo(3);
        assertThat(filtered.get("session_id").asText()).isEqualTo("trip");
        assertThat(car.id()).isPositive();
    }

    @Test
    void pagesWithOffsetAndLimit() {
        IntStream.rangeClosed(1, 7).forEach(i -> create("many", "task " + i, null));

        JsonNode page = client.get("/api/sessions/many/tasks?offset=2&limit=3").json();

        assertThat(page.get("tasks"))
                .extracting(task -> task.get("description").asText())
                .containsExactly("task 3", "task 4", "task 5");
        assertThat(page.get("total").asInt()).isEqualTo(7);
        assertThat(descriptions("/api/sessions/many/tasks?offset=10")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/sessions/trip/tasks?status=done | status",
                "/api/sessions/trip/tasks?limit=0 | limit",
                "/api/sessions/trip/tasks?limit=1001 | limit",
                "/api/sessions/trip/tasks?limit=ten | limit",
                "/api/sessions/trip/tasks?offset=-1 | offset",
                "/api/sessions/trip/tasks?colour=red | colour",
                "/api/sessions/trip/tasks?status=pending&status=running | status",
                "/api/sessions?page=2 | page",
                "/api/tasks/abc | id",
                "/api/tasks/0 | id",
                "/api/tasks/-4 | id",
                "/api/events?after=soon | Last-Event-ID",
            })
    void badParametersAreRefusedWith400NamingTheParameter(String path, String parameter) {
        create("trip", "Book flights", "ann");

        BoardClient.Reply reply = client.get(path);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("parameter").asText()).isEqualTo(parameter);
        assertThat(reply.json().get("error").asText()).contains(parameter);
    }

    @Test
    void badParameterMessagesSayWhatIsExpected() {
        create("trip", "Book flights", "ann");

        assertThat(client.get("/api/sessions/trip/tasks?status=done")
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo(
                        "Parameter 'status' must be one or more of pending, running, success, failed, cancelled, comma"
                                + " separated; was 'done'");
        assertThat(client.get("/api/sessions/trip/tasks?limit=0")
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo("Parameter 'limit' must be a whole number from 1 to 1000, was '0'");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "/api/sessions/trip/tasks?offset=2147483648 | offset | Parameter 'offset' must be a whole number"
                        + " from 0 to 2147483647, was '2147483648'",
                "/api/sessions/{long}/tasks | session | Parameter 'session' is 256 characters long; the limit is 255",
                "/api/sessions/tr%00ip/tasks | session | Parameter 'session' holds a NUL character (at index 2);"
                        + " remove it",
                "/api/sessions/trip/tasks?assignee=a%00n | assignee | Parameter 'assignee' holds a NUL character (at"
                        + " index 1); remove it",
                "/api/sessions/trip/tasks?text={long} | text | Parameter 'text' is 1001 characters long; the limit is"
                        + " 1000",
            })
    void oddParametersAreRefusedWith400AndAMessageNotAnInternalError(String path, String parameter, String message) {
        create("trip", "Book flights", "ann");

        BoardClient.Reply reply = client.get(path.replace("{long}", "s".repeat(path.contains("text=") ? 1001 : 256)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("parameter").asText()).isEqualTo(parameter);
        assertThat(reply.json().get("error").asText()).isEqualTo(message);
    }

    @Test
    void anOffsetFarBeyondTheLastTaskGivesAnEmptyPage() {
        create("trip", "Book flights", "ann");

        BoardClient.Reply reply = client.get("/api/sessions/trip/tasks?offset=2147483647&limit=1000");

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().get("tasks")).isEmpty();
        assertThat(reply.json().get("total").asInt()).isEqualTo(1);
    }

    @Test
    void aMessageThatQuotesAParameterNeverCutsACharacterInHalf() {
        String value = "x".repeat(78) + "\uD83D\uDE00" + "y".repeat(10);

        BoardClient.Reply reply =
                client.get("/api/sessions/trip/tasks?status=" + URLEncoder.encode(value, StandardCharsets.UTF_8));

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).endsWith("was '" + "x".repeat(78) + "\u2026'");
    }

    @Test
    void aStoreFailureAnswers500WithoutTheStoresMessage() {
        TaskStore failing = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public List<String> listSessionIds() {
                        throw new IllegalStateException("connection to db-7.internal:5432 refused for user board");
                    }
                }));
            }
        };
        try (TaskDashboard failingBoard =
                TaskDashboard.builder(failing).bind("127.0.0.1", 0).build().start()) {
            BoardClient.Reply reply = new BoardClient(failingBoard).get("/api/sessions");

            assertThat(reply.status()).isEqualTo(500);
            assertThat(reply.json().get("error").asText())
                    .isEqualTo("The board failed to answer this request; the log of the process that serves it has"
                            + " the details");
            assertThat(reply.body()).doesNotContain("db-7", "IllegalStateException");
        }
    }

    @Test
    void unknownSessionsTasksAndEndpointsAre404() {
        create("trip", "Book flights", "ann");

        assertThat(client.get("/api/sessions/nowhere/tasks").status()).isEqualTo(404);
        assertThat(client.get("/api/sessions/nowhere/tasks").json().get("error").asText())
                .isEqualTo("No session 'nowhere'; GET /api/sessions lists them");
        assertThat(client.get("/api/tasks/999").status()).isEqualTo(404);
        assertThat(client.get("/api/tasks/999").json().get("error").asText()).isEqualTo("No task 999");
        assertThat(client.get("/api/nothing").status()).isEqualTo(404);
        assertThat(client.get("/secret.txt").status()).isEqualTo(404);
    }

    @Test
    void sessionIdsWithSlashesSpacesAndPlusSignsAreReachable() {
        create("a/b c+d", "odd session", null);

        JsonNode sessions = client.get("/api/sessions").json();
        assertThat(sessions.get("sessions").get(0).asText()).isEqualTo("a/b c+d");
        assertThat(descriptions("/api/sessions/a%2Fb%20c+d/tasks")).containsExactly("odd session");
    }

    @Test
    void oneTaskShowsItsLeaseAttemptAndEverythingElse() {
        Task task = create("trip", "Book flights", "ann");
        Task claimed = queue.claimNext("ann", Duration.ofMinutes(5)).orElseThrow();

        JsonNode card = client.get("/api/tasks/" + task.id()).json();

        assertThat(card.get("status").asText()).isEqualTo("running");
        assertThat(card.get("attempt").asInt()).isEqualTo(1);
        assertThat(card.get("lease_until").asText()).isEqualTo("2026-03-01T10:05:00Z");
        assertThat(card.get("version").asLong()).isEqualTo(claimed.version());
        assertThat(card.get("session_id").asText()).isEqualTo("trip");
    }

    @Test
    void queuesListEachAgentsTasksInClaimOrderWithLeaseExpiry() {
        create("trip", "low", "ann");
        queue.create(NewTask.builder("trip", "high").assignee("ann").priority(5).build());
        create("garden", "other agent", "bob");
        queue.claimNext("ann", Duration.ofSeconds(90));

        JsonNode queues = client.get("/api/queues").json();

        assertThat(queues.get("now").asText()).isEqualTo("2026-03-01T10:00:00Z");
        JsonNode agents = queues.get("agents");
        assertThat(agents).extracting(agent -> agent.get("agent").asText()).containsExactly("ann", "bob");
        JsonNode ann = agents.get(0).get("tasks");
        assertThat(ann).extracting(task -> task.get("description").asText()).containsExactly("high", "low");
        assertThat(ann.get(0).get("status").asText()).isEqualTo("running");
        assertThat(ann.get(0).get("lease_until").asText()).isEqualTo("2026-03-01T10:01:30Z");
        assertThat(ann.get(1).get("lease_until").isNull()).isTrue();
    }

    @Test
    void deadLetteredTasksAreListed() {
        Task doomed = queue.create(NewTask.builder("trip", "Flaky upload")
                .assignee("ann")
                .maxAttempts(1)
                .build());
        create("trip", "Fine", "ann");
        queue.claimNext("ann", Duration.ofSeconds(10));
        clock.advance(Duration.ofSeconds(11));
        queue.reclaimExpired();

        JsonNode dead = client.get("/api/dead-letters").json();

        assertThat(dead.get("tasks"))
                .extracting(task -> task.get("id").asLong())
                .containsExactly(doomed.id());
        assertThat(dead.get("tasks").get(0).get("dead_lettered").asBoolean()).isTrue();
        assertThat(dead.get("tasks").get(0).get("status").asText()).isEqualTo("failed");
    }

    @Test
    void aTaskThatFailedItsLastAttemptWithoutTheReaperIsADeadLetterOnTheBoard() {
        Task retried = queue.create(NewTask.builder("trip", "Retried to the end")
                .assignee("ann")
                .maxAttempts(1)
                .build());
        queue.claimNext("ann", Duration.ofMinutes(5));
        queue.retry(retried.id(), "ann", 1, "The upload was refused.");
        Task completed = queue.create(NewTask.builder("trip", "Failed on its last attempt")
                .assignee("bob")
                .maxAttempts(1)
                .build());
        queue.claimNext("bob", Duration.ofMinutes(5));
        queue.complete(completed.id(), "bob", 1, TaskStatus.FAILED, "No seats left.");
        Task early = create("trip", "Failed with attempts left", "carl");
        queue.claimNext("carl", Duration.ofMinutes(5));
        queue.complete(early.id(), "carl", 1, TaskStatus.FAILED, "Gave up early.");

        JsonNode dead = client.get("/api/dead-letters").json();
        JsonNode cards = client.get("/api/sessions/trip/tasks").json().get("tasks");

        assertThat(dead.get("tasks"))
                .extracting(task -> task.get("id").asLong())
                .containsExactly(retried.id(), completed.id());
        assertThat(dead.get("tasks"))
                .allSatisfy(task ->
                        assertThat(task.get("dead_lettered").asBoolean()).isTrue());
        assertThat(cards)
                .extracting(task -> task.get("id").asLong(), task -> task.get("dead_lettered")
                        .asBoolean())
                .containsExactly(tuple(retried.id(), true), tuple(completed.id(), true), tuple(early.id(), false));
        assertThat(client.get("/api/tasks/" + completed.id())
                        .json()
                        .get("dead_lettered")
                        .asBoolean())
                .isTrue();
        assertThat(store.findTask(completed.id()).orElseThrow().comments())
                .noneMatch(comment -> comment.author().equals(Leases.REAPER));
    }

    @Test
    void aBoardBuiltFromAQueueCountsAttemptsByThatQueuesLimit() {
        TaskQueue patient =
                TaskQueue.builder(store).maxAttempts(5).backoff(Backoff.none()).build();
        // Inserted without a limit of its own, as a task made outside the queue is: the queue's default decides.
        Task task = store.inTransaction(transaction -> transaction.insertTask(
                NewTask.builder("trip", "Flaky without a limit").assignee("ann").build(), 0));
        assertThat(task.maxAttempts()).isZero();
        for (int attempt = 1; attempt < 3; attempt++) {
            patient.claimNext("ann", Duration.ofMinutes(5)).orElseThrow();
            patient.retry(task.id(), "ann", attempt, "Try again.");
        }
        assertThat(patient.claimNext("ann", Duration.ofMinutes(5)).orElseThrow().attempt())
                .isEqualTo(3);
        patient.complete(task.id(), "ann", 3, TaskStatus.FAILED, "Failed on attempt 3 of 5.");

        try (TaskDashboard patientBoard = TaskDashboard.builder(patient)
                .bind("127.0.0.1", 0)
                .clock(clock)
                .build()
                .start()) {
            BoardClient patientClient = new BoardClient(patientBoard);
            assertThat(patientClient.get("/api/dead-letters").json().get("tasks"))
                    .isEmpty();
            assertThat(patientClient
                            .get("/api/tasks/" + task.id())
                            .json()
                            .get("dead_lettered")
                            .asBoolean())
                    .isFalse();
        }
        // The board of the store alone counts by the default of 3 attempts: for it, attempt 3 was the last.
        assertThat(client.get("/api/tasks/" + task.id())
                        .json()
                        .get("dead_lettered")
                        .asBoolean())
                .isTrue();
        assertThat(client.get("/api/dead-letters").json().get("tasks"))
                .extracting(dead -> dead.get("id").asLong())
                .containsExactly(task.id());
    }

    @Test
    void anXssDescriptionComesBackAsPlainJsonText() {
        Task task = create("trip", XSS, "ann");

        BoardClient.Reply reply = client.get("/api/tasks/" + task.id());

        assertThat(reply.json().get("description").asText()).isEqualTo(XSS);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    @Test
    void aOneMegabyteDescriptionIsCutWithAMarker() {
        String huge = "x".repeat(Task.MAX_TEXT_LENGTH);
        Task task = create("big", huge, null);

        BoardClient.Reply one = client.get("/api/tasks/" + task.id());
        BoardClient.Reply list = client.get("/api/sessions/big/tasks");

        assertThat(one.json().get("description").asText())
                .hasSize(CardJson.DETAIL.limits().descriptionChars() + 1)
                .endsWith("\u2026");
        assertThat(one.json().get("description_length").asInt()).isEqualTo(Task.MAX_TEXT_LENGTH);
        assertThat(one.json().get("truncated")).extracting(JsonNode::asText).containsExactly("description");
        assertThat(one.body().length()).isLessThan(120_000);
        assertThat(list.json().get("tasks").get(0).get("description").asText())
                .hasSize(CardJson.BOARD.limits().descriptionChars() + 1);
        assertThat(list.body().length()).isLessThan(5_000);
    }

    @Test
    void tenThousandStepsAreCappedWithAMarker() {
        List<String> texts = new ArrayList<>();
        for (int i = 1; i <= 10_000; i++) {
            texts.add("step " + i);
        }
        Task task = create("long", "Ten thousand steps", null);
        queue.update(TaskUpdate.of(task.id())
                .steps(MarkdownSteps.checklist(texts).markDone(1).document())
                .build());

        JsonNode one = client.get("/api/tasks/" + task.id()).json();
        JsonNode card =
                client.get("/api/sessions/long/tasks").json().get("tasks").get(0);

        assertThat(one.get("steps_total").asInt()).isEqualTo(10_000);
        assertThat(one.get("steps_done").asInt()).isEqualTo(1);
        assertThat(one.get("steps")).hasSize(CardJson.DETAIL.limits().steps());
        assertThat(one.get("truncated")).extracting(JsonNode::asText).containsExactly("steps");
        assertThat(card.get("steps")).hasSize(CardJson.BOARD.limits().steps());
        assertThat(card.get("truncated")).extracting(JsonNode::asText).containsExactly("steps");
    }

    @Test
    void everyResponseCarriesAStrictContentSecurityPolicy() {
        create("trip", "Book flights", "ann");
        for (String path : List.of("/", "/board.js", "/board.css", "/api/sessions", "/api/tasks/999", "/api/x")) {
            BoardClient.Reply reply = client.get(path);
            assertThat(reply.header("Content-Security-Policy"))
                    .as(path)
                    .contains("default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(reply.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(reply.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
        }
    }

    @Test
    void thePageHasNoInlineScriptOrStyleAndTheScriptNeverUsesInnerHtml() {
        String page = client.get("/").body();
        String script = client.get("/board.js").body();

        assertThat(page).contains("<script src=\"/board.js\" defer></script>").doesNotContain("style=", "onclick");
        assertThat(page.replace("<script src=\"/board.js\" defer></script>", ""))
                .doesNotContain("<script");
        assertThat(script).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
        assertThat(client.get("/board.js").header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
    }

    @Test
    void aHostHeaderThatNamesAnotherHostIsRefused() throws Exception {
        assertThat(rawStatusLine("evil.example:" + board.port())).contains(" 421 ");
        assertThat(rawStatusLine("localhost:" + board.port())).contains(" 200 ");
        assertThat(rawStatusLine("127.0.0.1:" + board.port())).contains(" 200 ");
    }

    @Test
    void aRequestFromAnotherSitesPageIsRefused() {
        BoardClient.Reply foreign = client.get("/api/sessions", Map.of("Origin", "http://evil.example"));
        BoardClient.Reply own = client.get("/api/sessions", Map.of("Origin", "http://127.0.0.1:" + board.port()));

        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.json().get("parameter").asText()).isEqualTo("Origin");
        assertThat(own.status()).isEqualTo(200);
    }

    @Test
    void actionsAreOffByDefault() {
        Task task = create("trip", "Book flights", "ann");

        BoardClient.Reply reply =
                client.post("/api/tasks/" + task.id() + "/archive", "{\"version\":" + task.version() + "}", Map.of());

        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.json().get("error").asText()).startsWith("Actions are off");
        assertThat(store.findTask(task.id()).orElseThrow().archived()).isFalse();
    }

    @Test
    void otherMethodsThanGetAre405() {
        BoardClient.Reply reply = client.post("/api/sessions", "{}", Map.of());

        assertThat(reply.status()).isEqualTo(405);
    }

    @Test
    void aStoreThatCannotListSessionsOrAgentsAnswers501ButStillServesASessionById() {
        create("trip", "Book flights", "ann");
        TaskStore older = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public List<String> listSessionIds() {
                        throw new UnsupportedOperationException("OlderStore cannot list sessions");
                    }

                    @Override
                    public List<String> listAssignees() {
                        throw new UnsupportedOperationException("OlderStore cannot list agents");
                    }

                    @Override
                    public TaskPage listDeadLetters(int defaultMaxAttempts, int limit, String cursor) {
                        throw new UnsupportedOperationException("OlderStore cannot list dead letters");
                    }
                }));
            }
        };
        try (TaskDashboard olderBoard =
                TaskDashboard.builder(older).bind("127.0.0.1", 0).build().start()) {
            BoardClient olderClient = new BoardClient(olderBoard);

            BoardClient.Reply sessions = olderClient.get("/api/sessions");

            assertThat(sessions.status()).isEqualTo(501);
            assertThat(sessions.json().get("error").asText())
                    .startsWith("OlderStore cannot list sessions; open a session");
            assertThat(olderClient.get("/api/sessions/trip/tasks").status()).isEqualTo(200);
            BoardClient.Reply dead = olderClient.get("/api/dead-letters");
            assertThat(dead.status()).isEqualTo(501);
            assertThat(dead.json().get("error").asText()).startsWith("OlderStore cannot list agents");
        }
    }

    private List<String> descriptions(String path) {
        BoardClient.Reply reply = client.get(path);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<String> result = new ArrayList<>();
        reply.json()
                .get("tasks")
                .forEach(task -> result.add(task.get("description").asText()));
        return result;
    }

    private String rawStatusLine(String host) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", board.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/sessions HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }

    static TaskStatus statusOf(InMemoryTaskStore store, long id) {
        return store.findTask(id).orElseThrow().status();
    }
}
