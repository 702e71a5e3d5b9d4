package dev.taskagent.testkit.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.RunError;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.extraction.ToolCallRecord;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TextDeltaListener;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.steps.Step;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.testkit.internal.Logged;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Step execution and the step operations against a real {@link TaskStore}: markers streamed by a model
 * tick the steps in the store while the model is still writing, listeners hear about each tick in order,
 * tools run during execution, and a run that leaves steps open says which. A failing model, tool or store
 * ends the run with the failure in its result and the steps ticked before still ticked; with slf4j-simple
 * as the logging backend the tests also check that the run was logged once, at WARN, in one line.
 *
 * <p>Run it against a store with a three-line subclass:
 *
 * <pre>{@code
 * class InMemoryStepExecutionTest extends StepExecutionSuite {
 *     protected TaskStore createStore(Clock clock) { return new InMemoryTaskStore(clock); }
 * }
 * }</pre>
 */
public abstract class StepExecutionSuite {
    private static final String CHECK = "\u2713";
    private static final String RESEARCH = "Research family-friendly attractions in Bangkok for kids 5 & 3";
    private static final String SEND = "Send the list to Hanan on WhatsApp";
    private static final String TRIP = "- [ ] " + RESEARCH + "\n- [ ] " + SEND + "\n";

    private static final String TWO_STEP_RUN =
            "Looking at parks, museums and aquariums that suit a 5 and a 3 year old.\n"
                    + CHECK + " STEP 1: " + RESEARCH + "\n"
                    + "The list: Sea Life Bangkok, Children's Discovery Museum, Lumphini Park, Safari World.\n"
                    + "Sending it to Hanan now.\n"
                    + CHECK + " STEP 2: " + SEND + "\n"
                    + "Summary: Hanan has a list of four family-friendly attractions in Bangkok on WhatsApp.";

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected StepExecutionSuite() {}

    /**
     * Creates the store under test: a fresh, empty one for each test.
     *
     * @param clock the clock the store must take its timestamps from; a {@link MutableClock} the suite moves
     * @return the store; the suite closes it after the test
     */
    protected abstract TaskStore createStore(Clock clock);

    private final MutableClock clock = MutableClock.standard();
    private final List<TaskEvent> events = new CopyOnWriteArrayList<>();
    private TaskStore store;

    @BeforeEach
    void openStore() {
        store = createStore(clock);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private Task newTask(String steps) {
        return store.inTransaction(transaction -> transaction.appendTask(
                NewTask.builder("family", "Family trip research").steps(steps).build()));
    }

    private Task reload(Task task) {
        return store.findTask(task.id()).orElseThrow();
    }

    private StepExecutor.Builder executor(ChatModel model) {
        return StepExecutor.builder(store, model).clock(clock).listener(events::add);
    }

    private List<String> eventNames() {
        return events.stream().map(StepExecutionSuite::describe).toList();
    }

    private static String describe(TaskEvent event) {
        if (event instanceof TaskEvent.StepCompleted step) {
            return "step " + step.stepNumber() + " " + step.stepText();
        }
        if (event instanceof TaskEvent.StatusChanged status) {
            return status.from().wireName() + " -> " + status.to().wireName();
        }
        return event.getClass().getSimpleName();
    }

    /** An answer that reports step 1 done and asks for the list to be sent on WhatsApp. */
    private static ChatResponse researchDoneThenSend() {
        return new ChatResponse(
                CHECK + " STEP 1: " + RESEARCH + "\n",
                List.of(ScriptedChatModel.call("send_whatsapp", "{\"to\":\"Hanan\",\"message\":\"list\"}")),
                FinishReason.TOOL_CALLS,
                TokenUsage.ZERO);
    }

    /**
     * A store that passes everything to a real store, and can be armed to fail the n-th unit of work from
     * then on before it runs, as a store does when its connection is lost. Thread-safe.
     */
    private static final class FailingStore implements TaskStore {
        private final TaskStore delegate;
        private final AtomicInteger transactionsUntilFailure = new AtomicInteger(-1);
        private volatile RuntimeException failure;

        FailingStore(TaskStore delegate) {
            this.delegate = delegate;
        }

        void failTransaction(int transactionNumber, RuntimeException fault) {
            failure = fault;
            transactionsUntilFailure.set(transactionNumber);
        }

        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            if (transactionsUntilFailure.get() > 0 && transactionsUntilFailure.decrementAndGet() == 0) {
                throw failure;
            }
            return delegate.inTransaction(work);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /** Passes a model's stream through and counts the pieces handed out so far. */
    private static final class CountingModel implements ChatModel {
        private final ChatModel delegate;
        private final AtomicInteger deltas = new AtomicInteger();

        CountingModel(ChatModel delegate) {
            this.delegate = delegate;
        }

        @Override
        public ChatResponse chat(ChatRequest request) {
            return delegate.chat(request);
        }

        @Override
        public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
            return delegate.chatStreaming(request, delta -> {
                deltas.incrementAndGet();
                listener.onTextDelta(delta);
            });
        }
    }

    /** What a listener saw in the store at the moment it heard about a ticked step. */
    private record Observation(int stepNumber, String stepsInStore, int currentStepInStore, int deltasSoFar) {}

    /** A host tool that "sends" a WhatsApp message and records it. */
    private static final class SendWhatsApp {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final List<String> timeline;

        SendWhatsApp(List<String> timeline) {
            this.timeline = timeline;
        }

        Tool tool() {
            return Tool.of(
                    "send_whatsapp",
                    "Sends a WhatsApp message to a contact.",
                    JsonSchema.object()
                            .requiredString("to", "the contact's name")
                            .requiredString("message", "the message text"),
                    arguments -> {
                        String to = arguments.requiredName("to");
                        sent.add(to + ": " + arguments.requiredText("message"));
                        timeline.add("tool send_whatsapp");
                        return ToolResult.ok("Sent to " + to + ".");
                    });
        }
    }

    @Test
    void bothStepsTickInTheStoreWhileTheModelIsStillStreaming() {
        Task task = newTask(TRIP);
        CountingModel model = new CountingModel(ScriptedChatModel.builder()
                .streamChunkSize(5)
                .respond(ScriptedChatModel.text(TWO_STEP_RUN))
                .build());
        List<Observation> observations = new CopyOnWriteArrayList<>();
        TaskListener observer = event -> {
            if (event instanceof TaskEvent.StepCompleted step) {
                Task now = reload(task);
                observations.add(
                        new Observation(step.stepNumber(), now.steps(), now.currentStep(), model.deltas.get()));
            }
        };

        StepRun run = executor(model).listener(observer).build().execute(task.id());

        int allDeltas = model.deltas.get();
        assertThat(allDeltas).isEqualTo((TWO_STEP_RUN.length() + 4) / 5);
        assertThat(observations).hasSize(2);
        Observation first = observations.get(0);
        assertThat(first.stepNumber()).isEqualTo(1);
        assertThat(first.stepsInStore()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(first.currentStepInStore()).isEqualTo(1);
        assertThat(first.deltasSoFar()).isLessThan(allDeltas);
        Observation second = observations.get(1);
        assertThat(second.stepNumber()).isEqualTo(2);
        assertThat(second.stepsInStore()).isEqualTo("- [x] " + RESEARCH + "\n- [x] " + SEND + "\n");
        assertThat(second.currentStepInStore()).isEqualTo(2);
        assertThat(second.deltasSoFar()).isGreaterThan(first.deltasSoFar()).isLessThan(allDeltas);
        assertThat(run.allStepsDone()).isTrue();
    }

    @Test
    void eventsArriveInOrderAndTheFinishedTaskIsMarkedSuccess() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .streamChunkSize(3)
                .respond(ScriptedChatModel.text(TWO_STEP_RUN))
                .build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(eventNames())
                .containsExactly("pending -> running", "step 1 " + RESEARCH, "step 2 " + SEND, "running -> success");
        assertThat(run.completedSteps()).containsExactly(1, 2);
        assertThat(run.uncheckedSteps()).isEmpty();
        assertThat(run.markedSuccess()).isTrue();
        assertThat(run.task().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(run.finalText()).isEqualTo(TWO_STEP_RUN);
        assertThat(run.modelCalls()).isEqualTo(1);
        assertThat(run.describe()).isEqualTo("2 of 2 steps done; task marked success");
        assertThat(reload(task).status()).isEqualTo(TaskStatus.SUCCESS);
        ChatRequest request = model.requests().get(0);
        assertThat(request.systemPrompt()).isEqualTo(StepExecutor.systemPrompt());
        assertThat(((UserMessage) request.messages().get(0)).text())
                .contains("1. [ ] " + RESEARCH + "\n2. [ ] " + SEND + "\n");
    }

    @Test
    void aRunThatLeavesAStepUncheckedSaysWhichAndDoesNotCompleteTheTask() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.text(CHECK + " STEP 1: " + RESEARCH + "\n"
                        + "I cannot send the list: I have no way to reach WhatsApp.\n"
                        + "Summary: the list is ready but was not sent."))
                .build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(run.allStepsDone()).isFalse();
        assertThat(run.uncheckedSteps()).containsExactly(new Step(2, SEND, false, 0, 2, TRIP.indexOf("[ ] " + SEND)));
        assertThat(run.markedSuccess()).isFalse();
        assertThat(run.describe()).isEqualTo("1 of 2 steps done; not done: 2. " + SEND);
        Task after = reload(task);
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(after.steps()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(after.currentStep()).isEqualTo(1);
        assertThat(eventNames()).containsExactly("pending -> running", "step 1 " + RESEARCH);
    }

    @Test
    void aToolCallDuringExecutionRunsBetweenTheTicksAndItsResultGoesBackToTheModel() {
        Task task = newTask(TRIP);
        List<String> timeline = new CopyOnWriteArrayList<>();
        SendWhatsApp sendWhatsApp = new SendWhatsApp(timeline);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .streamChunkSize(4)
                .respond(new ChatResponse(
                        CHECK + " STEP 1: " + RESEARCH + "\nSending the list to Hanan.\n",
                        List.of(ScriptedChatModel.call(
                                "send_whatsapp",
                                "{\"to\":\"Hanan\",\"message\":\"Sea Life, Lumphini Park, Safari World\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(120, 30)))
                .respondWith(request -> {
                    ToolResultMessage result =
                            (ToolResultMessage) request.messages().get(2);
                    return ScriptedChatModel.text(
                            result.isError()
                                    ? "The tool failed."
                                    : CHECK + " STEP 2: " + SEND + "\nDone: " + result.text());
                })
                .build();
        StepExecutor executor = executor(model)
                .toolbox(Toolbox.of(sendWhatsApp.tool()))
                .listener(event -> timeline.add(describe(event)))
                .build();

        StepRun run = executor.execute(task.id());

        assertThat(sendWhatsApp.sent).containsExactly("Hanan: Sea Life, Lumphini Park, Safari World");
        assertThat(timeline)
                .containsExactly(
                        "pending -> running",
                        "step 1 " + RESEARCH,
                        "tool send_whatsapp",
                        "step 2 " + SEND,
                        "running -> success");
        assertThat(run.toolCalls()).isEqualTo(1);
        assertThat(run.modelCalls()).isEqualTo(2);
        assertThat(run.usage()).isEqualTo(new TokenUsage(220, 50));
        assertThat(run.finalText()).isEqualTo(CHECK + " STEP 2: " + SEND + "\nDone: Sent to Hanan.");
        assertThat(model.requests().get(0).tools()).extracting(d -> d.name()).containsExactly("send_whatsapp");
    }

    @Test
    void aRepeatedMarkerOrAMarkerBeyondTheLastStepChangesNothing() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.text(CHECK + " STEP 1: " + RESEARCH + "\n" + CHECK + " STEP 1: again\n"
                        + CHECK + " STEP 3: a step that does not exist\n"
                        + CHECK + " STEP 123456789012345678901234567890: huge\n"))
                .build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(eventNames()).containsExactly("pending -> running", "step 1 " + RESEARCH);
        assertThat(run.warnings())
                .containsExactly(
                        "Ignored the marker for step 3; the task has 2 steps (1..2)",
                        "Ignored a step marker whose number has 30 digits; steps are numbered 1..2");
        // created (1), set running (2), one tick (3): the repeated marker wrote nothing
        assertThat(reload(task).version()).isEqualTo(3);
    }

    @Test
    void aStreamThatEndsInsideAMarkerLeavesThatStepOpenAndSaysSo() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .streamChunkSize(2)
                .respond(ScriptedChatModel.text(CHECK + " STEP 1: " + RESEARCH + "\n" + CHECK + " STEP 2"))
                .build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(run.completedSteps()).containsExactly(1);
        assertThat(run.uncheckedSteps()).extracting(Step::number).containsExactly(2);
        assertThat(run.warnings())
                .containsExactly(
                        "Ignored a step marker without the colon after its number; write it as '\u2713 STEP n: text'");
        assertThat(reload(task).status()).isEqualTo(TaskStatus.RUNNING);
    }

    @Test
    void aResumedRunShowsTheDoneStepsAndTicksOnlyTheOpenOnes() {
        Task task = newTask("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.text(
                        CHECK + " STEP 1: " + RESEARCH + "\n" + CHECK + " STEP 2: " + SEND + "\nAll sent."))
                .build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(run.completedSteps()).containsExactly(2);
        assertThat(eventNames()).containsExactly("pending -> running", "step 2 " + SEND, "running -> success");
        assertThat(((UserMessage) model.requests().get(0).messages().get(0)).text())
                .contains("1. [x] " + RESEARCH)
                .contains("Continue with step 2.");
    }

    @Test
    void aTaskWhoseStepsAreAllDoneNeedsNoModelCall() {
        Task task = newTask("- [x] " + RESEARCH + "\n- [X] " + SEND + "\n");
        ScriptedChatModel model = ScriptedChatModel.builder().build();

        StepRun run = executor(model).build().execute(task.id());

        assertThat(model.requestCount()).isZero();
        assertThat(run.modelCalls()).isZero();
        assertThat(run.allStepsDone()).isTrue();
        assertThat(run.markedSuccess()).isTrue();
        assertThat(eventNames()).containsExactly("pending -> success");
    }

    @Test
    void aTaskWithoutStepsIsRefusedBeforeAnyModelCall() {
        Task task = newTask(null);
        ScriptedChatModel model = ScriptedChatModel.builder().build();
        StepExecutor executor = executor(model).build();

        assertThatThrownBy(() -> executor.execute(task.id()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Task " + task.id()
                        + " has no steps; give it a checklist first with TaskSteps.setSteps(taskId, markdown)");
        assertThat(model.requestCount()).isZero();
        assertThat(reload(task).status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void aFailingToolEndsTheRunWithTheErrorInTheResultAndTheStepsTickedBeforeStayTicked() {
        Task task = newTask(TRIP);
        IllegalStateException gatewayDown = new IllegalStateException("WhatsApp gateway is down");
        Tool broken = Tool.of(
                "send_whatsapp",
                "Sends a WhatsApp message to a contact.",
                JsonSchema.object()
                        .requiredString("to", "the contact's name")
                        .requiredString("message", "what to send"),
                arguments -> {
                    throw gatewayDown;
                });
        ScriptedChatModel model =
                ScriptedChatModel.builder().respond(researchDoneThenSend()).build();
        StepExecutor executor = executor(model).toolbox(Toolbox.of(broken)).build();

        Logged<StepRun> logged = Logged.of(() -> executor.execute(task.id()));

        StepRun run = logged.value();
        assertThat(run.isSuccess()).isFalse();
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.TOOL);
        assertThat(error.toolName()).isEqualTo("send_whatsapp");
        assertThat(error.iteration()).isEqualTo(1);
        assertThat(error.cause()).isSameAs(gatewayDown);
        assertThat(run.completedSteps()).containsExactly(1);
        assertThat(run.markedSuccess()).isFalse();
        assertThat(run.describe())
                .isEqualTo("1 of 2 steps done; not done: 2. " + SEND + "; stopped: Tool 'send_whatsapp' failed in"
                        + " iteration 1: IllegalStateException: WhatsApp gateway is down");
        Task after = reload(task);
        assertThat(after.steps()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        logged.assertOneWarning("Step execution of task " + task.id() + " stopped: " + error.message());
    }

    @Test
    void aModelFailureEndsTheRunWithTheErrorInTheResultAndTheStepsTickedBeforeStayTicked() {
        Task task = newTask(TRIP);
        ChatModelException rateLimited = new ChatModelException("rate limited, retry later");
        List<String> timeline = new CopyOnWriteArrayList<>();
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(researchDoneThenSend())
                .fail(rateLimited)
                .build();
        StepExecutor executor = executor(model)
                .toolbox(Toolbox.of(new SendWhatsApp(timeline).tool()))
                .build();

        Logged<StepRun> logged = Logged.of(() -> executor.execute(task.id()));

        StepRun run = logged.value();
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.MODEL);
        assertThat(error.iteration()).isEqualTo(2);
        assertThat(error.cause()).isSameAs(rateLimited);
        assertThat(run.modelCalls()).isEqualTo(2);
        assertThat(run.toolCalls()).isEqualTo(1);
        assertThat(run.completedSteps()).containsExactly(1);
        assertThat(timeline).containsExactly("tool send_whatsapp");
        Task after = reload(task);
        assertThat(after.steps()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(eventNames()).containsExactly("pending -> running", "step 1 " + RESEARCH);
        logged.assertOneWarning("Step execution of task " + task.id()
                + " stopped: The chat model failed in iteration 2: ChatModelException: rate limited, retry later");
    }

    @Test
    void aStoreFailureWhileTickingCutsTheStreamOffAndTheStepsTickedBeforeStayTicked() {
        FailingStore failing = new FailingStore(store);
        store = failing;
        Task task = newTask(TRIP);
        TaskStoreException connectionLost = new TaskStoreException("connection lost");
        CountingModel model = new CountingModel(ScriptedChatModel.builder()
                .streamChunkSize(5)
                .respondWith(request -> {
                    failing.failTransaction(2, connectionLost); // tick 1 commits, tick 2 does not
                    return ScriptedChatModel.text(TWO_STEP_RUN);
                })
                .build());

        Logged<StepRun> logged = Logged.of(() -> executor(model).build().execute(task.id()));

        StepRun run = logged.value();
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.STORE);
        assertThat(error.iteration()).isEqualTo(1);
        assertThat(error.cause()).isSameAs(connectionLost);
        assertThat(model.deltas.get()).isLessThan((TWO_STEP_RUN.length() + 4) / 5);
        assertThat(run.completedSteps()).containsExactly(1);
        assertThat(run.markedSuccess()).isFalse();
        Task after = reload(task);
        assertThat(after.steps()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(eventNames()).containsExactly("pending -> running", "step 1 " + RESEARCH);
        logged.assertOneWarning("Step execution of task " + task.id()
                + " stopped: The store failed in iteration 1: TaskStoreException: connection lost");
    }

    @Test
    void aStoreFailureWhenTheRunMarksTheTaskSuccessIsReportedAndTheStepsStayTicked() {
        FailingStore failing = new FailingStore(store);
        store = failing;
        Task task = newTask(TRIP);
        TaskStoreException connectionLost = new TaskStoreException("connection lost");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respondWith(request -> {
                    // tick 1, tick 2 and reading the task back commit; setting it success does not
                    failing.failTransaction(4, connectionLost);
                    return ScriptedChatModel.text(TWO_STEP_RUN);
                })
                .build();

        Logged<StepRun> logged = Logged.of(() -> executor(model).build().execute(task.id()));

        StepRun run = logged.value();
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.STORE);
        assertThat(error.cause()).isSameAs(connectionLost);
        assertThat(run.allStepsDone()).isTrue();
        assertThat(run.markedSuccess()).isFalse();
        assertThat(reload(task).status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(eventNames()).containsExactly("pending -> running", "step 1 " + RESEARCH, "step 2 " + SEND);
        logged.assertOneWarning("Step execution of task " + task.id()
                + " stopped: The store failed in iteration 1: TaskStoreException: connection lost");
    }

    @Test
    void anUnknownTaskIsRefusedWithAnExceptionBeforeAnyModelCall() {
        ScriptedChatModel model = ScriptedChatModel.builder().build();
        StepExecutor executor = executor(model).build();

        assertThatThrownBy(() -> executor.execute(987_654_321L)).isInstanceOf(TaskNotFoundException.class);
        assertThat(model.requestCount()).isZero();
    }

    @Test
    void theModelCallLimitStopsAModelThatKeepsCallingTools() {
        Task task = newTask(TRIP);
        List<String> timeline = new CopyOnWriteArrayList<>();
        SendWhatsApp sendWhatsApp = new SendWhatsApp(timeline);
        ScriptedChatModel.Builder script = ScriptedChatModel.builder();
        for (int i = 0; i < 3; i++) {
            script.respond(ScriptedChatModel.toolCalls(
                    ScriptedChatModel.call("send_whatsapp", "{\"to\":\"Hanan\",\"message\":\"again\"}")));
        }
        ScriptedChatModel model = script.build();

        StepRun run = executor(model)
                .toolbox(Toolbox.of(sendWhatsApp.tool()))
                .maxModelCalls(2)
                .build()
                .execute(task.id());

        assertThat(run.modelCalls()).isEqualTo(2);
        assertThat(run.toolCalls()).isEqualTo(1);
        assertThat(run.callLimitReached()).isTrue();
        assertThat(run.warnings())
                .containsExactly(
                        "Stopped after 2 model calls (the limit); the model still asked for send_whatsapp, which was not run");
        assertThat(run.uncheckedSteps()).hasSize(2);
        assertThat(sendWhatsApp.sent).hasSize(1);
    }

    @Test
    void withoutStatusManagementTheStatusIsLeftToTheCaller() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.text(TWO_STEP_RUN))
                .build();

        StepRun run = executor(model).leaveStatusToCaller().build().execute(task.id());

        assertThat(run.allStepsDone()).isTrue();
        assertThat(run.markedSuccess()).isFalse();
        assertThat(reload(task).status()).isEqualTo(TaskStatus.PENDING);
        assertThat(eventNames()).containsExactly("step 1 " + RESEARCH, "step 2 " + SEND);
    }

    @Test
    void lenientMarkersAreTickedOnlyWhenAskedFor() {
        String boldOutput = "**\u2714 STEP 1:** " + RESEARCH + "\n  \u2705 STEP 2: " + SEND + "\n";
        Task strictTask = newTask(TRIP);
        Task lenientTask = newTask(TRIP);

        StepRun strict = executor(ScriptedChatModel.builder()
                        .respond(ScriptedChatModel.text(boldOutput))
                        .build())
                .build()
                .execute(strictTask.id());
        StepRun lenient = executor(ScriptedChatModel.builder()
                        .respond(ScriptedChatModel.text(boldOutput))
                        .build())
                .lenientMarkers()
                .build()
                .execute(lenientTask.id());

        assertThat(strict.completedSteps()).isEmpty();
        assertThat(lenient.completedSteps()).containsExactly(1, 2);
    }

    @Test
    void aMarkerInACodeBlockOfTheAnswerTicksNothingUnlessAskedFor() {
        String output = "The marker looks like this:\n```\n" + CHECK + " STEP 1: " + RESEARCH + "\n```\n";
        Task defaultTask = newTask(TRIP);
        Task countingTask = newTask(TRIP);

        StepRun byDefault = executor(ScriptedChatModel.builder()
                        .streamChunkSize(3)
                        .respond(ScriptedChatModel.text(output))
                        .build())
                .build()
                .execute(defaultTask.id());
        StepRun counting = executor(ScriptedChatModel.builder()
                        .streamChunkSize(3)
                        .respond(ScriptedChatModel.text(output))
                        .build())
                .countMarkersInCodeBlocks()
                .build()
                .execute(countingTask.id());

        assertThat(byDefault.completedSteps()).isEmpty();
        assertThat(byDefault.warnings())
                .containsExactly("Ignored the marker for step 1: it is inside a fenced code block, where markers are"
                        + " quoted, not reported; write it on a line of its own outside code blocks");
        assertThat(counting.completedSteps()).containsExactly(1);
    }

    @Test
    void setStepsKeepsTheDocumentByteForByteAndPublishesAnUpdate() {
        Task task = newTask(null);
        String document = "\uFEFFPlan \uD83C\uDDF9\uD83C\uDDED\r\n- [x] " + RESEARCH + "  \r\n- [ ] " + SEND;

        Task after = TaskSteps.of(store, List.of(events::add)).setSteps(task.id(), document);

        assertThat(after.steps()).isEqualTo(document);
        assertThat(reload(task).steps()).isEqualTo(document);
        assertThat(after.currentStep()).isEqualTo(1);
        assertThat(eventNames()).containsExactly("Updated");
    }

    @Test
    void setStepsRefusesADocumentWithoutStepsAndWritesNothing() {
        Task task = newTask(TRIP);
        TaskSteps steps = TaskSteps.of(store);

        assertThatThrownBy(() -> steps.setSteps(task.id(), "Research Bangkok, then send the list."))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The steps document has no task-list item; write each step on its own line as"
                        + " '- [ ] what to do'");
        assertThatThrownBy(() -> steps.setSteps(task.id(), List.of(RESEARCH, "  ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Step 2 of 2 is blank; give every step a description");
        assertThat(reload(task)).isEqualTo(task);
    }

    @Test
    void markingStepsThroughTheJavaApiTicksOnceAndUnticks() {
        Task task = newTask(null);
        TaskSteps steps = TaskSteps.of(store, List.of(events::add));
        steps.setSteps(task.id(), List.of(RESEARCH, SEND));

        Task ticked = steps.markStepDone(task.id(), 2);
        Task again = steps.markStepDone(task.id(), 2);
        Task unticked = steps.markStepUndone(task.id(), 2);

        assertThat(ticked.steps()).isEqualTo("- [ ] " + RESEARCH + "\n- [x] " + SEND + "\n");
        assertThat(ticked.currentStep()).isEqualTo(2);
        assertThat(again).isEqualTo(ticked);
        assertThat(unticked.steps()).isEqualTo(TRIP);
        assertThat(unticked.currentStep()).isZero();
        assertThat(eventNames()).containsExactly("Updated", "step 2 " + SEND, "Updated");
        assertThat(steps.steps(task.id())).map(MarkdownSteps::progressLabel).contains("Steps 0/2");
        assertThatThrownBy(() -> steps.markStepDone(task.id(), 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("There is no step 3: the document has 2 steps (1..2)");
        assertThat(steps.clearSteps(task.id()).steps()).isNull();
        assertThat(steps.steps(task.id())).isEmpty();
    }

    private TaskAgent agent(ScriptedChatModel model, boolean stepsTool) {
        TaskAgent.Builder builder = TaskAgent.builder(store, model).clock(clock).listener(events::add);
        if (stepsTool) {
            builder.withStepsTool();
        }
        return builder.build();
    }

    private static List<String> toolNames(ChatRequest request) {
        return request.tools().stream().map(ToolDefinition::name).toList();
    }

    private static List<ToolResult> results(AgentRun run) {
        return run.toolCalls().stream().map(ToolCallRecord::result).toList();
    }

    @Test
    void theExtractionAgentGivesTheTaskOneStepPerActionAndTheExecutorCarriesThemOut() {
        String request = "Research family-friendly attractions in Bangkok for my kids, 5 and 3, and send the list to"
                + " Hanan on WhatsApp";
        ScriptedChatModel extraction = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "insert_task", "{\"after_task_order\":0,\"task_description\":\"" + request + "\"}"),
                        ScriptedChatModel.call(
                                "set_task_steps",
                                "{\"task_order\":1,\"steps\":[\"" + RESEARCH + "\",\"" + SEND + "\"]}"),
                        ScriptedChatModel.call("finish", "{}")))
                .build();

        AgentRun agentRun = agent(extraction, true).run("family", List.of(ConversationMessage.user("m1", request)));

        assertThat(agentRun.isSuccess()).isTrue();
        assertThat(results(agentRun).get(1))
                .isEqualTo(
                        ToolResult.ok("Set 2 steps on task 1 \"Research family-friendly attractions in Bangkok for my"
                                + " kids,…\" (Steps 0/2)."));
        Task task = store.listTasks("family").get(0);
        assertThat(task.steps()).isEqualTo(TRIP);
        assertThat(toolNames(extraction.requests().get(0))).contains("set_task_steps");
        assertThat(extraction.requests().get(0).systemPrompt())
                .contains("## Steps")
                .contains(
                        "A delivery (send it to someone, message me on WhatsApp, e-mail the summary) is always a step")
                .contains("Never combine two actions in one step, and never skip or drop an action")
                .contains("usually 2 to 5 steps");

        StepRun run = executor(ScriptedChatModel.builder()
                        .respond(ScriptedChatModel.text(TWO_STEP_RUN))
                        .build())
                .build()
                .execute(task.id());

        assertThat(run.allStepsDone()).isTrue();
        assertThat(reload(task).status()).isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void theAgentOffersTheStepsToolOnlyWhenItsBuilderEnablesIt() {
        newTask(null);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call(
                        "set_task_steps", "{\"task_order\":1,\"steps\":[\"" + RESEARCH + "\",\"" + SEND + "\"]}")))
                .thenStop()
                .build();

        AgentRun run = agent(model, false).run("family", List.of(ConversationMessage.user("m1", "hello")));

        assertThat(toolNames(model.requests().get(0))).doesNotContain("set_task_steps");
        assertThat(model.requests().get(0).systemPrompt()).doesNotContain("set_task_steps");
        assertThat(results(run).get(0).isError()).isTrue();
        assertThat(results(run).get(0).text()).startsWith("Unknown tool 'set_task_steps'");
        assertThat(store.listTasks("family").get(0).steps()).isNull();
    }

    @Test
    void theTaskListingShowsStepProgressOnlyForTasksWithSteps() {
        Task withSteps = newTask("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        store.inTransaction(transaction -> transaction.appendTask(NewTask.of("family", "Buy sunscreen")));
        store.inTransaction(transaction -> transaction.appendTask(
                NewTask.builder("family", "Pack").steps("No checklist here.").build()));
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();

        agent(model, true).run("family", List.of(ConversationMessage.user("m1", "How far along are we?")));

        assertThat(((UserMessage) model.requests().get(0).messages().get(0)).text())
                .contains("- Task " + withSteps.order() + ": Family trip research (Status: pending) | Steps 1/2\n"
                        + "- Task 2: Buy sunscreen (Status: pending)\n"
                        + "- Task 3: Pack (Status: pending)\n");
    }

    @Test
    void setTaskStepsReadsListMarkersAndChecklistsAndKeepsStepsAlreadyDone() {
        Task task = newTask("- [x] " + RESEARCH + "\n- [ ] Send it\n");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "set_task_steps",
                                "{\"task_order\":1,\"steps\":[\"- [ ] " + RESEARCH + "\",\"2. " + SEND + "\"]}"),
                        ScriptedChatModel.call("finish", "{}")))
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();

        agent(model, true).run("family", List.of(ConversationMessage.user("m1", "send it to Hanan on WhatsApp")));

        Task after = reload(task);
        assertThat(after.steps()).isEqualTo("- [x] " + RESEARCH + "\n- [ ] " + SEND + "\n");
        assertThat(after.currentStep()).isEqualTo(1);

        ScriptedChatModel checklist = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "set_task_steps",
                                "{\"task_order\":1,\"steps\":\"- [ ] Pick dates\\n- [ ] " + SEND + "\"}"),
                        ScriptedChatModel.call("finish", "{}")))
                .build();
        agent(checklist, true).run("family", List.of(ConversationMessage.user("m2", "pick dates first")));

        assertThat(reload(task).steps()).isEqualTo("- [ ] Pick dates\n- [ ] " + SEND + "\n");
    }

    @Test
    void setTaskStepsAnswersBadInputWithAnErrorTheModelCanFixAndWritesNothing() {
        Task task = newTask(TRIP);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call("set_task_steps", "{\"task_order\":1,\"steps\":[]}"),
                        ScriptedChatModel.call("set_task_steps", "{\"task_order\":1,\"steps\":[\"Research\",\" \"]}"),
                        ScriptedChatModel.call("set_task_steps", "{\"task_order\":4,\"steps\":[\"Research\"]}"),
                        ScriptedChatModel.call("set_task_steps", "{\"task_order\":1}"),
                        ScriptedChatModel.call("finish", "{}")))
                .build();

        AgentRun run = agent(model, true).run("family", List.of(ConversationMessage.user("m1", "hello")));

        assertThat(results(run).subList(0, 4))
                .containsExactly(
                        ToolResult.error("Argument 'steps' is empty; send the task's steps, one action each, or do not"
                                + " call set_task_steps."),
                        ToolResult.error("Step 2 of 2 is blank; give every step a description."),
                        ToolResult.error("Task order 4 is out of range (1..1); use an order from the task list."),
                        ToolResult.error("Argument 'steps' is missing; send the steps as an array of strings, one"
                                + " action each."));
        assertThat(reload(task)).isEqualTo(task);
    }
}
