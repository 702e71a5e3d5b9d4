package dev.taskagent.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The work graph around the cards of one answer: for each card, the tasks it waits for ({@code blockers}),
 * the tasks that wait for it ({@code dependants}), its subtasks ({@code children}, with how many are done)
 * and its {@code parent}, each as a short reference that the page turns into a link. Every list holds at
 * most {@value #MAX_RELATED} references; its total stands beside it.
 *
 * <p>The reverse edges (dependants, children) come from the store's {@code listDependants} and {@code
 * listChildren}, read in one unit of work for the cards of the answer. A store that does not implement the
 * work graph throws {@link UnsupportedOperationException} there; the board then derives them from the tasks
 * of the card's own session, which it has read anyway, and says so with {@link #complete()} false.
 *
 * <p>Immutable once built; thread-confined to the request that built it.
 */
final class CardGraph {
    /** The most blockers, dependants or children listed on one card. */
    static final int MAX_RELATED = 50;

    /** The longest description of a reference, in characters. */
    static final int REFERENCE_CHARS = 120;

    private final Map<Long, Task> known;
    private final Map<Long, List<Task>> dependants;
    private final Map<Long, List<Task>> children;
    private final boolean complete;

    private CardGraph(
            Map<Long, Task> known, Map<Long, List<Task>> dependants, Map<Long, List<Task>> children, boolean complete) {
        this.known = known;
        this.dependants = dependants;
        this.children = children;
        this.complete = complete;
    }

    /**
     * Reads the graph around some cards.
     *
     * @param store the store
     * @param cards the tasks whose cards are written
     * @param sessionTasks the tasks of the cards' session (read only when the store lacks the reverse edges,
     *     or to resolve references without asking the store again)
     */
    static CardGraph read(TaskStore store, List<Task> cards, Supplier<List<Task>> sessionTasks) {
        Map<Long, Task> known = new HashMap<>();
        cards.forEach(task -> known.put(task.id(), task));
        Map<Long, List<Task>> dependants = new HashMap<>();
        Map<Long, List<Task>> children = new HashMap<>();
        boolean complete;
        try {
            store.inTransaction(transaction -> {
                for (Task task : cards) {
                    dependants.put(task.id(), transaction.listDependants(task.id()));
                    children.put(task.id(), transaction.listChildren(task.id()));
                }
                return null;
            });
            complete = true;
        } catch (UnsupportedOperationException e) {
            // A store without the work graph: what the card's session shows is what the board can tell.
            dependants.clear();
            children.clear();
            List<Task> session = new ArrayList<>(sessionTasks.get());
            session.sort(Comparator.comparingLong(Task::id));
            for (Task task : session) {
                known.putIfAbsent(task.id(), task);
                for (long blocker : task.blockedBy()) {
                    dependants.computeIfAbsent(blocker, id -> new ArrayList<>()).add(task);
                }
                if (task.hasParent()) {
                    children.computeIfAbsent(task.parentId(), id -> new ArrayList<>())
                            .add(task);
                }
            }
            complete = false;
        }
        dependants.values().forEach(list -> list.forEach(task -> known.putIfAbsent(task.id(), task)));
        children.values().forEach(list -> list.forEach(task -> known.putIfAbsent(task.id(), task)));
        Set<Long> missing = new LinkedHashSet<>();
        for (Task task : cards) {
            for (long blocker : firstOf(task.blockedBy())) {
                if (!known.containsKey(blocker)) {
                    missing.add(blocker);
                }
            }
            if (task.hasParent() && !known.containsKey(task.parentId())) {
                missing.add(task.parentId());
            }
        }
        if (!missing.isEmpty()) {
            store.inTransaction(transaction -> {
                for (long id : missing) {
                    transaction.findTask(id).ifPresent(task -> known.put(id, task));
                }
                return null;
            });
        }
        return new CardGraph(known, dependants, children, complete);
    }

    /** Whether dependants and children come from the store (true) or only from the cards' session (false). */
    boolean complete() {
        return complete;
    }

    /** Adds the graph fields of one card to its JSON. */
    void write(ObjectNode card, Task task) {
        ArrayNode blockers = card.putArray("blockers");
        ArrayNode failed = card.putArray("failed_blockers");
        for (long id : firstOf(task.blockedBy())) {
            Task blocker = known.get(id);
            if (blocker != null) {
                reference(blockers.addObject(), blocker);
                if (blocker.status() == TaskStatus.FAILED) {
                    failed.add(id);
                }
            }
        }
        List<Task> waiting = dependants.getOrDefault(task.id(), List.of());
        card.put("dependants_total", waiting.size());
        ArrayNode dependantNodes = card.putArray("dependants");
        firstOf(waiting).forEach(dependant -> reference(dependantNodes.addObject(), dependant));
        List<Task> subtasks = children.getOrDefault(task.id(), List.of());
        card.put("children_total", subtasks.size());
        card.put(
                "children_done",
                subtasks.stream()
                        .filter(child -> child.status() == TaskStatus.SUCCESS)
                        .count());
        ArrayNode childNodes = card.putArray("children");
        firstOf(subtasks).forEach(child -> reference(childNodes.addObject(), child));
        Task parent = task.hasParent() ? known.get(task.parentId()) : null;
        if (parent == null) {
            card.putNull("parent");
        } else {
            reference(card.putObject("parent"), parent);
        }
    }

    private static void reference(ObjectNode node, Task task) {
        node.put("id", task.id());
        node.put("session_id", task.sessionId());
        node.put("status", task.status().wireName());
        node.put("archived", task.archived());
        node.put("open_blockers", task.openBlockers());
        String description = task.description();
        node.put(
                "description",
                description.length() <= REFERENCE_CHARS
                        ? description
                        : QueryParameters.cut(description, REFERENCE_CHARS));
    }

    private static <T> List<T> firstOf(List<T> list) {
        return list.size() <= MAX_RELATED ? list : list.subList(0, MAX_RELATED);
    }
}
