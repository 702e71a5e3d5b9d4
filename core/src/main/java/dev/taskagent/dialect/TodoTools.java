package dev.taskagent.dialect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Json;
import dev.taskagent.internal.paging.SessionPages;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The todo-list dialect of coding agents, {@code TodoWrite} and {@code TodoRead}, on one session's tasks:
 * a model prompted for those tools keeps a durable, shared task list without learning taskagent's own tools,
 * and every write shows on the board and in the event feed.
 *
 * <p>{@code TodoWrite} sends the whole list each time; it is applied in one unit of work:
 *
 * <ul>
 *   <li>an item keeps its task across writes: it is the session's task whose description is the item's
 *       {@code content} (not archived); an item with new content becomes a new task, placed after the task
 *       of the item before it;
 *   <li>{@code pending} → pending, {@code in_progress} → running, {@code completed} → success; when an item
 *       enters {@code in_progress}, its {@code activeForm} ("Running the tests") is appended as the task's
 *       progress;
 *   <li>a task of the session that the list no longer names is archived;
 *   <li>at most one item may be {@code in_progress}, and no two items may have the same content: such a
 *       list is refused with an error the model can act on, and nothing is written.
 * </ul>
 *
 * <p>The list's order is the order of new items; tasks already in the session keep their places. {@code
 * TodoRead} returns the list as JSON, each item with its task's id; a task that failed reads as {@code
 * pending} with {@code "failed": true}, a cancelled one as {@code completed} with {@code "cancelled": true} (and
 * stays cancelled when written back as completed).
 *
 * <p>{@code TodoRead} reads the list a page at a time, in the list's order: at most {@code limit} items (100 when
 * absent, up to 500), fewer when they would take more than three quarters of the result budget. A page followed by
 * more says how many ({@code remaining}) and gives the {@code next_cursor} to pass as {@code cursor}; the pages of one
 * listing show every item that was in the list at its first page exactly once, however many items are added or
 * removed in between (added ones are counted on the last page, {@code added_since_first_page}, and read by a new
 * listing). An item that alone would not fit a page is shown with its content cut and {@code "content_cut": true}.
 * Without arguments a short list reads exactly as one page with no cursor. The session is read whole for each page
 * (the store has no paged read of a session).
 *
 * <p>Thread-safe when the store is.
 */
public final class TodoTools {
    /** The name models call the write by. */
    public static final String TODO_WRITE = "TodoWrite";

    /** The name models call the read by. */
    public static final String TODO_READ = "TodoRead";

    private static final String PENDING = "pending";
    private static final String IN_PROGRESS = "in_progress";
    private static final String COMPLETED = "completed";
    private static final List<String> STATUSES = List.of(PENDING, IN_PROGRESS, COMPLETED);

    /** The most tokens of an item's content in a page of one item that would not fit the result budget whole. */
    private static final int SHORT_CONTENT_TOKENS = 600;

    private final TaskStore store;
    private final String sessionId;

    private TodoTools(TaskStore store, String sessionId) {
        this.store = store;
        this.sessionId = sessionId;
    }

    /**
     * The two tools, on one session's tasks.
     *
     * @param store where the tasks are
     * @param sessionId the session whose tasks are the list
     * @return a toolbox of {@code TodoWrite} and {@code TodoRead}
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the session id is blank or too long
     */
    public static Toolbox forSession(TaskStore store, String sessionId) {
        Objects.requireNonNull(store, "store");
        StoreArguments.sessionId(sessionId);
        TodoTools tools = new TodoTools(store, sessionId);
        return Toolbox.of(tools.write(), tools.read()).withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    private Tool write() {
        JsonSchema item = JsonSchema.object()
                .requiredString("content", "What to do, in the imperative (\"Run the tests\")")
                .requiredStringEnum("status", "Where the item stands", STATUSES)
                .optionalString("activeForm", "The same in the present continuous (\"Running the tests\")")
                .optionalString("id", "Ignored; items are matched by their content")
                .optionalStringEnum("priority", "Ignored", List.of("high", "medium", "low"));
        return Tool.of(
                        TODO_WRITE,
                        "Replace the todo list of this session with the list you send: the whole list, every time."
                                + " Mark an item in_progress before you start it and completed as soon as it is done;"
                                + " at most one item is in_progress at a time. Items you leave out are removed.",
                        JsonSchema.object().requiredObjectArray("todos", "The whole updated todo list", item),
                        this::writeList)
                .withHints(
                        ToolHints.writing("Replace the todo list").destructive().idempotent());
    }

    private Tool read() {
        String listing = "dialect " + TODO_READ + "\u0000" + sessionId;
        return Tool.of(
                        TODO_READ,
                        "Read the todo list of this session: each item's content, status and id. Long lists come in"
                                + " pages: pass a page's next_cursor as cursor to get the next; read them all before a"
                                + " TodoWrite.",
                        SessionPages.schema(JsonSchema.object(), "items"),
                        arguments -> {
                            SessionPages.Request request = SessionPages.request(arguments, listing);
                            return store.inTransaction(
                                    tx -> SessionPages.render(request, tx.listTasks(sessionId), TodoTools::render));
                        })
                .withHints(ToolHints.readOnly("Read the todo list"));
    }

    /** One item of a TodoWrite, read and checked. */
    private record Item(String content, String status, String activeForm) {}

    private ToolResult writeList(ToolArguments arguments) {
        List<Item> items = items(arguments.requiredObjectList("todos"));
        Summary summary = store.inTransaction(tx -> apply(tx, items));
        StringBuilder text = new StringBuilder("Todo list saved (" + summary + "):");
        for (Item item : items) {
            text.append("\n- [").append(item.status()).append("] ").append(item.content());
        }
        return ToolResult.ok(text.toString());
    }

    private static List<Item> items(List<ToolArguments> todos) {
        List<Item> items = new ArrayList<>(todos.size());
        Set<String> contents = new HashSet<>();
        List<String> inProgress = new ArrayList<>();
        for (ToolArguments todo : todos) {
            String content = todo.requiredText("content").strip();
            if (content.isEmpty()) {
                throw new ToolArgumentException("An item's content is blank; write what to do.");
            }
            if (!contents.add(content)) {
                throw new ToolArgumentException(
                        "Two items have the content \"" + content + "\"; give each item its own words.");
            }
            String status = todo.requiredChoice("status", STATUSES);
            if (status.equals(IN_PROGRESS)) {
                inProgress.add(content);
            }
            items.add(new Item(content, status, todo.optionalText("activeForm").orElse(null)));
        }
        if (inProgress.size() > 1) {
            throw new ToolArgumentException("Only one item may be in_progress at a time; " + inProgress.size()
                    + " are: \"" + String.join("\", \"", inProgress)
                    + "\". Mark the others pending or completed.");
        }
        return items;
    }

    /** What a write did, for its result text. */
    private record Summary(int created, int updated, int removed) {
        @Override
        public String toString() {
            return created + " created, " + updated + " updated, " + removed + " removed";
        }
    }

    private Summary apply(TaskTransaction tx, List<Item> items) {
        Map<String, Task> byContent = new HashMap<>();
        for (Task task : live(tx)) {
            byContent.putIfAbsent(task.description(), task);
        }
        Set<Long> kept = new HashSet<>();
        int created = 0;
        int updated = 0;
        Long previous = null;
        for (Item item : items) {
            Task task = byContent.get(item.content());
            if (task == null) {
                int afterOrder = previous == null
                        ? 0
                        : tx.findTask(previous).orElseThrow().order();
                task = tx.insertTask(NewTask.builder(sessionId, item.content()).build(), afterOrder);
                created++;
            }
            TaskStatus wanted = status(item.status());
            if (task.status() == TaskStatus.CANCELLED && wanted == TaskStatus.SUCCESS) {
                wanted = TaskStatus.CANCELLED; // it reads as completed: sent back so, it stays cancelled
            }
            if (task.status() != wanted) {
                tx.updateTask(TaskUpdate.of(task.id()).status(wanted).build());
                if (wanted == TaskStatus.RUNNING
                        && item.activeForm() != null
                        && !item.activeForm().isBlank()) {
                    tx.appendProgress(task.id(), item.activeForm().strip());
                }
                if (byContent.containsKey(item.content())) {
                    updated++;
                }
            }
            kept.add(task.id());
            previous = task.id();
        }
        int removed = 0;
        for (Task task : live(tx)) {
            if (!kept.contains(task.id())) {
                tx.updateTask(TaskUpdate.of(task.id()).archived(true).build());
                removed++;
            }
        }
        return new Summary(created, updated, removed);
    }

    private List<Task> live(TaskTransaction tx) {
        return tx.listTasks(sessionId).stream().filter(task -> !task.archived()).toList();
    }

    private static TaskStatus status(String status) {
        return switch (status) {
            case IN_PROGRESS -> TaskStatus.RUNNING;
            case COMPLETED -> TaskStatus.SUCCESS;
            default -> TaskStatus.PENDING;
        };
    }

    /** A page of TodoRead as JSON: its items, then how many follow and the cursor, when more follow. */
    private static String render(SessionPages.Page page) {
        ObjectNode root = Json.mapper().createObjectNode();
        ArrayNode todos = root.putArray("todos");
        for (Task task : page.tasks()) {
            String content = page.shortened()
                    ? SessionPages.shorten(task.description(), SHORT_CONTENT_TOKENS)
                    : task.description();
            ObjectNode todo = todos.addObject()
                    .put("content", content)
                    .put("status", wireStatus(task.status()))
                    .put("id", Long.toString(task.id()));
            if (task.status() == TaskStatus.FAILED) {
                todo.put("failed", true);
            } else if (task.status() == TaskStatus.CANCELLED) {
                todo.put("cancelled", true);
            }
            if (!content.equals(task.description())) {
                todo.put("content_cut", true);
            }
        }
        if (page.nextCursor() != null) {
            root.put("remaining", page.remaining())
                    .put("next_cursor", page.nextCursor())
                    .put(
                            "note",
                            page.remaining() + (page.remaining() == 1 ? " more item" : " more items")
                                    + ": call TodoRead with this cursor for the next page. Read every page before"
                                    + " TodoWrite, which replaces the whole list.");
        } else if (page.added() > 0) {
            root.put("added_since_first_page", page.added())
                    .put("note", "Items were added since the first page: call TodoRead without a cursor to read them.");
        }
        return root.toString();
    }

    private static String wireStatus(TaskStatus status) {
        return switch (status) {
            case RUNNING -> IN_PROGRESS;
            case SUCCESS, CANCELLED -> COMPLETED;
            default -> PENDING;
        };
    }
}
