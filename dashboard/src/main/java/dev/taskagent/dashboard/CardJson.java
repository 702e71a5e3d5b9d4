package dev.taskagent.dashboard;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.json.TaskJson;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.task.Task;
import java.io.IOException;
import java.time.Instant;

/**
 * Writes a task as the page shows it: a view of core's one task model ({@link TaskJson}), bounded (a
 * longer text is cut with its full length beside it, a longer list keeps its newest entries with its count
 * beside it, and {@code truncated} names what was cut), plus {@code dead_lettered}, which only the board
 * shows: whether the board's queue counts the task as a dead letter ({@link TaskQueue#isDeadLetter(Task)}).
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

    /** Writes a card; {@code queue} tells whether it is a dead letter. */
    static void write(JsonGenerator json, Task task, TaskJson.View view, TaskQueue queue) throws IOException {
        write(json, task, view, queue, null);
    }

    /**
     * Writes a card with the work graph around it ({@link CardGraph}), or without when {@code graph} is null;
     * {@code queue} tells whether it is a dead letter.
     */
    static void write(JsonGenerator json, Task task, TaskJson.View view, TaskQueue queue, CardGraph graph)
            throws IOException {
        ObjectNode card = TaskJson.node(task, view);
        card.put("dead_lettered", queue.isDeadLetter(task));
        if (graph != null) {
            graph.write(card, task);
        }
        json.writeTree(card);
    }

    static void instant(JsonGenerator json, String field, Instant value) throws IOException {
        json.writeStringField(field, value == null ? null : value.toString());
    }
}
