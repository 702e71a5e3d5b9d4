package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * The two calls SpringAiBridgeBenchmark times do the work it claims: the bridge maps the whole request and
 * answer, and the direct call sends the very prompt the bridge builds, so their difference is the mapping.
 */
class SpringAiBridgeBenchmarkTest {
    private final SpringAiBridgeBenchmark benchmark = new SpringAiBridgeBenchmark();

    @Test
    void theBridgeCallReturnsTheModelsToolCallWithItsFinishReasonAndUsage() {
        ChatResponse response = benchmark.bridge();

        assertThat(response)
                .isEqualTo(new ChatResponse(
                        "",
                        List.of(new ToolCall("call_1", "signup_for_task", "{\"agent_name\": \"alice\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(1200, 20)));
    }

    @Test
    void theDirectCallSendsThePromptTheBridgeBuiltWithEveryQueueTool() {
        org.springframework.ai.chat.model.ChatResponse response = benchmark.direct();
        int queueTools = TaskQueue.builder(new InMemoryTaskStore())
                .build()
                .tools()
                .definitions()
                .size();

        assertThat(response.getResult().getOutput().getToolCalls()).hasSize(1);
        assertThat(benchmark.frameworkPrompt().getInstructions())
                .extracting(message -> message.getMessageType())
                .containsExactly(
                        MessageType.SYSTEM,
                        MessageType.USER,
                        MessageType.ASSISTANT,
                        MessageType.TOOL,
                        MessageType.USER);
        assertThat(benchmark.frameworkPrompt().getOptions())
                .isInstanceOfSatisfying(ToolCallingChatOptions.class, options -> assertThat(options.getToolCallbacks())
                        .hasSize(queueTools)
                        .isNotEmpty());
    }
}
