package dev.taskagent.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Observations, metrics and the health indicator, with and without Micrometer and Actuator's health support. */
class TaskAgentObservationTest {
    private static final String AGENT = "alice";

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(TaskAgentAutoConfigurationTest.TASKAGENT);

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    /** Every observation that stopped, in order (the test registry keeps its own list to itself). */
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    TaskAgentObservationTest() {
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    private ApplicationContextRunner withMicrometer() {
        return runner.withBean(ObservationRegistry.class, () -> observations)
                .withBean(MeterRegistry.class, () -> meters);
    }

    /** Inserts one task with a good call, makes one bad call (an error result), then finishes. */
    private static ScriptedChatModel extractionModel() {
        return ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "insert_task", "{\"after_task_order\": 0, \"task_description\": \"Add dark mode\"}"),
                        ScriptedChatModel.call("insert_task", "{\"task_description\": \"no order\"}")))
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
    }

    private static AgentRun extract(TaskAgent agent) {
        AgentRun run = agent.run("s1", List.of(ConversationMessage.user("m1", "Please add dark mode, secret 42")));
        assertThat(run.isSuccess()).as(run.toString()).isTrue();
        return run;
    }

    @Test
    void modelCallsAreObservedInTheGenAiConventionsWithTheirTokens() {
        withMicrometer()
                .withBean(ChatModel.class, TaskAgentObservationTest::extractionModel)
                .run(context -> {
                    extract(context.getBean(TaskAgent.class));
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasNumberOfObservationsWithNameEqualTo(MicrometerTaskObserver.MODEL_OPERATION, 2)
                            .hasObservationWithNameEqualTo(MicrometerTaskObserver.MODEL_OPERATION)
                            .that()
                            .hasContextualNameEqualTo("chat unknown")
                            .hasLowCardinalityKeyValue("gen_ai.operation.name", "chat")
                            .hasLowCardinalityKeyValue("gen_ai.provider.name", "unknown")
                            .hasLowCardinalityKeyValue("gen_ai.request.model", "unknown")
                            .hasLowCardinalityKeyValue("gen_ai.response.finish_reasons", "tool_calls")
                            .hasLowCardinalityKeyValue("error.type", "none")
                            .doesNotHaveHighCardinalityKeyValueWithKey("gen_ai.input.messages")
                            .doesNotHaveHighCardinalityKeyValueWithKey("gen_ai.output.messages");
                    assertThat(meters.get(MicrometerTaskObserver.TOKEN_USAGE)
                                    .tag("gen_ai.token.type", "input")
                                    .tag("gen_ai.provider.name", "unknown")
                                    .summary()
                                    .totalAmount())
                            .isEqualTo(200.0); // two answers of 100 input tokens each (ScriptedChatModel)
                    assertThat(meters.get(MicrometerTaskObserver.TOKEN_USAGE)
                                    .tag("gen_ai.token.type", "output")
                                    .summary()
                                    .totalAmount())
                            .isEqualTo(40.0);
                    assertThat(meters.get(MicrometerTaskObserver.EXTRACTION_RUNS)
                                    .tag("outcome", "finish")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.get(MicrometerTaskObserver.EXTRACTION_ITERATIONS)
                                    .summary()
                                    .totalAmount())
                            .isEqualTo(2.0);
                });
    }

    @Test
    void aFailedModelCallIsObservedWithItsErrorType() {
        withMicrometer()
                .withBean(ChatModel.class, () -> ScriptedChatModel.builder()
                        .fail(new ChatModelException("429 rate limited"))
                        .build())
                .run(context -> {
                    AgentRun run = context.getBean(TaskAgent.class)
                            .run("s1", List.of(ConversationMessage.user("m1", "Please add dark mode")));
                    assertThat(run.isSuccess()).isFalse();
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo(MicrometerTaskObserver.MODEL_OPERATION)
                            .that()
                            .hasLowCardinalityKeyValue("error.type", ChatModelException.class.getName())
                            .hasLowCardinalityKeyValue("gen_ai.response.finish_reasons", "none")
                            .hasError();
                    assertThat(meters.get(MicrometerTaskObserver.EXTRACTION_RUNS)
                                    .tag("outcome", "error")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.find(MicrometerTaskObserver.TOKEN_USAGE).meters())
                            .isEmpty();
                });
    }

    @Test
    void toolExecutionsAreObservedAndErrorResultsAreToolErrors() {
        withMicrometer()
                .withBean(ChatModel.class, TaskAgentObservationTest::extractionModel)
                .run(context -> {
                    extract(context.getBean(TaskAgent.class));
                    assertThat(stopped)
                            .filteredOn(
                                    observation -> observation.getName().equals(MicrometerTaskObserver.TOOL_EXECUTION))
                            .extracting(observation -> observation
                                            .getLowCardinalityKeyValue("gen_ai.tool.name")
                                            .getValue()
                                    + "/"
                                    + observation
                                            .getLowCardinalityKeyValue("error.type")
                                            .getValue()
                                    + "/"
                                    + observation
                                            .getLowCardinalityKeyValue("gen_ai.operation.name")
                                            .getValue())
                            .containsExactly(
                                    "insert_task/none/execute_tool",
                                    "insert_task/tool_error/execute_tool",
                                    "finish/none/execute_tool");
                    assertThat(stopped).allSatisfy(observation -> assertThat(
                                    observation.getHighCardinalityKeyValue("gen_ai.tool.call.arguments"))
                            .isNull());
                });
    }

    @Test
    void theStepExecutorRunsTheToolboxBeanAndItsToolsAreObserved() {
        Toolbox toolbox = Toolbox.of(Tool.of(
                "book_table", "Books a table", JsonSchema.object(), arguments -> ToolResult.error("Fully booked")));
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("book_table", "{}")))
                .respond(ScriptedChatModel.text("The restaurant is fully booked.\n✓ STEP 1: Tried to book a table"))
                .build();
        withMicrometer()
                .withBean(Toolbox.class, () -> toolbox)
                .withBean(ChatModel.class, () -> model)
                .run(context -> {
                    TaskStore store = context.getBean(TaskStore.class);
                    Task task = store.inTransaction(tx -> tx.appendTask(NewTask.builder("s1", "Dinner")
                            .steps("- [ ] Book a table\n")
                            .build()));
                    StepRun run = context.getBean(StepExecutor.class).execute(task.id());
                    assertThat(run.allStepsDone()).as(run.describe()).isTrue();
                    assertThat(stopped)
                            .filteredOn(o -> o.getName().equals(MicrometerTaskObserver.TOOL_EXECUTION))
                            .singleElement()
                            .satisfies(o -> {
                                assertThat(o.getLowCardinalityKeyValue("gen_ai.tool.name")
                                                .getValue())
                                        .isEqualTo("book_table");
                                assertThat(o.getLowCardinalityKeyValue("error.type")
                                                .getValue())
                                        .isEqualTo("tool_error");
                            });
                    assertThat(stopped)
                            .filteredOn(o -> o.getName().equals(MicrometerTaskObserver.MODEL_OPERATION))
                            .hasSize(2);
                });
    }

    @Test
    void contentIsRecordedOnlyWhenTheOwnerOptsIn() {
        withMicrometer()
                .withBean(ChatModel.class, TaskAgentObservationTest::extractionModel)
                .withPropertyValues("taskagent.observations.include-content=true")
                .run(context -> {
                    extract(context.getBean(TaskAgent.class));
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo(MicrometerTaskObserver.MODEL_OPERATION)
                            .that()
                            .hasHighCardinalityKeyValueWithKey("gen_ai.input.messages");
                    assertThat(stopped)
                            .filteredOn(o -> o.getName().equals(MicrometerTaskObserver.MODEL_OPERATION))
                            .first()
                            .satisfies(o -> assertThat(o.getHighCardinalityKeyValue("gen_ai.input.messages")
                                            .getValue())
                                    .contains("secret 42"));
                    assertThat(stopped)
                            .filteredOn(o -> o.getName().equals(MicrometerTaskObserver.TOOL_EXECUTION))
                            .first()
                            .satisfies(o -> assertThat(o.getHighCardinalityKeyValue("gen_ai.tool.call.arguments")
                                            .getValue())
                                    .contains("Add dark mode"));
                });
    }

    @Test
    void theQueueCountsClaimsCompletionsExpiredLeasesAndGaugesItsTasks() {
        withMicrometer()
                .withPropertyValues(
                        "taskagent.queue.lease-duration=1ms",
                        "taskagent.queue.max-attempts=1",
                        "taskagent.reaper.enabled=false",
                        "taskagent.observations.gauge-refresh=0s")
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    // Spring Boot binds MeterBinder beans to its registries; this test's registry is a plain bean.
                    context.getBean(TaskStoreMetrics.class).bindTo(meters);
                    System.gc(); // the gauges must hold their counts strongly, or they would read NaN from now on
                    Task first =
                            queue.create(queue.newTask("first").assignee(AGENT).build());
                    queue.create(queue.newTask("second").assignee(AGENT).build());
                    queue.create(queue.newTask("third").assignee(AGENT).build());
                    assertThat(gauge(TaskStoreMetrics.TASKS, "pending")).isEqualTo(3.0);

                    Task claimed = queue.claimNext(AGENT, java.time.Duration.ofMinutes(5))
                            .orElseThrow();
                    assertThat(gauge(TaskStoreMetrics.TASKS, "running")).isEqualTo(1.0);
                    queue.complete(claimed.id(), AGENT, claimed.attempt(), TaskStatus.SUCCESS, null);
                    Task abandoned = queue.claimNext(AGENT).orElseThrow(); // 1 ms lease: expires at once
                    TaskAgentAutoConfigurationTest.waitFor(() -> gauge(TaskStoreMetrics.EXPIRED_LEASES, null) == 1.0);
                    assertThat(queue.reclaimExpired()).hasSize(1);
                    Task last = queue.claimNext(AGENT, java.time.Duration.ofMinutes(5))
                            .orElseThrow();
                    queue.complete(last.id(), AGENT, last.attempt(), TaskStatus.FAILED, "could not");
                    assertThat(queue.claimNext(AGENT)).isEmpty();

                    assertThat(first.id()).isEqualTo(claimed.id());
                    assertThat(abandoned.id()).isNotEqualTo(claimed.id());
                    assertThat(meters.get(MicrometerTaskObserver.CLAIMS)
                                    .tag("outcome", "claimed")
                                    .timer()
                                    .count())
                            .isEqualTo(3);
                    assertThat(meters.get(MicrometerTaskObserver.CLAIMS)
                                    .tag("outcome", "empty")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.get(MicrometerTaskObserver.COMPLETIONS)
                                    .tag("status", "success")
                                    .counter()
                                    .count())
                            .isEqualTo(1.0);
                    assertThat(meters.get(MicrometerTaskObserver.COMPLETIONS)
                                    .tag("status", "failed")
                                    .counter()
                                    .count())
                            .isEqualTo(1.0);
                    assertThat(meters.get(MicrometerTaskObserver.LEASES_EXPIRED)
                                    .tag("outcome", "dead_lettered")
                                    .counter()
                                    .count())
                            .isEqualTo(1.0);
                    assertThat(gauge(TaskStoreMetrics.TASKS, "pending")).isZero();
                    assertThat(gauge(TaskStoreMetrics.TASKS, "running")).isZero();
                });
    }

    private double gauge(String name, String status) {
        var search = meters.get(name).tag("store", "taskStore");
        return (status == null ? search : search.tag("status", status)).gauge().value();
    }

    @Test
    void withoutMicrometerNothingIsObservedAndEverythingElseWorks() {
        runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .withBean(ChatModel.class, TaskAgentObservationTest::extractionModel)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context)
                            .doesNotHaveBean(MicrometerTaskObserver.class)
                            .doesNotHaveBean(TaskStoreMetrics.class)
                            .doesNotHaveBean(TaskObserver.class);
                    extract(context.getBean(TaskAgent.class));
                });
    }

    @Test
    void withoutAMeterRegistryNothingIsObserved() {
        runner.run(context -> assertThat(context).doesNotHaveBean(MicrometerTaskObserver.class));
        withMicrometer()
                .withPropertyValues("taskagent.observations.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(MicrometerTaskObserver.class));
    }

    @Test
    void theApplicationsOwnObserverHearsEverythingBesideMicrometers() {
        List<String> claims = new CopyOnWriteArrayList<>();
        TaskObserver own = new TaskObserver() {
            @Override
            public Scope<Task> claimStarted(String agent) {
                claims.add(agent);
                return Scope.none();
            }
        };
        withMicrometer().withBean(TaskObserver.class, () -> own).run(context -> {
            context.getBean(TaskQueue.class).claimNext(AGENT);
            assertThat(claims).containsExactly(AGENT);
            assertThat(meters.get(MicrometerTaskObserver.CLAIMS)
                            .tag("outcome", "empty")
                            .timer()
                            .count())
                    .isEqualTo(1);
        });
    }

    @Test
    void theHealthIndicatorReportsTheStoreAndItsExpiredLeases() {
        runner.withPropertyValues("taskagent.queue.lease-duration=1ms", "taskagent.reaper.enabled=false")
                .run(context -> {
                    TaskQueue queue = context.getBean(TaskQueue.class);
                    queue.create(queue.newTask("one").assignee(AGENT).build());
                    queue.create(queue.newTask("two").assignee(AGENT).build());
                    queue.claimNext(AGENT).orElseThrow();
                    TaskStoreHealthIndicator indicator = context.getBean(TaskStoreHealthIndicator.class);
                    TaskAgentAutoConfigurationTest.waitFor(() -> Long.valueOf(1)
                            .equals(indicator.health(true).getDetails().get("expiredLeases")));
                    Health health = indicator.health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails())
                            .containsEntry("pending", 1L)
                            .containsEntry("running", 1L)
                            .containsEntry("expiredLeases", 1L);
                });
    }

    @Test
    void theHealthIndicatorIsDownWhenTheStoreFails() {
        TaskStore broken = new TaskStore() {
            @Override
            public <R> R inTransaction(dev.taskagent.store.TransactionWork<R> work) {
                throw new dev.taskagent.store.TaskStoreException("the database is down");
            }
        };
        runner.withBean(TaskStore.class, () -> broken).run(context -> {
            Health health = context.getBean(TaskStoreHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("error").toString()).contains("the database is down");
        });
    }

    @Test
    void withoutSpringBootsHealthSupportThereIsNoIndicator() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TaskStoreHealthIndicator.class));
        runner.withPropertyValues("management.health.taskagent.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TaskStoreHealthIndicator.class));
    }
}
