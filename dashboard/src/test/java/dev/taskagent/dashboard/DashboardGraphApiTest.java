package dev.taskagent.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import dev.taskagent.testkit.MutableClock;
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

/**
 * The work graph through the board's API: each card's blockers, dependants, children and parent as
 * references, the tag and readiness filters, a task's related tasks a page at a time, the graph's events on
 * the stream, and a store without the work graph, which still serves the board.
 */
class DashboardGraphApiTest {
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

    /**
     * Creates a task through the queue. The spec names its own maxAttempts: TaskQueue.create rebuilds a spec
     * without one, and that rebuild drops its parent, blockers, tags and metadata (a core bug, reported).
     */
    private Task create(NewTask.Builder spec) {
        return queue.create(spec.maxAttempts(3).build());
    }

    /** build ← test ← deploy, and a release with two subtasks (one done); tagged. */
    private record Plan(Task build, Task test, Task deploy, Task release, Task notes, Task announce) {}

    private Plan plan() {
        Task build =
                create(NewTask.builder("ship", "Build the image").assignee("ci").tags("backend", "ci"));
        Task test = create(NewTask.builder("ship", "Run the integration tests")
                .assignee("ci")
                .blockedBy(build.id())
                .tags("backend"));
        Task deploy = create(NewTask.builder("ship", "Deploy to staging")
                .assignee("ops")
                .blockedBy(test.id())
                .tags("ops"));
        Task release = create(NewTask.builder("ship", "Release 2.0").assignee("ops"));
        Task notes = create(NewTask.builder("ship", "Write the release notes")
                .assignee("writer")
                .parent(release.id())
                .tags("docs"));
        Task announce =
                create(NewTask.builder("ship", "Announce it").assignee("writer").parent(release.id()));
        queue.update(TaskUpdate.of(notes.id()).status(TaskStatus.SUCCESS).build());
        return new Plan(build, test, deploy, release, notes, announce);
    }

    private JsonNode card(String path, long id) {
        BoardClient.Reply reply = client.get(path);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        for (JsonNode card : reply.json().get("tasks")) {
            if (card.get("id").asLong() == id) {
                return card;
            }
        }
        throw new AssertionError("No card " + id + " in " + reply.body());
    }

    private static List<Long> ids(JsonNode references) {
        List<Long> ids = new ArrayList<>();
        references.forEach(reference -> ids.add(reference.get("id").asLong()));
        return ids;
    }

    @Test
    void aCardNamesItsBlockersDependantsChildrenAndParentWithTheirStatus() {
        Plan plan = plan();

        BoardClient.Reply reply = client.get("/api/sessions/ship/tasks");
        JsonNode test = card("/api/sessions/ship/tasks", plan.test().id());
        JsonNode release = card("/api/sessions/ship/tasks", plan.release().id());
        JsonNode notes = card("/api/sessions/ship/tasks", plan.notes().id());

        assertThat(reply.json().get("graph_complete").asBoolean()).isTrue();
        assertThat(test.get("blocked_by"))
                .extracting(JsonNode::asLong)
                .containsExactly(plan.build().id());
        assertThat(test.get("open_blockers").asInt()).isEqualTo(1);
        assertThat(test.get("ready").asBoolean()).isFalse();
        assertThat(ids(test.get("blockers"))).containsExactly(plan.build().id());
        JsonNode blocker = test.get("blockers").get(0);
        assertThat(blocker.get("description").asText()).isEqualTo("Build the image");
        assertThat(blocker.get("status").asText()).isEqualTo("pending");
        assertThat(blocker.get("session_id").asText()).isEqualTo("ship");
        assertThat(test.get("failed_blockers")).isEmpty();
        assertThat(ids(test.get("dependants"))).containsExactly(plan.deploy().id());
        assertThat(test.get("dependants_total").asInt()).isEqualTo(1);
        assertThat(test.get("tags")).extracting(JsonNode::asText).containsExactly("backend");
        assertThat(test.get("children_total").asInt()).isZero();
        assertThat(test.get("parent").isNull()).isTrue();

        assertThat(release.get("children_total").asInt()).isEqualTo(2);
        assertThat(release.get("children_done").asInt()).isEqualTo(1);
        assertThat(ids(release.get("children")))
                .containsExactly(plan.notes().id(), plan.announce().id());
        assertThat(notes.get("parent_id").asLong()).isEqualTo(plan.release().id());
        assertThat(notes.get("parent").get("description").asText()).isEqualTo("Release 2.0");
        assertThat(card("/api/sessions/ship/tasks", plan.build().id())
                        .get("ready")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void aFailedBlockerIsNamedAndKeepsItsDependantBlocked() {
        Plan plan = plan();
        Task claimed = queue.claimNext("ci", Duration.ofMinutes(5)).orElseThrow();
        assertThat(claimed.id()).isEqualTo(plan.build().id());
        queue.complete(claimed.id(), "ci", claimed.attempt(), TaskStatus.FAILED, "the registry is down");

        JsonNode test = card("/api/sessions/ship/tasks", plan.test().id());

        assertThat(test.get("open_blockers").asInt()).isEqualTo(1);
        assertThat(test.get("failed_blockers"))
                .extracting(JsonNode::asLong)
                .containsExactly(plan.build().id());
        assertThat(test.get("blockers").get(0).get("status").asText()).isEqualTo("failed");
    }

    @Test
    void aBlockerThatSucceedsUnblocksItsDependantOnTheNextRead() {
        Plan plan = plan();
        queue.update(TaskUpdate.of(plan.build().id()).status(TaskStatus.SUCCESS).build());

        JsonNode test = card("/api/sessions/ship/tasks", plan.test().id());

        assertThat(test.get("open_blockers").asInt()).isZero();
        assertThat(test.get("ready").asBoolean()).isTrue();
        assertThat(test.get("blockers").get(0).get("status").asText()).isEqualTo("success");
        assertThat(descriptions("/api/sessions/ship/tasks?readiness=ready"))
                .contains("Run the integration tests")
                .doesNotContain("Deploy to staging", "Build the image");
    }

    @Test
    void tagAndReadinessFilterAndCombineWithTheOtherFilters() {
        plan();

        assertThat(descriptions("/api/sessions/ship/tasks?tag=backend"))
                .containsExactly("Build the image", "Run the integration tests");
        assertThat(descriptions("/api/sessions/ship/tasks?readiness=blocked"))
                .containsExactly("Run the integration tests", "Deploy to staging");
        assertThat(descriptions("/api/sessions/ship/tasks?readiness=ready"))
                .containsExactly("Build the image", "Release 2.0", "Announce it");
        assertThat(descriptions("/api/sessions/ship/tasks?tag=backend&readiness=ready"))
                .containsExactly("Build the image");
        assertThat(descriptions("/api/sessions/ship/tasks?tag=backend&readiness=blocked&assignee=ci&status=pending"))
                .containsExactly("Run the integration tests");
        assertThat(descriptions("/api/sessions/ship/tasks?tag=docs&status=success"))
                .containsExactly("Write the release notes");
        assertThat(descriptions("/api/sessions/ship/tasks?tag=nothing")).isEmpty();
        JsonNode counted =
                client.get("/api/sessions/ship/tasks?readiness=blocked&limit=1").json();
        assertThat(counted.get("total").asInt()).isEqualTo(2);
        assertThat(counted.get("session_total").asInt()).isEqualTo(6);
    }

    @Test
    void aTasksBlockersDependantsAndChildrenAreListedAPageAtATime() {
        Plan plan = plan();

        JsonNode blockers =
                client.get("/api/tasks/" + plan.test().id() + "/blockers").json();
        JsonNode dependants =
                client.get("/api/tasks/" + plan.build().id() + "/dependants").json();
        JsonNode children =
                client.get("/api/tasks/" + plan.release().id() + "/children").json();
        JsonNode secondChild = client.get("/api/tasks/" + plan.release().id() + "/children?offset=1&limit=1")
                .json();

        assertThat(blockers.get("relation").asText()).isEqualTo("blockers");
        assertThat(ids(blockers.get("tasks"))).containsExactly(plan.build().id());
        assertThat(blockers.get("open").asInt()).isEqualTo(1);
        assertThat(ids(dependants.get("tasks"))).containsExactly(plan.test().id());
        assertThat(dependants.get("total").asInt()).isEqualTo(1);
        assertThat(dependants.get("position").asLong())
                .isEqualTo(store.eventFeed().lastPosition());
        assertThat(ids(children.get("tasks")))
                .containsExactly(plan.notes().id(), plan.announce().id());
        assertThat(children.get("done").asInt()).isEqualTo(1);
        assertThat(children.get("tasks").get(0).get("status").asText()).isEqualTo("success");
        assertThat(ids(secondChild.get("tasks")))
                .containsExactly(plan.announce().id());
        assertThat(secondChild.get("total").asInt()).isEqualTo(2);
        assertThat(client.get("/api/tasks/" + plan.deploy().id() + "/dependants")
                        .json()
                        .get("tasks"))
                .isEmpty();
        assertThat(client.get("/api/tasks/999/dependants").status()).isEqualTo(404);
        assertThat(client.get("/api/tasks/" + plan.build().id() + "/parents").status())
                .isEqualTo(404);
    }

    @Test
    void oneTaskAskedForByIdCarriesTheGraphToo() {
        Plan plan = plan();

        JsonNode test = client.get("/api/tasks/" + plan.test().id()).json();

        assertThat(ids(test.get("blockers"))).containsExactly(plan.build().id());
        assertThat(ids(test.get("dependants"))).containsExactly(plan.deploy().id());
    }

    @Test
    void referencesReachIntoOtherSessions() {
        Task schema = create(NewTask.builder("db", "Migrate the schema"));
        Task app = create(NewTask.builder("app", "Ship the app").blockedBy(schema.id()));

        JsonNode appCard = card("/api/sessions/app/tasks", app.id());
        JsonNode schemaCard = card("/api/sessions/db/tasks", schema.id());

        assertThat(appCard.get("blockers").get(0).get("session_id").asText()).isEqualTo("db");
        assertThat(schemaCard.get("dependants").get(0).get("session_id").asText())
                .isEqualTo("app");
    }

    @Test
    void theListsOnACardAreBoundedWithTheirTotalsBeside() {
        Task base = create(NewTask.builder("wide", "The base everything waits for"));
        IntStream.rangeClosed(1, 60)
                .forEach(i -> create(NewTask.builder("wide", "waits " + i).blockedBy(base.id())));
        String longText = "x".repeat(500);
        Task longParent = create(NewTask.builder("wide", longText));
        Task child = create(NewTask.builder("wide", "child").parent(longParent.id()));

        JsonNode baseCard = card("/api/sessions/wide/tasks", base.id());
        JsonNode childCard = card("/api/sessions/wide/tasks", child.id());

        assertThat(baseCard.get("dependants")).hasSize(CardGraph.MAX_RELATED);
        assertThat(baseCard.get("dependants_total").asInt()).isEqualTo(60);
        assertThat(childCard.get("parent").get("description").asText())
                .hasSize(CardGraph.REFERENCE_CHARS)
                .endsWith("\u2026");
        JsonNode all =
                client.get("/api/tasks/" + base.id() + "/dependants?limit=1000").json();
        assertThat(all.get("tasks")).hasSize(60);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/sessions/ship/tasks?readiness=soon | readiness",
                "/api/sessions/ship/tasks?tag={long} | tag",
                "/api/sessions/ship/tasks?tag=a&tag=b | tag",
                "/api/tasks/1/dependants?limit=0 | limit",
                "/api/tasks/1/children?offset=-1 | offset",
                "/api/tasks/1/blockers?colour=red | colour",
                "/api/tasks/1/children?tag=ops | tag",
                "/api/tasks/abc/children | id",
                "/api/tasks/0/dependants | id",
            })
    void badGraphParametersAreRefusedWith400NamingTheParameter(String path, String parameter) {
        plan();

        BoardClient.Reply reply = client.get(path.replace("{long}", "t".repeat(Task.MAX_TAG_LENGTH + 1)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("parameter").asText()).isEqualTo(parameter);
        assertThat(reply.json().get("error").asText()).contains(parameter);
    }

    @Test
    void badGraphParameterMessagesSayWhatIsExpected() {
        plan();

        assertThat(client.get("/api/sessions/ship/tasks?readiness=soon")
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo("Parameter 'readiness' must be ready (pending, not archived, nothing open to wait for)"
                        + " or blocked (waiting for a task that has not succeeded); was 'soon'");
        assertThat(client.get("/api/sessions/ship/tasks?tag=" + "t".repeat(65))
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo("Parameter 'tag' is 65 characters long; the limit is 64");
    }

    @Test
    void theGraphsChangesReachTheEventStream() throws Exception {
        Plan plan = plan();
        try (EventClient events = new EventClient(client, Map.of())) {
            assertThat(events.status(Duration.ofSeconds(10))).isEqualTo(200);

            store.inTransaction(
                    tx -> tx.addDependency(plan.release().id(), plan.deploy().id()));
            EventClient.Event added = events.next(Duration.ofSeconds(10));
            queue.update(
                    TaskUpdate.of(plan.build().id()).status(TaskStatus.SUCCESS).build());
            List<String> kinds = new ArrayList<>();
            List<Long> taskIds = new ArrayList<>();
            while (!kinds.contains("unblocked") && kinds.size() < 10) {
                EventClient.Event event = events.next(Duration.ofSeconds(10));
                assertThat(event).as("events so far: " + kinds).isNotNull();
                kinds.add(event.data().get("kind").asText());
                taskIds.add(event.data().get("task_id").asLong());
            }

            assertThat(added.data().get("kind").asText()).isEqualTo("dependency_added");
            assertThat(added.data().get("task_id").asLong())
                    .isEqualTo(plan.release().id());
            assertThat(added.data().get("payload").get("blocker_id").asLong())
                    .isEqualTo(plan.deploy().id());
            assertThat(kinds).contains("unblocked");
            assertThat(taskIds.get(kinds.indexOf("unblocked")))
                    .isEqualTo(plan.test().id());
        }
    }

    @Test
    void aStoreWithoutTheWorkGraphStillServesTheBoardFromTheSessionsOwnTasks() {
        Plan plan = plan();
        TaskStore older = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                // As a store without the work graph: the defaults of TaskTransaction throw.
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public List<Task> listDependants(long taskId) {
                        throw new UnsupportedOperationException("OlderStore does not implement listDependants");
                    }

                    @Override
                    public List<Task> listChildren(long parentId) {
                        throw new UnsupportedOperationException("OlderStore does not implement listChildren");
                    }
                }));
            }
        };
        try (TaskDashboard olderBoard =
                TaskDashboard.builder(older).bind("127.0.0.1", 0).build().start()) {
            BoardClient olderClient = new BoardClient(olderBoard);

            BoardClient.Reply tasks = olderClient.get("/api/sessions/ship/tasks");
            BoardClient.Reply one = olderClient.get("/api/tasks/" + plan.build().id());
            BoardClient.Reply dependants =
                    olderClient.get("/api/tasks/" + plan.build().id() + "/dependants");
            BoardClient.Reply children =
                    olderClient.get("/api/tasks/" + plan.release().id() + "/children");
            BoardClient.Reply blockers =
                    olderClient.get("/api/tasks/" + plan.test().id() + "/blockers");

            assertThat(tasks.status()).as(tasks.body()).isEqualTo(200);
            assertThat(tasks.json().get("graph_complete").asBoolean()).isFalse();
            JsonNode build = tasks.json().get("tasks").get(0);
            assertThat(ids(build.get("dependants"))).containsExactly(plan.test().id());
            JsonNode release = tasks.json().get("tasks").get(3);
            assertThat(release.get("children_total").asInt()).isEqualTo(2);
            assertThat(release.get("children_done").asInt()).isEqualTo(1);
            assertThat(one.status()).isEqualTo(200);
            assertThat(ids(one.json().get("dependants")))
                    .containsExactly(plan.test().id());
            assertThat(dependants.status()).isEqualTo(501);
            assertThat(dependants.json().get("error").asText())
                    .startsWith("This store does not keep the work graph, so it cannot list a task's dependants")
                    .doesNotContain("Exception", "OlderStore");
            assertThat(children.status()).isEqualTo(501);
            assertThat(blockers.status()).isEqualTo(200);
            assertThat(ids(blockers.json().get("tasks")))
                    .containsExactly(plan.build().id());
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
}
