package dev.taskagent.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.taskagent.langchain4j.LangChain4jChatModel;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.queue.TaskQueue;
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

/**
 * What the LangChain4j bridge adds to a model call: {@link LangChain4jChatModel#chat} of a request with the
 * queue tools and a short conversation, beside the same call made straight on the LangChain4j model
 * with a request built once (the framework's own call). The model answers in-process with a tool call, so
 * the difference is the bridge's mapping of the request and the response.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BridgeBenchmark {
    /** A LangChain4j model that answers at once, as a provider's client would after the network. */
    private static final class InstantModel implements dev.langchain4j.model.chat.ChatModel {
        private final dev.langchain4j.model.chat.response.ChatResponse answer =
                dev.langchain4j.model.chat.response.ChatResponse.builder()
                        .aiMessage(AiMessage.from(ToolExecutionRequest.builder()
                                .id("call_1")
                                .name("signup_for_task")
                                .arguments("{\"agent_name\": \"alice\"}")
                                .build()))
                        .tokenUsage(new TokenUsage(1200, 20))
                        .finishReason(FinishReason.TOOL_EXECUTION)
                        .modelName("instant")
                        .build();

        @Override
        public dev.langchain4j.model.chat.response.ChatResponse doChat(
                dev.langchain4j.model.chat.request.ChatRequest request) {
            return answer;
        }

        @Override
        public ChatRequestParameters defaultRequestParameters() {
            return ChatRequestParameters.builder().modelName("instant").build();
        }

        @Override
        public ModelProvider provider() {
            return ModelProvider.OTHER;
        }
    }

    private final InstantModel framework = new InstantModel();
    private final LangChain4jChatModel bridge = LangChain4jChatModel.of(framework);
    private final ChatRequest request = request();
    private final dev.langchain4j.model.chat.request.ChatRequest frameworkRequest = frameworkRequest();

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

    private dev.langchain4j.model.chat.request.ChatRequest frameworkRequest() {
        // What the bridge sends, built once: the framework's own call then costs only the model's work.
        dev.langchain4j.model.chat.request.ChatRequest[] captured =
                new dev.langchain4j.model.chat.request.ChatRequest[1];
        dev.langchain4j.model.chat.ChatModel capturing = new dev.langchain4j.model.chat.ChatModel() {
            @Override
            public dev.langchain4j.model.chat.response.ChatResponse doChat(
                    dev.langchain4j.model.chat.request.ChatRequest sent) {
                captured[0] = sent;
                return framework.doChat(sent);
            }
        };
        LangChain4jChatModel.of(capturing).chat(request);
        return captured[0];
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
     * The floor: the framework's own call with a request built once.
     *
     * @return LangChain4j's response
     */
    @Benchmark
    public dev.langchain4j.model.chat.response.ChatResponse direct() {
        return framework.chat(frameworkRequest);
    }
}
