package dev.taskagent.extraction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.extraction.MessagePart.FilePart;
import dev.taskagent.extraction.MessagePart.TextPart;
import dev.taskagent.extraction.MessagePart.ToolCallPart;
import dev.taskagent.extraction.MessagePart.ToolResultPart;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.task.Task;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Renders the one user message the model reads at the start of a run: the session's task list, its
 * latest progress entries and the batch of messages, numbered 0..n-1.
 *
 * <p>Each variable text (a message part, a description, a preference, a progress entry) is cut at the
 * truncation length with a visible mark, so one huge message or task cannot crowd out the rest.
 */
final class InputRenderer {
    private static final Pattern LINE_BREAK = Pattern.compile("\\s*\\R\\s*");

    static final String TASKS_HEADER = "## Current Existing Tasks:";
    static final String PROGRESS_HEADER = "## Previous Progress:";
    static final String MESSAGES_HEADER = "## Current Message with IDs:";

    private final int previousProgressWindow;
    private final int truncationLength;

    InputRenderer(int previousProgressWindow, int truncationLength) {
        this.previousProgressWindow = previousProgressWindow;
        this.truncationLength = truncationLength;
    }

    String render(List<Task> tasks, MessageBatch batch) {
        StringBuilder out = new StringBuilder();
        out.append(TASKS_HEADER).append('\n');
        if (tasks.isEmpty()) {
            out.append("(no tasks yet)\n");
        }
        for (Task task : tasks) {
            out.append("- ").append(renderTaskLine(task)).append('\n');
        }
        out.append('\n').append(PROGRESS_HEADER).append('\n');
        List<String> progress = renderPreviousProgress(tasks);
        if (progress.isEmpty()) {
            out.append("(no progress yet)\n");
        }
        progress.forEach(line -> out.append(line).append('\n'));
        out.append('\n').append(MESSAGES_HEADER).append('\n');
        out.append(renderMessages(batch));
        return out.toString();
    }

    /**
     * Renders one task of the listing: {@code Task {order}: {description} (Status: {status})}, followed by
     * {@code | User Prefs: "…"} when the task has a preference and {@code | Steps 1/2} (steps done / steps)
     * when it has steps. Every line of the listing comes from here.
     */
    String renderTaskLine(Task task) {
        StringBuilder line = new StringBuilder()
                .append("Task ")
                .append(task.order())
                .append(": ")
                .append(truncate(oneLine(task.description())))
                .append(" (Status: ")
                .append(task.status().wireName())
                .append(')');
        String preferences = task.userPreferenceText();
        if (!preferences.isBlank()) {
            line.append(" | User Prefs: \"")
                    .append(truncate(oneLine(preferences)))
                    .append('"');
        }
        if (task.hasSteps()) {
            MarkdownSteps steps = MarkdownSteps.parse(task.steps());
            if (!steps.isEmpty()) {
                line.append(" | ").append(steps.progressLabel());
            }
        }
        return line.toString();
    }

    /**
     * Joins the lines of a stored text with single spaces: each task and each progress entry must stay on
     * one line of the listing, or a multi-line description could pass for another task's line.
     */
    static String oneLine(String text) {
        return LINE_BREAK.matcher(text).replaceAll(" ");
    }

    /** The last N progress entries of the session, oldest first, in task order then entry order. */
    List<String> renderPreviousProgress(List<Task> tasks) {
        List<String> all = new ArrayList<>();
        for (Task task : tasks) {
            for (String progress : task.progresses()) {
                all.add("Task " + task.order() + ": " + truncate(oneLine(progress)));
            }
        }
        return List.copyOf(all.subList(Math.max(0, all.size() - previousProgressWindow), all.size()));
    }

    String renderMessages(MessageBatch batch) {
        Map<String, String> toolNamesByCallId = new HashMap<>();
        for (ConversationMessage message : batch.messages()) {
            for (MessagePart part : message.parts()) {
                if (part instanceof ToolCallPart call) {
                    toolNamesByCallId.putIfAbsent(call.callId(), call.toolName());
                }
            }
        }
        StringBuilder out = new StringBuilder();
        List<ConversationMessage> messages = batch.messages();
        for (int number = 0; number < messages.size(); number++) {
            ConversationMessage message = messages.get(number);
            out.append("<message id=").append(number).append(">\n");
            for (MessagePart part : message.parts()) {
                out.append(message.role().label())
                        .append('(')
                        .append(partType(part))
                        .append("): ")
                        .append(truncate(partContent(part, toolNamesByCallId)))
                        .append('\n');
            }
            out.append("</message>\n");
        }
        return out.toString();
    }

    /**
     * Cuts a text at the truncation length and marks the cut; a surrogate pair is never split.
     *
     * @param text any text
     * @return the text, or its first characters followed by {@code … [truncated: N more characters]}
     */
    String truncate(String text) {
        if (text.length() <= truncationLength) {
            return text;
        }
        int end = Texts.cutIndex(text, truncationLength);
        return text.substring(0, end) + truncationMark(text.length() - end);
    }

    static String truncationMark(int omitted) {
        return "… [truncated: " + omitted + " more characters]";
    }

    private static String partType(MessagePart part) {
        if (part instanceof TextPart) {
            return "text";
        } else if (part instanceof ToolCallPart) {
            return "tool-call";
        } else if (part instanceof ToolResultPart) {
            return "tool-result";
        } else {
            return "file";
        }
    }

    private static String partContent(MessagePart part, Map<String, String> toolNamesByCallId) {
        if (part instanceof TextPart text) {
            return text.text();
        } else if (part instanceof ToolCallPart call) {
            ObjectNode json = Json.mapper().createObjectNode();
            json.put("tool_name", call.toolName());
            json.set("arguments", argumentsAsJson(call.argumentsJson()));
            return json.toString();
        } else if (part instanceof ToolResultPart result) {
            ObjectNode json = Json.mapper().createObjectNode();
            json.put("tool_name", toolNamesByCallId.get(result.callId()));
            json.put("result", result.result());
            return json.toString();
        } else {
            return "[file: " + ((FilePart) part).name() + "]";
        }
    }

    /** Arguments that parse as JSON are shown as JSON; anything else as a JSON string. */
    private static JsonNode argumentsAsJson(String argumentsJson) {
        if (!argumentsJson.isBlank()) {
            try {
                JsonNode parsed = Json.mapper().readTree(argumentsJson);
                if (parsed != null && !parsed.isMissingNode()) {
                    return parsed;
                }
            } catch (IOException e) {
                // not JSON: shown as a string below
            }
        }
        return Json.mapper().getNodeFactory().textNode(argumentsJson);
    }
}
