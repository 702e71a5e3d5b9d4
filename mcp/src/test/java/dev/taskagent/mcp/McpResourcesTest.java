package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.event.EventFeed;
import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.FeedListener;
import dev.taskagent.event.FeedSubscription;
import dev.taskagent.internal.Texts;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task resources on both revisions, through the official Java SDK's clients (the classic one for
 * 2025-11-25, the {@code modern} one for 2026-07-28) over Streamable HTTP, on a JDBC store: the templates,
 * Markdown and JSON reads, bounded texts, the not-found errors, and change notifications for a task that a
 * second store instance (as another process would) changes.
 */
class McpResourcesTest {
    private static final McpJsonMapper JSON = WireJson.mapper();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path data;

    private JdbcTaskStore store;
    private JdbcTaskStore otherProcess;
    private TaskMcpServer server;
    private McpSyncClient classic;
    private io.modelcontextprotocol.modern.client.McpSyncClient modern;
    private final List<String> classicUpdates = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (classic != null) {
            classic.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
        if (otherProcess != null) {
            otherProcess.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private TaskQueue start(String url) {
        store = JdbcTaskStore.open(url);
        otherProcess = JdbcTaskStore.open(url);
        TaskQueue queue = TaskQueue.builder(store).sessionId("board").build();
        server = TaskMcpServer.builder(queue).bind("127.0.0.1", 0).build().start();
        return queue;
    }

    private TaskQueue startOnH2() {
        return start("jdbc:h2:file:" + data.resolve("tasks").toAbsolutePath());
    }

    private McpSyncClient classicClient() {
        String base = "http://127.0.0.1:" + server.port();
        classic = McpClient.sync(HttpClientStreamableHttpTransport.builder(base)
                        .endpoint("/mcp")
                        .build())
                .requestTimeout(McpClients.TIMEOUT)
                .initializationTimeout(McpClients.TIMEOUT)
                .resourcesUpdateConsumer(contents -> contents.forEach(content -> classicUpdates.add(content.uri())))
                .build();
        classic.initialize();
        return classic;
    }

    private io.modelcontextprotocol.modern.client.McpSyncClient modernClient() {
        modern = io.modelcontextprotocol.modern.client.McpClient.sync(HttpClientMcpTransport.builder(server.endpoint())
                        .jsonMapper(JSON)
                        .build())
                .jsonMapper(JSON)
                .callTimeout(McpClients.TIMEOUT)
                .build();
        return modern;
    }

    private static Task aTaskWithComments(TaskQueue queue, int comments) {
        Task task = queue.create(
                queue.newTask("Book the flights to Lisbon").assignee("alice").build());
        for (int i = 1; i <= comments; i++) {
            queue.comment(task.id(), "bob", "Comment " + i + ": " + "the fares changed again. ".repeat(8));
        }
        return queue.get(task.id()).orElseThrow();
    }

    private static String text(McpSchema.ReadResourceResult result) {
        return ((McpSchema.TextResourceContents) result.contents().get(0)).text();
    }

    private static McpSchema.ReadResourceResult read(McpSyncClient client, String uri) {
        return client.readResource(McpSchema.ReadResourceRequest.builder(uri).build());
    }

    @Test
    void bothRevisionsDeclareResourcesWithSubscriptionsAndListTheTemplates() {
        startOnH2();
        McpSyncClient client = classicClient();
        assertThat(client.getServerCapabilities().resources().subscribe()).isTrue();
        assertThat(client.getServerCapabilities().resources().listChanged()).isFalse();
        // The SDK's classic server keeps its templates in a hash map: their order is its own.
        assertThat(client.listResourceTemplates().resourceTemplates())
                .extracting(McpSchema.ResourceTemplate::uriTemplate, McpSchema.ResourceTemplate::mimeType)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("taskagent://tasks/{task_id}", "text/markdown"),
                        org.assertj.core.groups.Tuple.tuple("taskagent://tasks/{task_id}.json", "application/json"),
                        org.assertj.core.groups.Tuple.tuple("taskagent://sessions/{session_id}/tasks", "text/markdown"),
                        org.assertj.core.groups.Tuple.tuple(
                                "taskagent://sessions/{session_id}/tasks.json", "application/json"));
        assertThat(client.listResources().resources())
                .extracting(McpSchema.Resource::uri)
                .containsExactly("taskagent://sessions/board/tasks");

        io.modelcontextprotocol.modern.client.McpSyncClient stateless = modernClient();
        io.modelcontextprotocol.modern.McpSchema.ServerCapabilities capabilities =
                stateless.discover().capabilities();
        assertThat(capabilities.resources().subscribe()).isTrue();
        assertThat(stateless.resourceTemplates().list().resourceTemplates())
                .extracting(io.modelcontextprotocol.modern.McpSchema.ResourceTemplate::uriTemplate)
                .containsExactly(
                        "taskagent://tasks/{task_id}",
                        "taskagent://tasks/{task_id}.json",
                        "taskagent://sessions/{session_id}/tasks",
                        "taskagent://sessions/{session_id}/tasks.json");
        assertThat(stateless.resources().list().resources())
                .extracting(io.modelcontextprotocol.modern.McpSchema.Resource::uri)
                .containsExactly("taskagent://sessions/board/tasks");
    }

    @Test
    void aTaskReadsAsMarkdownForAPersonAndAsTheTaskJsonModelOnBothRevisions() throws Exception {
        TaskQueue queue = startOnH2();
        Task task = aTaskWithComments(queue, 2);
        queue.link(task.id(), "https://fares.example/lis", "the fares", "bob");
        McpSyncClient client = classicClient();

        McpSchema.ReadResourceResult markdown = read(client, "taskagent://tasks/" + task.id());
        McpSchema.TextResourceContents contents =
                (McpSchema.TextResourceContents) markdown.contents().get(0);
        assertThat(contents.uri()).isEqualTo("taskagent://tasks/" + task.id());
        assertThat(contents.mimeType()).isEqualTo("text/markdown");
        assertThat(contents.text())
                .startsWith("# Task " + task.id() + ": Book the flights to Lisbon\n")
                .contains("- **Status:** pending", "- **Assignee:** alice", "- **Session:** board (position 1)")
                .contains("## Description\n\nBook the flights to Lisbon")
                .contains("## Comments\n\n- bob: Comment 1:", "- bob: Comment 2:")
                .contains("## Links\n\n- [the fares](https://fares.example/lis) by bob");

        McpSchema.ReadResourceResult json = read(client, "taskagent://tasks/" + task.id() + ".json");
        assertThat(((McpSchema.TextResourceContents) json.contents().get(0)).mimeType())
                .isEqualTo("application/json");
        JsonNode node = MAPPER.readTree(text(json));
        assertThat(node.path("id").asLong()).isEqualTo(task.id());
        assertThat(node.path("status").asText()).isEqualTo("pending");
        assertThat(node.path("assignee").asText()).isEqualTo("alice");
        assertThat(node.path("comments")).hasSize(2);

        io.modelcontextprotocol.modern.McpSchema.ReadResourceResult modernJson = modernClient()
                .resource("taskagent://tasks/" + task.id() + ".json")
                .read();
        io.modelcontextprotocol.modern.McpSchema.TextResourceContents modernContents =
                (io.modelcontextprotocol.modern.McpSchema.TextResourceContents)
                        modernJson.contents().get(0);
        assertThat(modernContents.mimeType()).isEqualTo("application/json");
        assertThat(modernContents.text()).isEqualTo(text(json));
        io.modelcontextprotocol.modern.McpSchema.TextResourceContents modernMarkdown =
                (io.modelcontextprotocol.modern.McpSchema.TextResourceContents)
                        modern.resource("taskagent://tasks/" + task.id())
                                .read()
                                .contents()
                                .get(0);
        assertThat(modernMarkdown.text()).isEqualTo(contents.text());
    }

    @Test
    void aLargeTaskIsBoundedLikeAToolResultAndSaysWhatWasCut() {
        TaskQueue queue = startOnH2();
        Task task = aTaskWithComments(queue, 60);
        McpSyncClient client = classicClient();

        String markdown = text(read(client, "taskagent://tasks/" + task.id()));

        assertThat(Texts.estimateTokens(markdown)).isLessThanOrEqualTo(Toolbox.DEFAULT_RESULT_BUDGET);
        assertThat(markdown).contains("Comment 60:").doesNotContain("Comment 1:");
        assertThat(markdown).containsPattern("## Comments \\(\\d+–60 of 60, oldest first\\)");
        assertThat(markdown).contains("_Cut to fit: comments.");
    }

    @Test
    void aSessionsTaskListReadsInOrderBoundedWithTheCountOfTheRest() throws Exception {
        TaskQueue queue = startOnH2();
        for (int i = 1; i <= 120; i++) {
            queue.create(queue.newTask("Task number " + i + " of the plan, with a description long enough to count")
                    .build());
        }
        queue.create(NewTask.builder("trip/2026", "Pack").build());
        McpSyncClient client = classicClient();

        String board = text(read(client, "taskagent://sessions/board/tasks"));
        assertThat(board).startsWith("# Tasks of session board\n\n1. **#");
        assertThat(board).contains(": Task number 1 of the plan").containsPattern("… and \\d+ more \\(120 tasks\\)");
        assertThat(Texts.estimateTokens(board)).isLessThanOrEqualTo(Toolbox.DEFAULT_RESULT_BUDGET);

        JsonNode json = MAPPER.readTree(text(read(client, "taskagent://sessions/board/tasks.json")));
        assertThat(json.path("session_id").asText()).isEqualTo("board");
        assertThat(json.path("tasks_total").asInt()).isEqualTo(120);
        assertThat(json.path("tasks").size()).isBetween(1, 119);
        assertThat(json.path("truncated").get(0).asText()).isEqualTo("tasks");

        // A session id with a slash is percent-encoded in the URI.
        assertThat(text(read(client, "taskagent://sessions/trip%2F2026/tasks")))
                .startsWith("# Tasks of session trip/2026\n\n1. **#")
                .contains("pending: Pack");
        assertThat(text(read(client, "taskagent://sessions/nobody/tasks")))
                .isEqualTo("# Tasks of session nobody\n\nNo tasks yet.\n");
    }

    @Test
    void aMissingTaskOrAnUnknownUriIsResourceNotFoundOnRevision20251125() {
        startOnH2();
        McpSyncClient client = classicClient();

        assertThatThrownBy(() -> read(client, "taskagent://tasks/999"))
                .isInstanceOfSatisfying(McpError.class, error -> {
                    assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
                    assertThat(error.getJsonRpcError().message())
                            .isEqualTo("Task 999 not found (resource 'taskagent://tasks/999'); the list of a"
                                    + " session's tasks, taskagent://sessions/{session_id}/tasks, shows their ids.");
                    assertThat(error.getJsonRpcError().data()).isEqualTo(Map.of("uri", "taskagent://tasks/999"));
                });
        assertThatThrownBy(() -> read(client, "taskagent://tasks/seven"))
                .isInstanceOfSatisfying(McpError.class, error -> {
                    assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
                    assertThat(error.getJsonRpcError().message())
                            .isEqualTo("Unknown resource 'taskagent://tasks/seven': 'seven' is not a task id (a"
                                    + " positive number), e.g. taskagent://tasks/7.");
                });
        assertThatThrownBy(() -> read(client, "taskagent://sessions/%ZZ/tasks"))
                .isInstanceOfSatisfying(McpError.class, error -> {
                    assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
                    assertThat(error.getJsonRpcError().message())
                            .startsWith("Unknown resource 'taskagent://sessions/%ZZ/tasks': the session id '%ZZ' is"
                                    + " not percent-encoded correctly");
                });
        assertThatThrownBy(() -> read(client, "test://nonexistent"))
                .isInstanceOfSatisfying(
                        McpError.class,
                        error -> assertThat(error.getJsonRpcError().code()).isEqualTo(-32002));
        // Nineteen digits above the largest id, and a session id no store keeps: not found, not a server failure.
        assertThatThrownBy(() -> read(client, "taskagent://tasks/9999999999999999999"))
                .isInstanceOfSatisfying(McpError.class, error -> {
                    assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
                    assertThat(error.getJsonRpcError().message())
                            .isEqualTo("Task 9999999999999999999 not found (resource"
                                    + " 'taskagent://tasks/9999999999999999999'): task ids are at most"
                                    + " 9223372036854775807.");
                });
        assertThatThrownBy(() -> read(client, "taskagent://sessions/%00/tasks"))
                .isInstanceOfSatisfying(McpError.class, error -> {
                    assertThat(error.getJsonRpcError().code()).isEqualTo(-32002);
                    assertThat(error.getJsonRpcError().message())
                            .startsWith("Unknown resource 'taskagent://sessions/%00/tasks': a session id is 1 to");
                });
    }

    @Test
    void aMissingTaskOrAnUnknownUriIsInvalidParamsWithTheUriOnRevision20260728() {
        startOnH2();
        io.modelcontextprotocol.modern.client.McpSyncClient client = modernClient();

        assertThatThrownBy(() -> client.resource("taskagent://tasks/999").read())
                .isInstanceOfSatisfying(McpException.class, error -> {
                    assertThat(error.error().code()).isEqualTo(-32602);
                    assertThat(error.error().message()).startsWith("Task 999 not found");
                    assertThat(error.error().data()).isEqualTo(Map.of("uri", "taskagent://tasks/999"));
                });
        assertThatThrownBy(() -> client.resource("test://nonexistent-resource").read())
                .isInstanceOfSatisfying(McpException.class, error -> {
                    assertThat(error.error().code()).isEqualTo(-32602);
                    assertThat(error.error().message())
                            .isEqualTo("Unknown resource 'test://nonexistent-resource': this server's resources are"
                                    + " taskagent://tasks/{task_id} and taskagent://sessions/{session_id}/tasks (add"
                                    + " .json for JSON); resources/templates/list lists them.");
                    assertThat(error.error().data()).isEqualTo(Map.of("uri", "test://nonexistent-resource"));
                });
    }

    @Test
    void aSubscriberOfRevision20251125IsToldWhenAnotherStoreInstanceChangesTheTaskOnH2() {
        subscriberOfRevision20251125IsToldOfChangesByAnotherStoreInstance(startOnH2());
    }

    @Test
    void aSubscriberOfRevision20251125IsToldWhenAnotherStoreInstanceChangesTheTaskOnPostgres() throws Exception {
        onServer(TestDatabase.POSTGRES);
    }

    @Test
    void aSubscriberOfRevision20251125IsToldWhenAnotherStoreInstanceChangesTheTaskOnMariaDb() throws Exception {
        onServer(TestDatabase.MARIADB);
    }

    private void onServer(TestDatabase database) throws Exception {
        assumeTrue(database.configured(), database.variable() + " is not set");
        try (TestDatabase.Own own = database.create()) {
            subscriberOfRevision20251125IsToldOfChangesByAnotherStoreInstance(start(own.url()));
            // Everything on the database stops before it is dropped.
            stop();
            store = null;
            otherProcess = null;
            server = null;
            classic = null;
        }
    }

    private void subscriberOfRevision20251125IsToldOfChangesByAnotherStoreInstance(TaskQueue queue) {
        McpSyncClient client = classicClient();
        String sessionUri = "taskagent://sessions/board/tasks.json";
        client.subscribeResource(McpSchema.SubscribeRequest.builder(sessionUri).build());
        Task watched = queue.create(queue.newTask("Watched").build());
        Task unwatched = queue.create(queue.newTask("Unwatched").build());
        Task dropped = queue.create(queue.newTask("Dropped").build());
        // The feed is followed asynchronously (polled on H2 and MariaDB): once the session's list was announced
        // for the three creations, no creation can be announced to the task subscriptions below.
        McpClients.await(
                "the creations relayed",
                Duration.ofSeconds(20),
                () -> classicUpdates.stream().filter(sessionUri::equals).count() == 3);
        String watchedUri = "taskagent://tasks/" + watched.id();
        String droppedUri = "taskagent://tasks/" + dropped.id();
        client.subscribeResource(McpSchema.SubscribeRequest.builder(watchedUri).build());
        client.subscribeResource(McpSchema.SubscribeRequest.builder(droppedUri).build());
        client.unsubscribeResource(
                McpSchema.UnsubscribeRequest.builder(droppedUri).build());
        classicUpdates.clear();

        // The second instance writes as another process would: the server hears of it through the feed only.
        TaskQueue other = TaskQueue.builder(otherProcess).sessionId("board").build();
        other.comment(dropped.id(), "carol", "Not watched any more");
        other.comment(unwatched.id(), "carol", "Nobody watches this one");
        other.update(TaskUpdate.of(watched.id()).status(TaskStatus.RUNNING).build());

        McpClients.await(
                "the update of " + watchedUri, Duration.ofSeconds(20), () -> classicUpdates.contains(watchedUri));
        McpClients.await(
                "the session list's updates",
                Duration.ofSeconds(20),
                () -> classicUpdates.stream()
                                .filter("taskagent://sessions/board/tasks.json"::equals)
                                .count()
                        == 3);
        // Feed events are relayed in order, so the dropped task's change came before the watched one's.
        assertThat(classicUpdates)
                .doesNotContain(droppedUri, "taskagent://tasks/" + unwatched.id())
                .containsOnly(watchedUri, "taskagent://sessions/board/tasks.json");
        assertThat(text(read(client, watchedUri))).contains("- **Status:** running");
    }

    @Test
    void aListenerOfRevision20260728IsToldWhenAnotherStoreInstanceChangesTheTask() {
        TaskQueue queue = startOnH2();
        Task watched = queue.create(queue.newTask("Watched").build());
        Task unwatched = queue.create(queue.newTask("Unwatched").build());
        String watchedUri = "taskagent://tasks/" + watched.id();
        List<String> updates = new CopyOnWriteArrayList<>();
        List<SubscriptionEvent> events = new CopyOnWriteArrayList<>();
        io.modelcontextprotocol.modern.client.McpSyncClient client = modernClient();

        io.modelcontextprotocol.modern.client.McpSyncClient.Listening listening = client.listen()
                .resourceUpdates(watchedUri)
                .open(event -> {
                    events.add(event);
                    if (event instanceof SubscriptionEvent.ResourceUpdated updated) {
                        updates.add(updated.uri());
                    }
                });
        try {
            McpClients.await("the acknowledgement", Duration.ofSeconds(20), () -> !events.isEmpty());
            TaskQueue other = TaskQueue.builder(otherProcess).sessionId("board").build();
            other.comment(unwatched.id(), "carol", "Nobody watches this one");
            other.comment(watched.id(), "carol", "Watched");

            McpClients.await("the update of " + watchedUri, Duration.ofSeconds(20), () -> updates.contains(watchedUri));
            assertThat(updates).containsOnly(watchedUri);
        } finally {
            listening.close();
        }
    }

    @Test
    void aStoreWithoutAnEventFeedServesTheResourcesWithoutSubscriptions() {
        InMemoryTaskStore memory = new InMemoryTaskStore();
        TaskStore feedless = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return memory.inTransaction(work);
            }
        };
        TaskQueue queue = TaskQueue.builder(feedless).build();
        Task task = queue.create(queue.newTask("Read without a feed").build());
        server = TaskMcpServer.builder(queue).bind("127.0.0.1", 0).build().start();
        McpSyncClient client = classicClient();

        assertThat(client.getServerCapabilities().resources().subscribe()).isFalse();
        assertThat(text(read(client, "taskagent://tasks/" + task.id()))).contains("Read without a feed");
        assertThat(modernClient().discover().capabilities().resources().subscribe())
                .isFalse();
    }

    @Test
    void aFeedThatCannotBeReadAtStartLeavesTheToolsAndReadsWorking() {
        InMemoryTaskStore memory = new InMemoryTaskStore();
        EventFeed broken = new EventFeed() {
            @Override
            public List<FeedEvent> read(long afterPosition, int limit) {
                throw new TaskStoreException("the database is down");
            }

            @Override
            public FeedSubscription subscribe(long afterPosition, FeedListener listener) {
                throw new TaskStoreException("the database is down");
            }

            @Override
            public long lastPosition() {
                throw new TaskStoreException("the database is down");
            }

            @Override
            public long prune(Duration olderThan) {
                throw new TaskStoreException("the database is down");
            }
        };
        TaskStore store = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return memory.inTransaction(work);
            }

            @Override
            public EventFeed eventFeed() {
                return broken;
            }
        };
        TaskQueue queue = TaskQueue.builder(store).build();
        Task task = queue.create(queue.newTask("Read with a broken feed").build());
        server = TaskMcpServer.builder(queue).bind("127.0.0.1", 0).build().start();
        McpSyncClient client = classicClient();

        assertThat(text(read(client, "taskagent://tasks/" + task.id()))).contains("Read with a broken feed");
        assertThat(McpClients.text(McpClients.call(client, "get_task", Map.of("task_id", task.id()))))
                .contains("Read with a broken feed");
    }
}
