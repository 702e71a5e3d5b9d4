package dev.taskagent.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.dashboard.TaskDashboard;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.llm.openai.OpenAiChatModel;
import dev.taskagent.queue.Backoff;
import dev.taskagent.queue.TaskHandler;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Every condition of the auto-configuration, with the beans a user would notice. */
@ExtendWith(OutputCaptureExtension.class)
class TaskAgentAutoConfigurationTest {

    static final AutoConfigurations TASKAGENT = AutoConfigurations.of(
            TaskAgentStoreAutoConfiguration.class,
            TaskAgentSpringAiAutoConfiguration.class,
            TaskAgentOpenAiAutoConfiguration.class,
            TaskAgentObservationAutoConfiguration.class,
            TaskAgentAutoConfiguration.class,
            TaskAgentLifecycleAutoConfiguration.class,
            TaskAgentWorkerAutoConfiguration.class,
            TaskAgentMcpAutoConfiguration.class,
            TaskAgentDashboardAutoConfiguration.class,
            TaskAgentHealthAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(TASKAGENT);

    private final ApplicationContextRunner withH2 = runner.withConfiguration(
                    AutoConfigurations.of(DataSourceAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");

    @Test
    void withoutADataSourceTheTasksLiveInMemoryAndTheLogSaysNothingIsPersisted(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TaskStore.class);
            assertThat(context.getBean(TaskStore.class)).isInstanceOf(InMemoryTaskStore.class);
            assertThat(context).hasSingleBean(TaskQueue.class).hasSingleBean(LeaseReaperLifecycle.class);
        });
        assertThat(output).contains("taskagent keeps its tasks in memory: nothing is persisted");
    }

    @Test
    void withADataSourceTheTasksLiveInItsDatabase() {
        withH2.run(context -> {
            assertThat(context.getBean(TaskStore.class)).isInstanceOf(JdbcTaskStore.class);
            TaskQueue queue = context.getBean(TaskQueue.class);
            Task created =
                    queue.create(queue.newTask("persisted").assignee("alice").build());
            assertThat(((JdbcTaskStore) context.getBean(TaskStore.class)).findTask(created.id()))
                    .isPresent();
        });
    }

    @Test
    void storeTypeInMemoryIgnoresTheDataSourceWithoutAWarning(CapturedOutput output) {
        withH2.withPropertyValues("taskagent.store.type=in-memory")
                .run(context -> assertThat(context.getBean(TaskStore.class)).isInstanceOf(InMemoryTaskStore.class));
        assertThat(output).doesNotContain("nothing is persisted");
    }

    @Test
    void storeTypeJdbcWithoutADataSourceFailsNamingTheProperty() {
        runner.withPropertyValues("taskagent.store.type=jdbc").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageStartingWith(
                            "taskagent.store.type is jdbc, but the application has no single" + " DataSource bean");
        });
    }

    @Test
    void theApplicationsOwnBeansWin() {
        InMemoryTaskStore store = new InMemoryTaskStore();
        ScriptedChatModel model = ScriptedChatModel.builder().build();
        withH2.withBean(TaskStore.class, () -> store)
                .withBean(ChatModel.class, () -> model)
                .withPropertyValues("taskagent.openai.api-key=sk-test")
                .run(context -> {
                    assertThat(context.getBean(TaskStore.class)).isSameAs(store);
                    assertThat(context.getBean(ChatModel.class)).isSameAs(model);
                    assertThat(context).doesNotHaveBean(OpenAiChatModel.class);
                    assertThat(context.getBean(TaskQueue.class).store()).isSameAs(store);
                });
        TaskQueue ownQueue = TaskQueue.builder(store).build();
        runner.withBean(TaskQueue.class, () -> ownQueue)
                .run(context -> assertThat(context.getBean(TaskQueue.class)).isSameAs(ownQueue));
    }

    @Test
    void theOpenAiModelIsMadeFromTheProperties() {
        runner.withPropertyValues(
                        "taskagent.openai.api-key=sk-test",
                        "taskagent.openai.base-url=http://127.0.0.1:9/v1",
                        "taskagent.openai.model=llama3.2")
                .run(context -> {
                    OpenAiChatModel model = context.getBean(OpenAiChatModel.class);
                    assertThat(model.modelName()).isEqualTo("llama3.2");
                    assertThat(model.baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
                    assertThat(context).hasSingleBean(TaskAgent.class).hasSingleBean(StepExecutor.class);
                });
    }

    @Test
    void withoutAModelTheQueueRunsButNeitherTheAgentNorTheExecutorIsMade() {
        runner.run(context -> assertThat(context)
                .hasSingleBean(TaskQueue.class)
                .doesNotHaveBean(ChatModel.class)
                .doesNotHaveBean(TaskAgent.class)
                .doesNotHaveBean(StepExecutor.class));
        runner.withPropertyValues("taskagent.openai.api-key=sk-test", "taskagent.openai.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ChatModel.class));
    }

    @Test
    void eachBeanCanBeSwitchedOff() {
        ApplicationContextRunner withModel = runner.withBean(
                ChatModel.class, () -> ScriptedChatModel.builder().build());
        withModel.withPropertyValues("taskagent.agent.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TaskAgent.class)
                .hasSingleBean(StepExecutor.class));
        withModel.withPropertyValues("taskagent.steps.enabled=false").run(context -> assertThat(context)
                .hasSingleBean(TaskAgent.class)
                .doesNotHaveBean(StepExecutor.class));
        withModel.withPropertyValues("taskagent.reaper.enabled=false").run(context -> assertThat(context)
                .hasSingleBean(TaskQueue.class)
                .doesNotHaveBean(LeaseReaperLifecycle.class));
        withModel.withPropertyValues("taskagent.queue.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TaskQueue.class)
                .doesNotHaveBean(LeaseReaperLifecycle.class));
        withModel.withPropertyValues("taskagent.store.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TaskStore.class)
                .doesNotHaveBean(TaskQueue.class)
                .doesNotHaveBean(TaskAgent.class));
    }

    @Test
    void aSpringAiChatModelBeanBecomesTheModelOfTheAgentAndTheStepExecutor() {
        List<String> asked = new CopyOnWriteArrayList<>();
        org.springframework.ai.chat.model.ChatModel springAi = prompt -> {
            asked.add(prompt.getUserMessage().getText());
            return new org.springframework.ai.chat.model.ChatResponse(
                    List.of(new org.springframework.ai.chat.model.Generation(
                            new org.springframework.ai.chat.messages.AssistantMessage("Noted."))));
        };
        runner.withBean(org.springframework.ai.chat.model.ChatModel.class, () -> springAi)
                .withPropertyValues("taskagent.openai.api-key=sk-not-used")
                .run(context -> {
                    assertThat(context).hasSingleBean(ChatModel.class);
                    assertThat(context.getBean(ChatModel.class))
                            .as("the Spring AI model comes before the OpenAI adapter")
                            .isInstanceOf(dev.taskagent.spring.ai.SpringAiChatModel.class);
                    assertThat(context).hasSingleBean(TaskAgent.class).hasSingleBean(StepExecutor.class);
                    ChatResponse answer = context.getBean(ChatModel.class)
                            .chat(ChatRequest.of(
                                    "You track tasks.", List.of(new UserMessage("Book a table")), List.of()));
                    assertThat(answer.text()).isEqualTo("Noted.");
                });
        assertThat(asked).containsExactly("Book a table");
        runner.withBean(org.springframework.ai.chat.model.ChatModel.class, () -> springAi)
                .withPropertyValues("taskagent.spring-ai.enabled=false")
                .run(context ->
                        assertThat(context).doesNotHaveBean(ChatModel.class).doesNotHaveBean(TaskAgent.class));
    }

    @Test
    void everyListenerBeanHearsTheQueueAndTheAgent() {
        List<TaskEvent> heard = new CopyOnWriteArrayList<>();
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call(
                        "insert_task", "{\"after_task_order\": 0, \"task_description\": \"Add dark mode\"}")))
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
        runner.withBean(TaskListener.class, () -> heard::add)
                .withBean(ChatModel.class, () -> model)
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    queue.create(
                            queue.newTask("Review the fix").assignee("alice").build());
                    AgentRun run = context.getBean(TaskAgent.class)
                            .run("s1", List.of(ConversationMessage.user("m1", "Please add dark mode")));
                    assertThat(run.isSuccess()).as(run.toString()).isTrue();
                });
        assertThat(heard)
                .extracting(event -> event.task().description())
                .containsExactly("Review the fix", "Add dark mode");
    }

    @Test
    void theQueueBacksOffAsThePropertiesOrABackoffBeanSay() {
        runner.withPropertyValues("taskagent.queue.backoff-first=2h", "taskagent.queue.backoff-max=2h")
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    Task task =
                            queue.create(queue.newTask("flaky").assignee("bob").build());
                    queue.claimNext("bob").orElseThrow();
                    Task retried = queue.retry(task.id(), "bob", 1, "It broke.");
                    assertThat(retried.notBefore()).isAfter(Instant.now().plus(Duration.ofMinutes(89)));
                    assertThat(queue.claimNext("bob")).isEmpty();
                });
        runner.withPropertyValues("taskagent.queue.backoff-first=0")
                .withBean(Backoff.class, () -> Backoff.fixed(Duration.ofMinutes(5)))
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    Task task =
                            queue.create(queue.newTask("flaky").assignee("bob").build());
                    queue.claimNext("bob").orElseThrow();
                    assertThat(queue.retry(task.id(), "bob", 1, "It broke.").comments())
                            .last()
                            .satisfies(comment -> assertThat(comment.text()).endsWith("waits 5 min."));
                });
        runner.withPropertyValues("taskagent.queue.backoff-first=0").run(context -> {
            TaskQueue queue = context.getBean(TaskQueue.class);
            Task task = queue.create(queue.newTask("flaky").assignee("bob").build());
            queue.claimNext("bob").orElseThrow();
            assertThat(queue.retry(task.id(), "bob", 1, "It broke.").notBefore())
                    .isNull();
            assertThat(queue.claimNext("bob")).isPresent();
        });
    }

    @Test
    void theReaperRunsWithTheContextAndTakesBackExpiredClaims() {
        LeaseReaperLifecycle[] reaper = new LeaseReaperLifecycle[1];
        runner.withPropertyValues("taskagent.queue.lease-duration=50ms", "taskagent.reaper.reclaim-interval=20ms")
                .run(context -> {
                    reaper[0] = context.getBean(LeaseReaperLifecycle.class);
                    assertThat(reaper[0].isRunning()).isTrue();
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    Task task = queue.create(
                            queue.newTask("abandoned").assignee("bob").build());
                    assertThat(queue.claimNext("bob")).isPresent();
                    waitFor(() ->
                            queue.store().findTask(task.id()).orElseThrow().status() == TaskStatus.PENDING);
                });
        assertThat(reaper[0].isRunning()).isFalse();
    }

    @Test
    void theMcpServerServesTheDialectToolsetsAndNamesAnUnknownOne() {
        runner.withPropertyValues(
                        "taskagent.mcp.enabled=true",
                        "taskagent.mcp.port=0",
                        "taskagent.mcp.toolsets=queue,graph,todo,claude-tasks")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(McpServerLifecycle.class).isRunning())
                            .isTrue();
                });
        runner.withPropertyValues("taskagent.mcp.enabled=true", "taskagent.mcp.port=0", "taskagent.mcp.toolsets=admin")
                .run(
                        context -> assertThat(context)
                                .getFailure()
                                .rootCause()
                                .hasMessageContaining(
                                        "taskagent.mcp.toolsets has 'admin'; use queue, worker, tasks, graph, todo, claude-tasks"));
    }

    @Test
    void aTaskHandlerBeanIsRunByAWorkerWhileTheContextRuns() {
        List<String> handled = new CopyOnWriteArrayList<>();
        TaskWorkerLifecycle[] worker = new TaskWorkerLifecycle[1];
        runner.withBean(TaskHandler.class, () -> task -> handled.add(task.description()))
                .withPropertyValues(
                        "taskagent.worker.agent=mailer",
                        "taskagent.worker.concurrency=2",
                        "taskagent.worker.poll-interval=50ms")
                .run(context -> {
                    worker[0] = context.getBean(TaskWorkerLifecycle.class);
                    assertThat(worker[0].isRunning()).isTrue();
                    assertThat(worker[0].agent()).isEqualTo("mailer");
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    Task task = queue.create(queue.newTask("Send the welcome mail")
                            .assignee("mailer")
                            .build());
                    waitFor(() -> queue.get(task.id()).orElseThrow().status() == TaskStatus.SUCCESS);
                    assertThat(worker[0].handledCount()).isEqualTo(1);
                });
        assertThat(handled).containsExactly("Send the welcome mail");
        assertThat(worker[0].isRunning()).as("stopped with the context").isFalse();
    }

    @Test
    void aWorkerNeedsItsAgentAndSaneSettingsAndStepsAsideWhenSwitchedOff() {
        ApplicationContextRunner withHandler = runner.withBean(TaskHandler.class, () -> task -> {});
        withHandler.run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("set taskagent.worker.agent"));
        withHandler
                .withPropertyValues("taskagent.worker.agent=mailer", "taskagent.worker.concurrency=0")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("taskagent.worker.concurrency must be between 1 and 1024, was 0"));
        withHandler
                .withPropertyValues("taskagent.worker.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TaskWorkerLifecycle.class));
        runner.withPropertyValues("taskagent.worker.agent=mailer")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TaskWorkerLifecycle.class));
    }

    @Test
    void theMcpServerIsOffUnlessEnabledAndThenListensWhileTheContextRuns() throws Exception {
        runner.run(context -> assertThat(context).doesNotHaveBean(McpServerLifecycle.class));
        URI[] endpoint = new URI[1];
        runner.withPropertyValues("taskagent.mcp.enabled=true", "taskagent.mcp.port=0")
                .run(context -> {
                    endpoint[0] = context.getBean(McpServerLifecycle.class).endpoint();
                    assertThat(get(endpoint[0]).statusCode()).isBetween(200, 499);
                });
        assertThatThrownBy(() -> get(endpoint[0])).isInstanceOf(ConnectException.class);
    }

    @Test
    void anOpenTelemetryBeanReceivesTheMcpServersSpans() {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .build()) {
            runner.withBean(OpenTelemetry.class, () -> openTelemetry)
                    .withPropertyValues("taskagent.mcp.enabled=true", "taskagent.mcp.port=0")
                    .run(context -> {
                        URI endpoint = context.getBean(McpServerLifecycle.class).endpoint();
                        try (McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(
                                                endpoint.getScheme() + "://" + endpoint.getAuthority())
                                        .endpoint(endpoint.getPath())
                                        .build())
                                .requestTimeout(Duration.ofSeconds(20))
                                .build()) {
                            client.initialize();
                            client.callTool(McpSchema.CallToolRequest.builder("list_dead_letters")
                                    .arguments(Map.of())
                                    .build());
                        }
                        // Inside the context: closing it shuts the bean's SDK down, which empties the exporter.
                        assertThat(spans.getFinishedSpanItems())
                                .extracting(SpanData::getName)
                                .containsExactly("tools/call list_dead_letters");
                    });
        }
    }

    @Test
    void theBoardIsOffUnlessEnabledAndThenShowsTheStoresTasksWhileTheContextRuns() throws Exception {
        runner.run(context -> assertThat(context).doesNotHaveBean(DashboardLifecycle.class));
        URI[] board = new URI[1];
        runner.withPropertyValues("taskagent.dashboard.enabled=true", "taskagent.dashboard.port=0")
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    queue.create(queue.newTask("Shown on the board").build());
                    board[0] = context.getBean(DashboardLifecycle.class).uri();
                    HttpResponse<String> sessions = get(board[0].resolve("/api/sessions"));
                    assertThat(sessions.statusCode()).isEqualTo(200);
                    assertThat(sessions.body()).contains(queue.sessionId());
                });
        assertThatThrownBy(() -> get(board[0])).isInstanceOf(ConnectException.class);
    }

    @Test
    void theBoardCountsDeadLettersByTheApplicationsQueueLimit() {
        runner.withPropertyValues(
                        "taskagent.dashboard.enabled=true",
                        "taskagent.dashboard.port=0",
                        "taskagent.queue.max-attempts=5",
                        "taskagent.queue.backoff-first=0")
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    // Without a limit of its own (made outside the queue), so the queue's 5 decides, not 3.
                    Task task = queue.store()
                            .inTransaction(transaction -> transaction.insertTask(
                                    NewTask.builder("ops", "Flaky")
                                            .assignee("ann")
                                            .build(),
                                    0));
                    for (int attempt = 1; attempt < 3; attempt++) {
                        queue.claimNext("ann").orElseThrow();
                        queue.retry(task.id(), "ann", attempt, "Try again.");
                    }
                    queue.claimNext("ann").orElseThrow();
                    queue.complete(task.id(), "ann", 3, TaskStatus.FAILED, "Failed on attempt 3 of 5.");
                    URI board = context.getBean(DashboardLifecycle.class).uri();

                    assertThat(get(board.resolve("/api/tasks/" + task.id())).body())
                            .contains("\"attempt\":3")
                            .contains("\"dead_lettered\":false");
                    assertThat(get(board.resolve("/api/dead-letters")).body()).contains("\"tasks\":[]");
                });
    }

    @Test
    void aQueueOverAnotherStoreLeavesTheBoardOnTheDefaultLimitAndTheLogSaysSo(CapturedOutput output) {
        TaskQueue elsewhere =
                TaskQueue.builder(new InMemoryTaskStore()).maxAttempts(5).build();
        runner.withPropertyValues("taskagent.dashboard.enabled=true", "taskagent.dashboard.port=0")
                .withBean("otherQueue", TaskQueue.class, () -> elsewhere)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output)
                            .contains("The task board counts dead letters by the default attempt limit (3): the"
                                    + " application's TaskQueue is over another store than the board's");
                });
        runner.withPropertyValues("taskagent.dashboard.enabled=true", "taskagent.dashboard.port=0")
                .run(context -> assertThat(output.getAll().split("counts dead letters by the default", -1))
                        .as("no second warning from a context whose queue is over the board's store")
                        .hasSize(2));
    }

    @Test
    void aUsersOwnBoardWins() {
        DashboardLifecycle own = new DashboardLifecycle(() -> TaskDashboard.builder(new InMemoryTaskStore())
                .bind("127.0.0.1", 0)
                .build());
        runner.withPropertyValues("taskagent.dashboard.enabled=true")
                .withBean(DashboardLifecycle.class, () -> own)
                .run(context ->
                        assertThat(context.getBean(DashboardLifecycle.class)).isSameAs(own));
    }

    @Test
    void aPortInUseStopsTheContextNamingThePortProperty() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = occupied.getLocalPort();
            for (String server : List.of("mcp", "dashboard")) {
                runner.withPropertyValues(
                                "taskagent." + server + ".enabled=true", "taskagent." + server + ".port=" + port)
                        .run(context -> {
                            assertThat(context).hasFailed();
                            assertThat(context.getStartupFailure())
                                    .rootCause()
                                    .isInstanceOf(java.net.BindException.class);
                            assertThat(context.getStartupFailure())
                                    .hasStackTraceContaining("AddressInUseException: 127.0.0.1:" + port
                                            + " is already in use: choose another port with taskagent." + server
                                            + ".port (0 picks a free port), or stop the process that listens"
                                            + " there");
                        });
            }
        }
    }

    @Test
    void badPropertiesStopTheContextWithAMessageNamingTheProperty() {
        failsWith(
                "taskagent.openai.base-url is set (http://127.0.0.1:11434/v1) but taskagent.openai.model is not",
                "taskagent.openai.base-url=http://127.0.0.1:11434/v1");
        failsWith(
                "taskagent.queue.lease-duration must be a positive duration (e.g. 30s), was PT-1S",
                "taskagent.queue.lease-duration=-1s");
        failsWith(
                "taskagent.reaper.reclaim-interval must be between 10ms and 1d, was PT0S",
                "taskagent.reaper.reclaim-interval=0s");
        failsWith("taskagent.queue.max-attempts must be at least 1, was 0", "taskagent.queue.max-attempts=0");
        failsWith(
                "taskagent.queue.backoff-first must be 0 or a positive duration (e.g. 10s), was PT-1S",
                "taskagent.queue.backoff-first=-1s");
        failsWith(
                "taskagent.queue.backoff-max must be between backoff-first (PT1M) and 3660d, was PT30S",
                "taskagent.queue.backoff-first=1m",
                "taskagent.queue.backoff-max=30s");
        failsWith("taskagent.agent.max-iterations must be at least 1, was 0", "taskagent.agent.max-iterations=0");
        failsWith(
                "Listening on 0.0.0.0, which is not a loopback address, needs a token: set taskagent.mcp.token (at"
                        + " least 16 characters), or listen on 127.0.0.1 with taskagent.mcp.bind-address",
                "taskagent.mcp.enabled=true",
                "taskagent.mcp.bind-address=0.0.0.0");
        failsWith(
                "taskagent.mcp.token must have at least 16 characters and no white space (got 5 characters)",
                "taskagent.mcp.enabled=true",
                "taskagent.mcp.token=short");
        failsWith(
                "Listening on 0.0.0.0, which is not a loopback address, needs a token: set"
                        + " taskagent.dashboard.token (at least 16 characters), or listen on 127.0.0.1 with"
                        + " taskagent.dashboard.bind-address",
                "taskagent.dashboard.enabled=true",
                "taskagent.dashboard.bind-address=0.0.0.0");
        failsWith(
                "Actions need a token: set taskagent.dashboard.token (at least 16 characters), which every action"
                        + " must carry in its Authorization header, or set taskagent.dashboard.actions-enabled=false",
                "taskagent.dashboard.enabled=true",
                "taskagent.dashboard.actions-enabled=true");
        failsWith(
                "taskagent.mcp.allowed-hosts takes hosts as a browser sends them in its Host header: a host and an"
                        + " optional port, or :* for any port, e.g. tasks.example.com:8443; was"
                        + " 'https://tasks.example.com'",
                "taskagent.mcp.enabled=true",
                "taskagent.mcp.allowed-hosts=https://tasks.example.com");
        failsWith(
                "Port 70000 is out of range: set taskagent.dashboard.port to 0-65535 (0 picks a free port)",
                "taskagent.dashboard.enabled=true",
                "taskagent.dashboard.port=70000");
        failsWith(
                "taskagent.openai.base-url is invalid: ",
                "taskagent.openai.base-url=not a url",
                "taskagent.openai.model=m");
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        runner.withPropertyValues("taskagent.queue.max-attempts=0", "taskagent.reaper.reclaim-interval=-5s")
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("taskagent.queue.max-attempts")
                        .hasMessageContaining("taskagent.reaper.reclaim-interval"));
    }

    private void failsWith(String message, String... properties) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            // The message of the exception that names the property, wherever it sits in the chain of causes.
            assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
        });
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    static void waitFor(BooleanSupplier condition) {
        Instant deadline = Instant.now().plusSeconds(10);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the condition did not hold within 10 s");
            }
            LockSupport.parkNanos(5_000_000L); // polls the condition; the deadline bounds the wait
        }
    }
}
