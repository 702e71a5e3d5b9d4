package dev.taskagent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;

/** Turns LangChain4j's response into taskagent's. Stateless. */
final class ResponseMapping {
    private ResponseMapping() {}

    static ChatResponse toTaskagent(dev.langchain4j.model.chat.response.ChatResponse response) {
        AiMessage message = response.aiMessage();
        List<ToolCall> calls = new ArrayList<>();
        if (message != null && message.hasToolExecutionRequests()) {
            int index = 0;
            for (ToolExecutionRequest request : message.toolExecutionRequests()) {
                calls.add(new ToolCall(
                        // Some providers (Gemini, Ollama) give no call id; taskagent answers each call by id.
                        request.id() == null || request.id().isBlank() ? "call-" + index : request.id(),
                        request.name(),
                        request.arguments() == null ? "" : request.arguments()));
                index++;
            }
        }
        String text = message == null || message.text() == null ? "" : message.text();
        return new ChatResponse(text, calls, finishReason(response.finishReason(), calls), usage(response));
    }

    private static FinishReason finishReason(dev.langchain4j.model.output.FinishReason reason, List<ToolCall> calls) {
        if (reason == null) {
            return calls.isEmpty() ? FinishReason.OTHER : FinishReason.TOOL_CALLS;
        }
        return switch (reason) {
            case STOP -> calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            case TOOL_EXECUTION -> FinishReason.TOOL_CALLS;
            case LENGTH -> FinishReason.LENGTH;
            case CONTENT_FILTER -> FinishReason.CONTENT_FILTER;
            case OTHER -> FinishReason.OTHER;
        };
    }

    private static TokenUsage usage(dev.langchain4j.model.chat.response.ChatResponse response) {
        dev.langchain4j.model.output.TokenUsage usage = response.tokenUsage();
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        return new TokenUsage(count(usage.inputTokenCount()), count(usage.outputTokenCount()));
    }

    private static long count(Integer tokens) {
        return tokens == null || tokens < 0 ? 0 : tokens;
    }
}
