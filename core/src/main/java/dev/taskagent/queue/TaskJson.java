package dev.taskagent.queue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.Texts;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;

/**
 * Renders tasks for a model, compactly: every tool result is paid for in tokens, so fields that are
 * empty, null or false are left out, timestamps and store bookkeeping (session, order, version, message
 * ids) are not shown, and comments and links are listed oldest first, one string each, without their
 * times: a comment as {@code "author: text"}, a link as a Markdown link followed by its author ({@code
 * "[design doc](https://example.com/d) by carol"}, or {@code "https://example.com/d by carol"} without a
 * description). Measured with a real tokenizer, one string per entry costs about five tokens less than
 * an object with named fields.
 *
 * <p>Thread-safe (stateless).
 */
final class TaskJson {
    /** Descriptions in a queue listing are cut here; {@code get_task} shows the whole text. */
    static final int LISTING_DESCRIPTION_LENGTH = 120;

    /**
     * The output schema of the tools whose result is a task ({@code signup_for_task}, {@code move_task},
     * {@code get_task}): their structured content is {@code {"task": <the task as rendered>}}, or {@code
     * {}} when {@code signup_for_task} finds no idle task. Fields that are empty are left out.
     */
    static final String RESULT_SCHEMA = """
            {"type":"object","properties":{"task":{"type":"object","properties":{\
            "id":{"type":"integer","minimum":1},\
            "status":{"type":"string","enum":["pending","running","success","failed"]},\
            "priority":{"type":"integer"},\
            "assignee":{"type":"string"},\
            "previous_assignee":{"type":"string"},\
            "created_by":{"type":"string"},\
            "attempt":{"type":"integer","minimum":1},\
            "lease_until":{"type":"string"},\
            "description":{"type":"string"},\
            "steps":{"type":"string"},\
            "current_step":{"type":"integer","minimum":1},\
            "progress":{"type":"array","items":{"type":"string"}},\
            "preference":{"type":"string"},\
            "comments":{"type":"array","items":{"type":"string"}},\
            "links":{"type":"array","items":{"type":"string"}},\
            "archived":{"type":"boolean"}},\
            "required":["id","status","priority","description"]}}}""";

    /** The structured content of a result without a task. */
    static final String NO_TASK = "{}";

    private TaskJson() {}

    /**
     * Renders a task as the structured content of a tool result, {@code {"task": {...}}}, from the task
     * itself: never from a result's text, which holds names and texts that a caller chose.
     *
     * @param task the task
     * @return the structured content, conforming to {@link #RESULT_SCHEMA}
     */
    static String result(Task task) {
        return "{\"task\":" + render(task) + "}";
    }

    /**
     * Renders a task with its comments and links as one line of JSON.
     *
     * @param task the task
     * @return e.g. {@code {"id":7,"status":"running","priority":2,"assignee":"bob",...}}
     */
    static String render(Task task) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("id", task.id());
        node.put("status", task.status().wireName());
        node.put("priority", task.priority());
        putIfPresent(node, "assignee", task.assignee());
        putIfPresent(node, "previous_assignee", task.previousAssignee());
        putIfPresent(node, "created_by", task.createdBy());
        if (task.isLeased()) {
            node.put("attempt", task.attempt());
            node.put("lease_until", task.leaseExpiresAt().toString());
        }
        node.put("description", task.description());
        if (task.hasSteps()) {
            node.put("steps", task.steps());
            if (task.currentStep() > 0) {
                node.put("current_step", task.currentStep());
            }
        }
        if (!task.progresses().isEmpty()) {
            ArrayNode progress = node.putArray("progress");
            task.progresses().forEach(progress::add);
        }
        if (!task.userPreferences().isEmpty()) {
            node.put("preference", task.userPreferenceText());
        }
        if (!task.comments().isEmpty()) {
            ArrayNode comments = node.putArray("comments");
            for (Comment comment : task.comments()) {
                comments.add(comment.author() + ": " + comment.text());
            }
        }
        if (!task.links().isEmpty()) {
            ArrayNode links = node.putArray("links");
            for (Link link : task.links()) {
                links.add(linkText(link));
            }
        }
        if (task.archived()) {
            node.put("archived", true);
        }
        return node.toString();
    }

    /**
     * Renders a task as one line of a queue listing: id, status, priority and the start of the
     * description on one line.
     *
     * @param task the task
     * @return e.g. {@code #7 running p2: Fix the login redirect}, or {@code #8 pending p0 (Steps 1/2): Plan the
     *     trip} for a task with steps
     */
    static String listingLine(Task task) {
        String description = Texts.abbreviate(Texts.oneLine(task.description()), LISTING_DESCRIPTION_LENGTH);
        String steps =
                task.hasSteps() ? " (" + MarkdownSteps.parse(task.steps()).progressLabel() + ")" : "";
        return "#" + task.id() + " " + task.status().wireName() + " p" + task.priority() + steps + ": " + description;
    }

    private static String linkText(Link link) {
        String target = link.description().isBlank() ? link.url() : "[" + link.description() + "](" + link.url() + ")";
        return target + " by " + link.author();
    }

    private static void putIfPresent(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
    }
}
