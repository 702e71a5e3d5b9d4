package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The board API's cursors: a session's tasks, one agent's queue, the dead letters and the search continue page by
 * page from the place of the last task shown, so tasks created in between never show a task twice or skip one;
 * a cursor of another listing, a changed or cut one and an out-of-range limit are refused with 400.
 */
class DashboardPagingApiTest {
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

    @Test
    void aSessionsTasksContinueByCursorWhileTasksAreInsertedBeforeAndAfterThePage() {
        List<Long> before = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            before.add(queue.create(NewTask.of("trip", "Task " + i)).id());
        }
        IntFunction<Task> insertFirst =
                i -> store.inTransaction(tx -> tx.insertTask(NewTask.of("trip", "New " + i), 0));

        List<Long> seen = new ArrayList<>();
        JsonNode page = client.get("/api/sessions/trip/tasks?limit=3").json();
        int created = 0;
        while (true) {
            page.get("tasks").forEach(task -> seen.add(task.get("id").asLong()));
            if (page.get("next_cursor").isNull()) {
                assertThat(page.get("remaining").asLong()).isZero();
                break;
            }
            insertFirst.apply(created++);
            queue.create(NewTask.of("trip", "Appended " + created++));
            page = client.get("/api/sessions/trip/tasks?limit=3&cursor="
                            + page.get("next_cursor").asText())
                    .json();
        }

        assertThat(seen).containsExactlyElementsOf(before);
        assertThat(client.get("/api/sessions/trip/tasks?limit=1000")
                        .json()
                        .get("total")
                        .asInt())
                .isEqualTo(7 + created);
    }

    @Test
    void theSearchFindsTasksOfEverySessionAndContinuesByCursor() {
        List<Long> matching = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            matching.add(queue.create(NewTask.of(i % 2 == 0 ? "trip" : "garden", "Invoice number " + i))
                    .id());
        }
        queue.create(NewTask.of("trip", "Book flights"));

        JsonNode first = client.get("/api/search?q=INVOICE&limit=2").json();
        assertThat(first.get("words")).extracting(JsonNode::asText).containsExactly("invoice");
        assertThat(first.get("tasks")).hasSize(2);
        assertThat(first.get("remaining").asLong()).isEqualTo(3);
        List<Long> seen = new ArrayList<>();
        JsonNode page = first;
        while (true) {
            page.get("tasks").forEach(task -> seen.add(task.get("id").asLong()));
            if (page.get("next_cursor").isNull()) {
                break;
            }
            queue.create(NewTask.of("trip", "Invoice created meanwhile"));
            page = client.get("/api/search?q=INVOICE&limit=2&cursor="
                            + page.get("next_cursor").asText())
                    .json();
        }

        assertThat(seen).containsExactlyInAnyOrderElementsOf(matching);
        JsonNode inTheGarden =
                client.get("/api/search?q=invoice&session=garden").json();
        assertThat(inTheGarden.get("tasks"))
                .allSatisfy(task -> assertThat(task.get("session_id").asText()).isEqualTo("garden"))
                .hasSize(2);
        assertThat(client.get("/api/search?q=nothing+like+it").json().get("tasks"))
                .isEmpty();
    }

    @Test
    void oneAgentsQueueAndTheDeadLettersContinueByCursor() {
        for (int i = 0; i < 5; i++) {
            queue.create(NewTask.builder("trip", "Task " + i)
                    .assignee("ann")
                    .priority(i)
                    .build());
        }
        JsonNode first = client.get("/api/queues/ann?limit=2").json();
        assertThat(first.get("tasks"))
                .extracting(task -> task.get("description").asText())
                .containsExactly("Task 4", "Task 3");
        queue.create(NewTask.builder("trip", "Urgent, created between pages")
                .assignee("ann")
                .priority(9)
                .build());
        JsonNode second = client.get("/api/queues/ann?limit=2&cursor="
                        + first.get("next_cursor").asText())
                .json();
        assertThat(second.get("tasks"))
                .extracting(task -> task.get("description").asText())
                .containsExactly("Task 2", "Task 1");
        assertThat(second.get("remaining").asLong()).isEqualTo(1);

        List<Long> doomed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            doomed.add(queue.create(NewTask.builder("ops", "Flaky " + i)
                            .assignee("bob")
                            .maxAttempts(1)
                            .build())
                    .id());
        }
        for (int i = 0; i < 3; i++) {
            queue.claimNext("bob", Duration.ofSeconds(10));
        }
        clock.advance(Duration.ofSeconds(11));
        queue.reclaimExpired();
        JsonNode dead = client.get("/api/dead-letters?limit=2").json();
        assertThat(dead.get("tasks"))
                .extracting(task -> task.get("id").asLong())
                .containsExactly(doomed.get(0), doomed.get(1));
        assertThat(dead.get("limit").asInt()).isEqualTo(2);
        assertThat(dead.get("remaining").asLong()).isEqualTo(1);
        Task late = queue.create(NewTask.builder("ops", "Failed between the pages")
                .assignee("bob")
                .maxAttempts(1)
                .build());
        queue.claimNext("bob", Duration.ofSeconds(10));
        queue.retry(late.id(), "bob", 1, "Broken.");
        JsonNode rest = client.get("/api/dead-letters?limit=2&cursor="
                        + dead.get("next_cursor").asText())
                .json();
        assertThat(rest.get("tasks"))
                .extracting(task -> task.get("id").asLong())
                .containsExactly(doomed.get(2));
        assertThat(rest.get("remaining").asLong()).isZero();
        assertThat(rest.get("next_cursor").isNull()).isTrue();
        assertThat(client.get("/api/dead-letters").json().get("tasks"))
                .extracting(task -> task.get("id").asLong())
                .containsExactly(doomed.get(0), doomed.get(1), doomed.get(2), late.id());
    }

    @Test
    void theDeadLettersPageAtMostAsManyAsTheQueueListsAndTheRestFollowByCursor() {
        int count = TaskQueue.MAX_DEAD_LETTER_LIMIT + 5;
        List<Long> doomed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Task task = queue.create(NewTask.builder("ops", "Doomed " + i)
                    .assignee("bob")
                    .maxAttempts(1)
                    .build());
            queue.claimNext("bob", Duration.ofMinutes(1));
            queue.complete(task.id(), "bob", 1, TaskStatus.FAILED, "Out of attempts.");
            doomed.add(task.id());
        }

        JsonNode first = client.get("/api/dead-letters").json();
        JsonNode widest = client.get("/api/dead-letters?limit=" + TaskQueue.MAX_DEAD_LETTER_LIMIT)
                .json();
        BoardClient.Reply tooMany = client.get("/api/dead-letters?limit=" + (TaskQueue.MAX_DEAD_LETTER_LIMIT + 1));

        assertThat(first.get("limit").asInt()).isEqualTo(TaskQueue.MAX_DEAD_LETTER_LIMIT);
        assertThat(first.get("tasks")).hasSize(TaskQueue.MAX_DEAD_LETTER_LIMIT);
        assertThat(first.get("remaining").asLong()).isEqualTo(5);
        assertThat(widest.get("tasks")).hasSize(TaskQueue.MAX_DEAD_LETTER_LIMIT);
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.json().get("parameter").asText()).isEqualTo("limit");
        assertThat(tooMany.json().get("error").asText())
                .startsWith("Parameter 'limit' must be a whole number from 1 to " + TaskQueue.MAX_DEAD_LETTER_LIMIT);
        List<Long> seen = new ArrayList<>();
        first.get("tasks").forEach(task -> seen.add(task.get("id").asLong()));
        JsonNode rest = client.get(
                        "/api/dead-letters?cursor=" + first.get("next_cursor").asText())
                .json();
        rest.get("tasks").forEach(task -> seen.add(task.get("id").asLong()));
        assertThat(rest.get("next_cursor").isNull()).isTrue();
        assertThat(seen).containsExactlyElementsOf(doomed);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/sessions/trip/tasks?limit=1&cursor={garden} | cursor | The cursor belongs to another listing",
                "/api/sessions/trip/tasks?limit=1&status=pending&cursor={trip} | cursor | The cursor belongs to"
                        + " another listing",
                "/api/sessions/trip/tasks?limit=1&cursor={cut} | cursor | The cursor cannot be used",
                "/api/sessions/trip/tasks?offset=1&cursor={trip} | cursor | Give offset or cursor, not both",
                "/api/sessions/trip/tasks?limit=1000000000 | limit | Parameter 'limit' must be a whole number from 1 to"
                        + " 1000",
                "/api/queues/ann?cursor={trip} | cursor | The cursor cannot be used",
                "/api/queues/ann?limit=0 | limit | Parameter 'limit' must be a whole number from 1 to 100",
                "/api/queues/ann?limit=101 | limit | Parameter 'limit' must be a whole number from 1 to 100",
                "/api/dead-letters?cursor={trip} | cursor | The cursor belongs to another listing",
                "/api/dead-letters?limit=0 | limit | Parameter 'limit' must be a whole number from 1 to 100",
                "/api/dead-letters?limit=101 | limit | Parameter 'limit' must be a whole number from 1 to 100",
                "/api/dead-letters?cursor={cut} | cursor | The cursor cannot be used",
                "/api/search?q=flights&cursor={trip} | cursor | The cursor cannot be used",
                "/api/search?q=%26%26%7C%7C | q | Parameter 'q': query text holds no word",
                "/api/search | q | Give the words to find as q",
                "/api/search?q=flights&limit=1000000000 | limit | Parameter 'limit' must be a whole number from 1 to"
                        + " 100",
                "/api/search?q=flights&archived=maybe | archived | Parameter 'archived' must be true or false",
                "/api/search?q=flights&status=done | status | Parameter 'status' must be one or more of",
            })
    void badCursorsAndLimitsAreRefusedWith400NamingTheParameter(String path, String parameter, String message) {
        for (int i = 0; i < 3; i++) {
            queue.create(
                    NewTask.builder("trip", "Book flights " + i).assignee("ann").build());
            queue.create(NewTask.of("garden", "Water the roses " + i));
        }
        String trip = client.get("/api/sessions/trip/tasks?limit=1")
                .json()
                .get("next_cursor")
                .asText();
        String garden = client.get("/api/sessions/garden/tasks?limit=1")
                .json()
                .get("next_cursor")
                .asText();

        BoardClient.Reply reply = client.get(path.replace("{trip}", trip)
                .replace("{garden}", garden)
                .replace("{cut}", URLEncoder.encode(trip.substring(0, trip.length() - 3), StandardCharsets.UTF_8)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("parameter").asText()).isEqualTo(parameter);
        assertThat(reply.json().get("error").asText()).startsWith(message);
    }
}
