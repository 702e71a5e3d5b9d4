package dev.taskagent.internal.engine;

import static dev.taskagent.llm.ScriptedChatModel.call;
import static dev.taskagent.llm.ScriptedChatModel.text;
import static dev.taskagent.llm.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.RunError;
import dev.taskagent.internal.engine.ModelLoop.CallsAtTheLimit;
import dev.taskagent.internal.engine.ModelLoop.Outcome;
import dev.taskagent.internal.engine.ModelLoop.Round;
import dev.taskagent.internal.engine.ModelLoop.Stop;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The loop both model runs share: when it stops, what the next request holds, how each kind of failure is
 * named, and that a failure is logged once, in one line, without a stack trace.
 */
class ModelLoopTest {
    private static final String SUBJECT = "Test run of case 1";

    /** Answers every call with "done", records the calls, and ends the run when asked to. */
    private static final class RecordingHooks implements ModelLoop.Hooks {
        final List<String> ran = new ArrayList<>();

        @Override
        public Round runCalls(int iteration, List<ToolCall> calls) {
            List<ToolResult> results = new ArrayList<>();
            for (ToolCall call : calls) {
                ran.add(iteration + ":" + call.name());
                results.add(ToolResult.ok("done " + call.name()));
            }
            boolean end = calls.stream().anyMatch(call -> call.name().equals("end"));
            return end ? Round.ending(results) : Round.continuing(results);
        }
    }

    private static ModelLoop loop(ChatModel model, int maxModelCalls, CallsAtTheLimit callsAtTheLimit) {
        return new ModelLoop(
                model,
                "the system prompt",
                List.of(),
                ChatOptions.defaults(),
                maxModelCalls,
                callsAtTheLimit,
                LoggerFactory.getLogger(ModelLoopTest.class));
    }

    @Test
    void theNextRequestHoldsTheAnswerAndOneResultPerCallInOrder() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(toolCalls(call("a", "{}"), call("b", "{}")))
                .respond(text("All done."))
                .build();

        Outcome outcome = loop(model, 5, CallsAtTheLimit.RUN).run(SUBJECT, "Do a and b", new RecordingHooks());

        assertThat(outcome.stop()).isEqualTo(Stop.ANSWERED);
        assertThat(outcome.modelCalls()).isEqualTo(2);
        assertThat(outcome.usage()).isEqualTo(new TokenUsage(200, 40));
        assertThat(outcome.lastText()).isEqualTo("All done.");
        List<ChatMessage> history = model.requests().get(1).messages();
        assertThat(history).hasSize(4);
        assertThat(history.subList(2, 4))
                .map(message -> ((ToolResultMessage) message).toolName() + "=" + ((ToolResultMessage) message).text())
                .containsExactly("a=done a", "b=done b");
        assertThat(model.requests().get(1).systemPrompt()).isEqualTo("the system prompt");
    }

    @Test
    void callsThatEndTheRunStopItWithoutAnotherModelCall() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(toolCalls(call("end", "{}"), call("after_end", "{}")))
                .build();
        RecordingHooks hooks = new RecordingHooks();

        Outcome outcome = loop(model, 5, CallsAtTheLimit.RUN).run(SUBJECT, "go", hooks);

        assertThat(outcome.stop()).isEqualTo(Stop.ENDED_BY_TOOL);
        assertThat(hooks.ran).containsExactly("1:end", "1:after_end");
        assertThat(model.requestCount()).isEqualTo(1);
    }

    @Test
    void atTheLimitTheCallsOfTheLastAnswerRunOrAreLeftAsTheLoopWasTold() {
        ChatResponse again = toolCalls(call("again", "{}"));
        RecordingHooks running = new RecordingHooks();
        RecordingHooks leaving = new RecordingHooks();

        Outcome ran = loop(
                        ScriptedChatModel.builder()
                                .respond(again)
                                .respond(again)
                                .build(),
                        2,
                        CallsAtTheLimit.RUN)
                .run(SUBJECT, "go", running);
        Outcome left = loop(
                        ScriptedChatModel.builder()
                                .respond(again)
                                .respond(again)
                                .build(),
                        2,
                        CallsAtTheLimit.LEAVE)
                .run(SUBJECT, "go", leaving);

        assertThat(ran.stop()).isEqualTo(Stop.LIMIT);
        assertThat(running.ran).containsExactly("1:again", "2:again");
        assertThat(ran.callsNotRun()).isEmpty();
        assertThat(left.stop()).isEqualTo(Stop.LIMIT);
        assertThat(leaving.ran).containsExactly("1:again");
        assertThat(left.callsNotRun()).extracting(ToolCall::name).containsExactly("again");
    }

    @Test
    void aModelThatAnswersNullFailsTheRunAsAModelFailure() {
        ChatModel model = request -> null;

        Outcome outcome = loop(model, 5, CallsAtTheLimit.RUN).run(SUBJECT, "go", new RecordingHooks());

        RunError error = outcome.error().orElseThrow();
        assertThat(outcome.stop()).isEqualTo(Stop.FAILED);
        assertThat(error.stage()).isEqualTo(RunError.Stage.MODEL);
        assertThat(error.message())
                .startsWith("The chat model failed in iteration 1: ChatModelException: The chat" + " model ");
        assertThat(error.message()).endsWith(" returned null instead of a response");
    }

    @Test
    void eachKindOfFailureIsNamedByItsStageAndLoggedOnceInOneLine() {
        TaskStoreException diskFull = new TaskStoreException("disk full");
        IllegalStateException gatewayDown = new IllegalStateException("gateway down");
        ModelLoop.Hooks storeFailsWhileStreaming = new ModelLoop.Hooks() {
            @Override
            public ChatResponse ask(ChatModel model, ChatRequest request) {
                throw new ModelLoop.StoreFailure(diskFull);
            }

            @Override
            public Round runCalls(int iteration, List<ToolCall> calls) {
                throw new AssertionError("no calls to run");
            }
        };
        ModelLoop.Hooks toolFails = (iteration, calls) -> {
            throw new ToolExecutionException("send", gatewayDown);
        };
        ModelLoop.Hooks storeFailsAtCommit = (iteration, calls) -> {
            throw diskFull;
        };
        ScriptedChatModel.Builder callsSend = ScriptedChatModel.builder().respond(toolCalls(call("send", "{}")));

        List<Logged> runs = List.of(
                logged(() ->
                        loop(callsSend.build(), 5, CallsAtTheLimit.RUN).run(SUBJECT, "go", storeFailsWhileStreaming)),
                logged(() -> loop(callsSend.build(), 5, CallsAtTheLimit.RUN).run(SUBJECT, "go", toolFails)),
                logged(() -> loop(callsSend.build(), 5, CallsAtTheLimit.RUN).run(SUBJECT, "go", storeFailsAtCommit)));

        assertThat(runs)
                .map(run -> run.outcome().error().orElseThrow().message())
                .containsExactly(
                        "The store failed in iteration 1: TaskStoreException: disk full",
                        "Tool 'send' failed in iteration 1: IllegalStateException: gateway down",
                        "The store failed in iteration 1: TaskStoreException: disk full");
        assertThat(runs.get(1).outcome().error().orElseThrow().cause()).isSameAs(gatewayDown);
        for (Logged run : runs) {
            assertThat(run.log().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("WARN")
                    .endsWith(SUBJECT + " stopped: "
                            + run.outcome().error().orElseThrow().message()));
        }
    }

    private record Logged(Outcome outcome, String log) {}

    private static Logged logged(Supplier<Outcome> action) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            return new Logged(action.get(), log.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(originalErr);
        }
    }
}
