package dev.taskagent.dashboard;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.steps.Step;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a task as the page's card, bounded: a text longer than its limit is cut, and a list longer than
 * its limit keeps its newest entries (its first ones, for steps); either way the card says so, with the
 * full length or count beside it and the field's name in {@code truncated}.
 *
 * <p>Immutable and thread-safe.
 */
final class CardJson {

    /** The limits of one view of a task. */
    record Limits(int descriptionChars, int textChars, int steps, int entries) {}

    /** A card on the board: enough to render, small enough for a thousand of them. */
    static final Limits BOARD = new Limits(2_000, 1_000, 100, 20);

    /** One task asked for by id. */
    static final Limits DETAIL = new Limits(100_000, 10_000, 1_000, 200);

    /** An entry of an agent's queue or of the dead letters. */
    static final Limits QUEUE = new Limits(200, 200, 0, 0);

    private CardJson() {}

    static void write(JsonGenerator json, Task task, Limits limits) throws IOException {
        List<String> truncated = new ArrayList<>();
        json.writeStartObject();
        json.writeNumberField("id", task.id());
        json.writeStringField("sessionId", task.sessionId());
        json.writeNumberField("order", task.order());
        text(json, "description", task.description(), limits.descriptionChars(), truncated);
        json.writeStringField("status", task.status().wireName());
        json.writeStringField("assignee", task.assignee());
        json.writeStringField("previousAssignee", task.previousAssignee());
        json.writeStringField("createdBy", task.createdBy());
        json.writeNumberField("priority", task.priority());
        json.writeBooleanField("archived", task.archived());
        json.writeNumberField("attempt", task.attempt());
        json.writeNumberField("maxAttempts", task.maxAttempts());
        instant(json, "leaseExpiresAt", task.leaseExpiresAt());
        json.writeBooleanField("deadLettered", isDeadLettered(task));
        instant(json, "createdAt", task.createdAt());
        instant(json, "updatedAt", task.updatedAt());
        json.writeNumberField("version", task.version());
        if (limits.entries() > 0) {
            text(json, "preference", task.userPreferenceText(), limits.textChars(), truncated);
            steps(json, task, limits, truncated);
            progresses(json, task.progresses(), limits, truncated);
            comments(json, task.comments(), limits, truncated);
            links(json, task.links(), limits, truncated);
            json.writeNumberField("messageCount", task.messageIds().size());
        }
        json.writeArrayFieldStart("truncated");
        for (String field : truncated) {
            json.writeString(field);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /** A task a lease reclaim failed because it had used its attempts: failed, with the reaper's comment. */
    static boolean isDeadLettered(Task task) {
        return task.status() == TaskStatus.FAILED
                && task.comments().stream().anyMatch(comment -> Leases.REAPER.equals(comment.author()));
    }

    private static void steps(JsonGenerator json, Task task, Limits limits, List<String> truncated) throws IOException {
        MarkdownSteps steps = MarkdownSteps.parse(task.hasSteps() ? task.steps() : "");
        json.writeNumberField("currentStep", task.currentStep());
        json.writeNumberField("stepsDone", steps.done());
        json.writeNumberField("stepsTotal", steps.total());
        json.writeArrayFieldStart("steps");
        int shown = Math.min(steps.total(), limits.steps());
        for (Step step : steps.steps().subList(0, shown)) {
            json.writeStartObject();
            json.writeNumberField("number", step.number());
            text(json, "text", step.text(), limits.textChars(), null);
            json.writeBooleanField("checked", step.checked());
            json.writeNumberField("depth", step.depth());
            json.writeEndObject();
        }
        json.writeEndArray();
        if (shown < steps.total()) {
            truncated.add("steps");
        }
    }

    private static void progresses(JsonGenerator json, List<String> progresses, Limits limits, List<String> truncated)
            throws IOException {
        json.writeNumberField("progressesTotal", progresses.size());
        json.writeArrayFieldStart("progresses");
        for (String progress : newest(progresses, limits.entries(), "progresses", truncated)) {
            text(json, null, progress, limits.textChars(), null);
        }
        json.writeEndArray();
    }

    private static void comments(JsonGenerator json, List<Comment> comments, Limits limits, List<String> truncated)
            throws IOException {
        json.writeNumberField("commentsTotal", comments.size());
        json.writeArrayFieldStart("comments");
        for (Comment comment : newest(comments, limits.entries(), "comments", truncated)) {
            json.writeStartObject();
            json.writeStringField("author", comment.author());
            text(json, "text", comment.text(), limits.textChars(), null);
            instant(json, "createdAt", comment.createdAt());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void links(JsonGenerator json, List<Link> links, Limits limits, List<String> truncated)
            throws IOException {
        json.writeNumberField("linksTotal", links.size());
        json.writeArrayFieldStart("links");
        for (Link link : newest(links, limits.entries(), "links", truncated)) {
            json.writeStartObject();
            text(json, "url", link.url(), limits.textChars(), null);
            text(json, "description", link.description(), limits.textChars(), null);
            json.writeStringField("author", link.author());
            instant(json, "createdAt", link.createdAt());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static <T> List<T> newest(List<T> entries, int limit, String field, List<String> truncated) {
        if (entries.size() <= limit) {
            return entries;
        }
        truncated.add(field);
        return entries.subList(entries.size() - limit, entries.size());
    }

    /**
     * Writes a text cut to a length; a cut text ends with an ellipsis, and for a named field the full length
     * is written beside it and the field is listed as truncated.
     */
    private static void text(JsonGenerator json, String field, String value, int limit, List<String> truncated)
            throws IOException {
        String shown = value;
        boolean cut = value != null && value.length() > limit;
        if (cut) {
            int end = limit;
            if (Character.isHighSurrogate(value.charAt(end - 1))) {
                end--; // never split a surrogate pair
            }
            shown = value.substring(0, end) + "\u2026";
        }
        if (field == null) {
            json.writeString(shown);
            return;
        }
        json.writeStringField(field, shown);
        if (cut && truncated != null) {
            json.writeNumberField(field + "Length", value.length());
            truncated.add(field);
        }
    }

    static void instant(JsonGenerator json, String field, Instant value) throws IOException {
        json.writeStringField(field, value == null ? null : value.toString());
    }
}
