package dev.taskagent.dashboard;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.store.spi.Leases;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.IOException;
import java.time.Instant;

/**
 * Writes a task as the page shows it: a view of core's one task model ({@link TaskJson}), bounded (a
 * longer text is cut with its full length beside it, a longer list keeps its newest entries with its count
 * beside it, and {@code truncated} names what was cut), plus {@code dead_lettered}, which only the board
 * shows.
 *
 * <p>Immutable and thread-safe.
 */
final class CardJson {
    /** A card on the board. */
    static final TaskJson.View BOARD = TaskJson.View.CARD;

    /** One task asked for by id. */
    static final TaskJson.View DETAIL = TaskJson.View.DETAIL;

    /** An entry of an agent's queue or of the dead letters. */
    static final TaskJson.View QUEUE = TaskJson.View.QUEUE_ENTRY;

    private CardJson() {}

    static void write(JsonGenerator json, Task task, TaskJson.View view) throws IOException {
        write(json, task, view, null);
    }

    /** Writes a card with the work graph around it ({@link CardGraph}), or without when {@code graph} is null. */
    static void write(JsonGenerator json, Task task, TaskJson.View view, CardGraph graph) throws IOException {
        ObjectNode card = TaskJson.node(task, view);
        card.put("dead_lettered", isDeadLettered(task));
        if (graph != null) {
            graph.write(card, task);
        }
        json.writeTree(card);
    }

    /** A task a lease reclaim failed because it had used its attempts: failed, with the reaper's comment. */
    static boolean isDeadLettered(Task task) {
        return task.status() == TaskStatus.FAILED
                && task.comments().stream().anyMatch(comment -> Leases.REAPER.equals(comment.author()));
    }

    static void instant(JsonGenerator json, String field, Instant value) throws IOException {
        json.writeStringField(field, value == null ? null : value.toString());
    }
}
