package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Comment;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DashboardTokenAndActionsTest {
    private static final String TOKEN = "s3cret-token-for-the-board";

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryTaskStore store = new InMemoryTaskStore(clock);
    private final TaskQueue queue = TaskQueue.builder(store).build();
    private TaskDashboard board;
    private BoardClient anonymous;
    private BoardClient owner;

    @BeforeEach
    void startBoard() {
        board = TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .token(TOKEN)
                .actionsEnabled(true)
                .build()
                .start();
        anonymous = new BoardClient(board);
        owner = anonymous.withToken(TOKEN);
    }

    @AfterEach
    void stopBoard() {
        board.close();
    }

    @Test
    void theApiAndTheEventStreamNeedTheTokenButThePageDoesNot() {
        queue.create(NewTask.of("trip", "Book flights"));

        for (String path : new String[] {"/api/sessions", "/api/config", "/api/queues", "/api/events"}) {
            BoardClient.Reply refused = anonymous.get(path);
            assertThat(refused.status()).as(path).isEqualTo(401);
            assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
        assertThat(anonymous
                        .withToken("s3cret-token-for-the-boarD")
                        .get("/api/sessions")
                        .status())
                .isEqualTo(401);
        assertThat(anonymous
                        .get("/api/sessions", Map.of("Authorization", "Basic " + TOKEN))
                        .status())
                .isEqualTo(401);
        assertThat(owner.get("/api/sessions").status()).isEqualTo(200);
        assertThat(anonymous.get("/").status()).isEqualTo(200);
        assertThat(anonymous.get("/board.js").status()).isEqualTo(200);
    }

    @Test
    void theTokenIsNotAcceptedInTheQueryString() {
        assertThat(anonymous.get("/api/sessions?token=" + TOKEN).status()).isEqualTo(401);
    }

    @Test
    void aFailedTaskIsRequeuedWhenItsVersionIsCurrent() {
        Task failed = deadLetter();

        BoardClient.Reply reply = owner.post(
                "/api/tasks/" + failed.id() + "/requeue", "{}", Map.of("If-Match", "\"" + failed.version() + "\""));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode json = reply.json();
        assertThat(json.get("action").asText()).isEqualTo("requeue");
        assertThat(json.get("task_id").asLong()).isEqualTo(failed.id());
        assertThat(json.get("message").asText())
                .isEqualTo("Task " + failed.id() + " is pending again in carl's queue; it was failed.");
        assertThat(json.get("task").get("status").asText()).isEqualTo("pending");
        Task after = store.findTask(failed.id()).orElseThrow();
        assertThat(after.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(after.comments().get(after.comments().size() - 1).author()).isEqualTo("task-board");
        assertThat(owner.get("/api/dead-letters").json().get("tasks")).isEmpty();
    }

    @Test
    void theRequeueCommentSaysWhenTheTaskHadFailedAfterItsLastAttempt() {
        Task retried = queue.create(NewTask.builder("trip", "Retried to the end")
                .assignee("carl")
                .maxAttempts(1)
                .build());
        queue.claimNext("carl", Duration.ofMinutes(5));
        Task dead = queue.retry(retried.id(), "carl", 1, "The upload was refused.");
        Task early = queue.create(NewTask.builder("trip", "Failed with attempts left")
                .assignee("carl")
                .build());
        queue.claimNext("carl", Duration.ofMinutes(5));
        Task failed = queue.complete(early.id(), "carl", 1, TaskStatus.FAILED, "Gave up early.");

        for (Task task : List.of(dead, failed)) {
            BoardClient.Reply reply = owner.post(
                    "/api/tasks/" + task.id() + "/requeue", "{\"version\":" + task.version() + "}", Map.of());
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        }

        assertThat(lastComment(dead.id()))
                .isEqualTo("Requeued from the task board (it had failed after its last" + " attempt).");
        assertThat(lastComment(early.id())).isEqualTo("Requeued from the task board (it had failed).");
    }

    private String lastComment(long taskId) {
        List<Comment> comments = store.findTask(taskId).orElseThrow().comments();
        return comments.get(comments.size() - 1).text();
    }

    @Test
    void aStaleVersionIsRefusedWith409AndNothingChanges() {
        Task failed = deadLetter();
        queue.comment(failed.id(), "bob", "looking into it"); // the version moves on

        BoardClient.Reply reply = owner.post(
                "/api/tasks/" + failed.id() + "/requeue", "{\"version\":" + failed.version() + "}", Map.of());

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.json().get("error").asText())
                .isEqualTo("Task " + failed.id() + " changed since you saw it:"
                        + " you sent version " + failed.version() + ", it is at version " + (failed.version() + 1)
                        + ". Reload it and try again if still wanted.");
        assertThat(store.findTask(failed.id()).orElseThrow().status()).isEqualTo(TaskStatus.FAILED);
    }

    @Test
    void anActionWithoutAVersionIsRefusedNamingIt() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        BoardClient.Reply reply = owner.post("/api/tasks/" + task.id() + "/archive", "{}", Map.of());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("parameter").asText()).isEqualTo("version");
        assertThat(store.findTask(task.id()).orElseThrow().archived()).isFalse();
    }

    @Test
    void anActionWithoutTheTokenIsRefused() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        BoardClient.Reply reply = anonymous.post(
                "/api/tasks/" + task.id() + "/archive", "{\"version\":" + task.version() + "}", Map.of());

        assertThat(reply.status()).isEqualTo(401);
        assertThat(store.findTask(task.id()).orElseThrow().archived()).isFalse();
    }

    @Test
    void anActionFromAnotherSitesPageIsRefusedEvenWithTheToken() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        BoardClient.Reply reply = owner.post(
                "/api/tasks/" + task.id() + "/archive",
                "{\"version\":" + task.version() + "}",
                Map.of("Origin", "http://evil.example"));

        assertThat(reply.status()).isEqualTo(403);
        assertThat(store.findTask(task.id()).orElseThrow().archived()).isFalse();
    }

    @Test
    void behindATlsProxyAnActionFromTheBoardsPublicOriginIsDoneOnceThatOriginIsNamed() throws Exception {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());
        try (TaskDashboard proxied = proxiedBoard()) {
            // What a proxy at https://board.example.com forwards from the board's own page.
            String fromThePage = "Origin: https://board.example.com\r\nX-Forwarded-Proto: https\r\n";

            String refused = rawArchive(board, "127.0.0.1:" + board.port(), fromThePage, task);
            String done = rawArchive(proxied, "board.example.com", fromThePage, task);

            assertThat(refused).as("a board not told its public origin").startsWith("HTTP/1.1 403 ");
            assertThat(done).startsWith("HTTP/1.1 200 ");
            assertThat(store.findTask(task.id()).orElseThrow().archived()).isTrue();
        }
    }

    @Test
    void behindATlsProxyAnotherSitesPageIsStillRefusedWhateverTheForwardedHeadersSay() throws Exception {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());
        try (TaskDashboard proxied = proxiedBoard()) {
            for (String foreign : List.of(
                    "Origin: https://evil.example\r\nX-Forwarded-Proto: https\r\n",
                    "Origin: https://board.example.com.evil.example\r\n",
                    "Origin: https://evil.example\r\nForwarded: proto=https;host=board.example.com\r\n"
                            + "X-Forwarded-Host: board.example.com\r\n",
                    "Origin: https://board.example.com:8443\r\n",
                    "Origin: null\r\n")) {
                assertThat(rawArchive(proxied, "board.example.com", foreign, task))
                        .as(foreign)
                        .startsWith("HTTP/1.1 403 ");
            }
            assertThat(store.findTask(task.id()).orElseThrow().archived()).isFalse();
        }
    }

    @Test
    void aTaskIsArchivedAndLeavesTheQueues() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        BoardClient.Reply reply =
                owner.post("/api/tasks/" + task.id() + "/archive", "{\"version\":" + task.version() + "}", Map.of());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("task").get("archived").asBoolean()).isTrue();
        assertThat(owner.get("/api/queues").json().get("agents")).isEmpty();
        BoardClient.Reply again = owner.post(
                "/api/tasks/" + task.id() + "/archive",
                "{\"version\":" + reply.json().get("task").get("version").asLong() + "}",
                Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("error").asText()).isEqualTo("Task " + task.id() + " is archived already");
    }

    @Test
    void aTaskIsMovedToAnotherAgent() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        BoardClient.Reply reply = owner.post(
                "/api/tasks/" + task.id() + "/move", "{\"version\":" + task.version() + ",\"to\":\"bob\"}", Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().get("message").asText())
                .isEqualTo("Task " + task.id() + " moved from ann to bob; it is pending in bob's queue.");
        Task after = store.findTask(task.id()).orElseThrow();
        assertThat(after.assignee()).isEqualTo("bob");
        assertThat(after.previousAssignee()).isEqualTo("ann");
    }

    @Test
    void moveRefusesAMissingAgentAndACompleteTask() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());
        BoardClient.Reply noAgent =
                owner.post("/api/tasks/" + task.id() + "/move", "{\"version\":" + task.version() + "}", Map.of());
        assertThat(noAgent.status()).isEqualTo(400);
        assertThat(noAgent.json().get("parameter").asText()).isEqualTo("to");

        Task failed = deadLetter();
        BoardClient.Reply complete = owner.post(
                "/api/tasks/" + failed.id() + "/move",
                "{\"version\":" + failed.version() + ",\"to\":\"bob\"}",
                Map.of());
        assertThat(complete.status()).isEqualTo(409);
        assertThat(complete.json().get("error").asText()).contains("only a pending or running task can be moved");
    }

    @Test
    void aMoveToAnAgentNameWithHalfASurrogatePairOrANulIsRefusedAndChangesNothing() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());
        String version = "{\"version\":" + task.version() + ",\"to\":";

        BoardClient.Reply surrogate =
                owner.post("/api/tasks/" + task.id() + "/move", version + "\"bo\\ud800b\"}", Map.of());
        BoardClient.Reply nul = owner.post("/api/tasks/" + task.id() + "/move", version + "\"b\\u0000ob\"}", Map.of());

        assertThat(surrogate.status()).as(surrogate.body()).isEqualTo(400);
        assertThat(surrogate.json().get("error").asText())
                .isEqualTo("Parameter 'to' holds half of a surrogate pair (at index 2), which is not text; send whole"
                        + " characters");
        assertThat(nul.status()).as(nul.body()).isEqualTo(400);
        assertThat(nul.json().get("error").asText())
                .isEqualTo("Parameter 'to' holds a NUL character (at index 1); remove it");
        assertThat(store.findTask(task.id()).orElseThrow().assignee()).isEqualTo("ann");
    }

    @Test
    void unknownActionsTasksAndBadBodiesAreRefused() {
        Task task = queue.create(
                NewTask.builder("trip", "Book flights").assignee("ann").build());

        assertThat(owner.post("/api/tasks/" + task.id() + "/delete", "{\"version\":1}", Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(owner.post("/api/tasks/999/archive", "{\"version\":1}", Map.of())
                        .status())
                .isEqualTo(404);
        BoardClient.Reply notJson = owner.post("/api/tasks/" + task.id() + "/archive", "{version", Map.of());
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.json().get("parameter").asText()).isEqualTo("body");
        BoardClient.Reply badIfMatch =
                owner.post("/api/tasks/" + task.id() + "/archive", "{}", Map.of("If-Match", "\"x\""));
        assertThat(badIfMatch.status()).isEqualTo(400);
        assertThat(badIfMatch.json().get("parameter").asText()).isEqualTo("If-Match");
        assertThat(owner.post("/api/tasks/" + task.id() + "/archive", "x".repeat(20_000), Map.of())
                        .status())
                .isEqualTo(413);
    }

    @Test
    void theConfigTellsThePageThatActionsAreOn() {
        assertThat(owner.get("/api/config").json().get("actions").asBoolean()).isTrue();
    }

    /** A task that used its only attempt: claimed, its lease expired, reclaimed as failed. */
    private Task deadLetter() {
        Task task = queue.create(NewTask.builder("trip", "Flaky upload")
                .assignee("carl")
                .maxAttempts(1)
                .build());
        queue.claimNext("carl", Duration.ofSeconds(5));
        clock.advance(Duration.ofSeconds(6));
        queue.reclaimExpired();
        Task failed = store.findTask(task.id()).orElseThrow();
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        return failed;
    }

    private TaskDashboard proxiedBoard() {
        return TaskDashboard.builder(store)
                .bind("127.0.0.1", 0)
                .token(TOKEN)
                .actionsEnabled(true)
                .allowedOrigins("https://board.example.com")
                .build()
                .start();
    }

    /** Archives a task with a request written by hand, as a proxy forwards it; answers the status line. */
    private static String rawArchive(TaskDashboard target, String host, String headers, Task task) throws Exception {
        byte[] body = ("{\"version\":" + task.version() + "}").getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", target.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/tasks/" + task.id() + "/archive HTTP/1.1\r\nHost: " + host + "\r\n" + headers
                            + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }
}
