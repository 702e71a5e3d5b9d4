package dev.taskagent.examples.spring;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An offline stand-in for a model: answers the extraction agent's first request with {@code insert_task} for the
 * whole of the last message, and the next one with {@code finish}. Counts a few tokens so that the metrics show
 * something. Thread-safe.
 */
final class OneTaskPerMessageModel implements ChatModel {
    private final AtomicLong callIds = new AtomicLong();

    @Override
    public ChatResponse chat(ChatRequest request) {
        boolean toolsRan = request.messages().stream().anyMatch(ToolResultMessage.class::isInstance);
        String call = "call_" + callIds.incrementAndGet();
        if (toolsRan) {
            return new ChatResponse(
                    "", List.of(new ToolCall(call, "finish", "{}")), FinishReason.TOOL_CALLS, new TokenUsage(60, 5));
        }
        String message = request.messages().stream()
                .filter(UserMessage.class::isInstance)
                .map(UserMessage.class::cast)
                .map(UserMessage::text)
                .reduce((first, second) -> second)
                .orElse("");
        String json = "{\"after_task_order\": 0, \"task_description\": " + quoted(lastLine(message)) + "}";
        return new ChatResponse(
                "", List.of(new ToolCall(call, "insert_task", json)), FinishReason.TOOL_CALLS, new TokenUsage(50, 12));
    }

    @Override
    public String providerName() {
        return "taskdesk";
    }

    @Override
    public String modelName() {
        return "one-task-per-message";
    }

    /** The text of the last message part in the agent's input, where each part is a line {@code role(type): text}. */
    private static String lastLine(String input) {
        String last = "";
        for (String line : input.split("\n")) {
            int marker = line.indexOf("): ");
            if (marker > 0 && !line.startsWith("- ")) {
                last = line.substring(marker + 3).strip();
            }
        }
        return last.isEmpty() ? "(empty message)" : last;
    }

    private static String quoted(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }

    @Override
    public String toString() {
        return "OneTaskPerMessageModel";
    }
}
