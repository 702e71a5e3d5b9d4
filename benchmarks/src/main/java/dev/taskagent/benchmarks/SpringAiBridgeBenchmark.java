package dev.taskagent.benchmarks;

import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.spring.ai.SpringAiChatModel;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * What the Spring AI bridge adds to a model call: {@link SpringAiChatModel#chat} of a request with the
 * queue's tools and a short conversation, beside the same call made straight on the Spring AI model with a
 * prompt built once (the framework's own call). The model answers in-process with a tool call, as a
 * provider's model would after the network, so the difference is the bridge's mapping of the request (messages,
 * the model's options with the tools as callbacks) and of the response. Same request and answer as {@link
 * BridgeBenchmark}, the LangChain4j bridge's.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SpringAiBridgeBenchmark {
    /** A Spring AI model that answers at once with a tool call; its options carry tools, as providers' do. */
    private static final class InstantModel implements org.springframework.ai.chat.model.ChatModel {
        private final ChatOptions options =
                ToolCallingChatOptions.builder().model("instant").build();
        private final org.springframework.ai.chat.model.ChatResponse answer =
                new org.springframework.ai.chat.model.ChatResponse(
                        List.of(new Generation(
                                org.springframework.ai.chat.messages.AssistantMessage.builder()
                                        .content("")
                                        .toolCalls(List.of(
                                                new org.springframework.ai.chat.messages.AssistantMessage.ToolCall(
                                                        "call_1",
                                                        "function",
                                                        "signup_for_task",
                                                        "{\"agent_name\": \"alice\"}")))
                                        .build(),
                                ChatGenerationMetadata.builder()
                                        .finishReason("TOOL_CALLS")
                                        .build())),
                        ChatResponseMetadata.builder()
                                .model("instant")
                                .usage(new DefaultUsage(1200, 20))
                                .build());

        @Override
        public org.springframework.ai.chat.model.ChatResponse call(Prompt prompt) {
            return answer;
        }

        @Override
        public ChatOptions getOptions() {
            return options;
        }
    }

    private final InstantModel framework = new InstantModel();
    private final SpringAiChatModel bridge = SpringAiChatModel.of(framework);
    private final ChatRequest request = request();
    private final Prompt frameworkPrompt = capturePrompt();

    private static ChatRequest request() {
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();
        List<ChatMessage> messages = List.of(
                new UserMessage("Take your next task, as alice."),
                new AssistantMessage("", List.of(new ToolCall("call_0", "get_my_queue", "{\"agent_name\":\"alice\"}"))),
                new ToolResultMessage("call_0", "get_my_queue", "#7 pending p2: Move the invoice export", false),
                new UserMessage("Go on."));
        return ChatRequest.of(
                "You work tasks from a shared queue.", messages, queue.tools().definitions());
    }

    private Prompt capturePrompt() {
        // What the bridge sends, built once: the framework's own call then costs only the model's work.
        Prompt[] captured = new Prompt[1];
        org.springframework.ai.chat.model.ChatModel capturing = new org.springframework.ai.chat.model.ChatModel() {
            @Override
            public org.springframework.ai.chat.model.ChatResponse call(Prompt sent) {
                captured[0] = sent;
                return framework.call(sent);
            }

            @Override
            public ChatOptions getOptions() {
                return framework.getOptions();
            }
        };
        SpringAiChatModel.of(capturing).chat(request);
        return captured[0];
    }

    /** The prompt the direct call sends: the bridge's own, for the tests to check. */
    Prompt frameworkPrompt() {
        return frameworkPrompt;
    }

    /**
     * The call through the bridge.
     *
     * @return taskagent's response
     */
    @Benchmark
    public ChatResponse bridge() {
        return bridge.chat(request);
    }

    /**
     * The floor: the framework's own call with a prompt built once.
     *
     * @return Spring AI's response
     */
    @Benchmark
    public org.springframework.ai.chat.model.ChatResponse direct() {
        return framework.call(frameworkPrompt);
    }
}
