package dev.taskagent.dialect;

import dev.taskagent.internal.paging.SessionPages;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskRefusedException;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The task-list dialect of Claude Code and of agents built like it, {@code TaskCreate}, {@code TaskGet},
 * {@code TaskUpdate} and {@code TaskList}, on one session's tasks: a model prompted for those tools keeps a
 * durable task list with dependencies and owners that several agents, in several processes, share through
 * the store, and every change shows on the board and in the event feed.
 *
 * <ul>
 *   <li>A task's id is its taskagent id, as a string. The {@code subject} is the first line of the task's
 *       description; a {@code description} follows it after an empty line.
 *   <li>{@code pending} → pending, {@code in_progress} → running, {@code completed} → success, {@code
 *       deleted} → archived. Entering {@code in_progress} appends the {@code activeForm} ("Running the
 *       tests") as the task's progress.
 *   <li>{@code owner} is the task's assignee. {@code addBlockedBy} makes the task wait for others, {@code
 *       addBlocks} makes others wait for it: the work graph's dependencies, refused with the cycle named
 *       when one would close a cycle. A claim through the queue hands out a task only once its blockers
 *       completed.
 *   <li>A task of another session reads as not found. A refused update writes nothing.
 *   <li>{@code TaskList} lists the tasks that are not deleted in the session's order, one line each, a page at a
 *       time: at most {@code limit} tasks (100 when absent, up to 500), fewer when their lines would take more
 *       than three quarters of the result budget. A page followed by more ends with how many and the {@code
 *       cursor} of the next page; the pages of one listing show every task that was in the list at its first page
 *       exactly once, however many tasks are created or deleted in between (created ones are counted on the last
 *       page, and listed by a new listing). Without arguments a short list reads as one page with no cursor. The
 *       session is read whole for each page (the store has no paged read of a session).
 * </ul>
 *
 * <p>Needs a store that keeps the work graph for {@code addBlocks} and {@code addBlockedBy}. Thread-safe when
 * the store is.
 */
public final class ClaudeTaskTools {
    /** The name models call the create by. */
    public static final String TASK_CREATE = "TaskCreate";

    /** The name models call the read of one task by. */
    public static final String TASK_GET = "TaskGet";

    /** The name models call the update by. */
    public static final String TASK_UPDATE = "TaskUpdate";

    /** The name models call the list by. */
    public static final String TASK_LIST = "TaskList";

    private static final String PENDING = "pending";
    private static final String IN_PROGRESS = "in_progress";
    private static final String COMPLETED = "completed";
    private static final String DELETED = "deleted";
    private static final List<String> STATUSES = List.of(PENDING, IN_PROGRESS, COMPLETED, DELETED);

    /** The most tokens of a subject on a shortened line of TaskList. */
    private static final int SHORT_SUBJECT_TOKENS = 300;

    /** The most blockers a shortened line of TaskList names. */
    private static final int SHORT_LINE_BLOCKERS = 20;

    private final TaskStore store;
    private final String sessionId;

    private ClaudeTaskTools(TaskStore store, String sessionId) {
        this.store = store;
        this.sessionId = sessionId;
    }

    /**
     * The four tools, on one session's tasks.
     *
     * @param store where the tasks are
     * @param sessionId the session whose tasks are the list
     * @return a toolbox of {@code TaskCreate}, {@code TaskGet}, {@code TaskUpdate} and {@code TaskList}
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the session id is blank or too long
     */
    public static Toolbox forSession(TaskStore store, String sessionId) {
        Objects.requireNonNull(store, "store");
        StoreArguments.sessionId(sessionId);
        ClaudeTaskTools tools = new ClaudeTaskTools(store, sessionId);
        return Toolbox.of(tools.create(), tools.get(), tools.update(), tools.list())
                .withResultBudget(Toolbox.DEFAULT_RESULT_BUDGET);
    }

    private Tool create() {
        return Tool.of(
                        TASK_CREATE,
                        "Create a task in this session's task list. It starts pending, with no owner and no dependencies;"
                                + " use TaskUpdate to set those.",
                        JsonSchema.object()
                                .requiredString("subject", "A brief title, in the imperative (\"Run the tests\")")
                                .requiredString("description", "What needs to be done, in detail")
                                .optionalString(
                                        "activeForm", "The title in the present continuous (\"Running the tests\")"),
                        arguments -> {
                            String text = text(arguments);
                            Task task = store.inTransaction(tx -> tx.appendTask(NewTask.of(sessionId, text)));
                            return ToolResult.ok("Task #" + task.id() + " created successfully: " + subject(task));
                        })
                .withHints(ToolHints.writing("Create a task"));
    }

    private Tool get() {
        return Tool.of(
                        TASK_GET,
                        "Read one task of this session's list: its subject, description, status, owner, what it is"
                                + " blocked by and what it blocks.",
                        JsonSchema.object().requiredString("taskId", "The task's id"),
                        arguments -> {
                            long id = id(arguments.requiredText("taskId"), "taskId");
                            return store.inTransaction(tx -> {
                                Optional<Task> task = own(tx, id);
                                if (task.isEmpty()) {
                                    return ToolResult.error("Task not found");
                                }
                                return ToolResult.ok(details(tx, task.get()));
                            });
                        })
                .withHints(ToolHints.readOnly("Read a task"));
    }

    private Tool update() {
        return Tool.of(
                        TASK_UPDATE,
                        "Update a task of this session's list: its status (mark it in_progress before you start and"
                                + " completed when done; deleted removes it), subject, description, owner, and the tasks it"
                                + " is blocked by or blocks.",
                        JsonSchema.object()
                                .requiredString("taskId", "The task's id")
                                .optionalStringEnum("status", "The new status", STATUSES)
                                .optionalString("subject", "A new title")
                                .optionalString("description", "A new description")
                                .optionalString(
                                        "activeForm", "The title in the present continuous, shown while in progress")
                                .optionalString("owner", "The agent that works the task")
                                .optionalStringArray(
                                        "addBlockedBy", "Ids of tasks that must be completed before this one")
                                .optionalStringArray(
                                        "addBlocks", "Ids of tasks that cannot start until this one is completed"),
                        this::applyUpdate)
                .withHints(ToolHints.writing("Update a task"));
    }

    private Tool list() {
        String listing = "dialect " + TASK_LIST + "\u0000" + sessionId;
        return Tool.of(
                        TASK_LIST,
                        "List this session's tasks: id, status, subject, owner, and the unfinished tasks each one waits"
                                + " for. Long lists come in pages: pass the cursor a page ends with to get the next.",
                        SessionPages.schema(JsonSchema.object(), "tasks"),
                        arguments -> {
                            SessionPages.Request request = SessionPages.request(arguments, listing);
                            return store.inTransaction(tx -> {
                                // One read of the session: blockers are looked up in it, not one read each.
                                List<Task> all = tx.listTasks(sessionId); // in the session's order (TS-2.2)
                                Map<Long, Task> session = new HashMap<>();
                                all.forEach(task -> session.put(task.id(), task));
                                Map<Long, String> lines = new HashMap<>();
                                return SessionPages.render(request, all, page -> listText(tx, session, page, lines));
                            });
                        })
                .withHints(ToolHints.readOnly("List the tasks"));
    }

    /** A page of TaskList: one line per task, then how many follow and the cursor, when more follow. */
    private static String listText(
            TaskTransaction tx, Map<Long, Task> session, SessionPages.Page page, Map<Long, String> lines) {
        StringBuilder text = new StringBuilder();
        if (page.tasks().isEmpty()) {
            text.append(page.continued() ? "No more tasks." : "No tasks.");
        } else if (page.shortened()) {
            text.append(line(tx, session, page.tasks().get(0), true));
        } else {
            text.append(page.tasks().stream()
                    .map(task -> lines.computeIfAbsent(task.id(), id -> line(tx, session, task, false)))
                    .collect(Collectors.joining("\n")));
        }
        return text.append(page.footer(TASK_LIST)).toString();
    }

    private ToolResult applyUpdate(ToolArguments arguments) {
        long id = id(arguments.requiredText("taskId"), "taskId");
        Optional<String> status = arguments.optionalChoice("status", STATUSES);
        Optional<String> subject = arguments.optionalText("subject").map(String::strip);
        Optional<String> description = arguments.optionalText("description");
        Optional<String> activeForm = arguments.optionalText("activeForm").map(String::strip);
        Optional<String> owner = arguments.optionalString("owner").map(String::strip);
        List<Long> blockedBy = ids(arguments.optionalStringList("addBlockedBy").orElse(List.of()), "addBlockedBy");
        List<Long> blocks = ids(arguments.optionalStringList("addBlocks").orElse(List.of()), "addBlocks");
        subject.ifPresent(ClaudeTaskTools::checkSubject);
        owner.ifPresent(name -> agentName(name));
        try {
            return store.inTransaction(tx -> {
                Task task = own(tx, id).orElse(null);
                if (task == null) {
                    return ToolResult.error("Task not found");
                }
                List<String> changed = new ArrayList<>();
                if (subject.isPresent() || description.isPresent()) {
                    String newSubject = subject.orElse(subject(task));
                    String newDescription = description.orElse(detail(task));
                    tx.updateTask(TaskUpdate.of(id)
                            .description(join(newSubject, newDescription))
                            .build());
                    subject.ifPresent(value -> changed.add("subject"));
                    description.ifPresent(value -> changed.add("description"));
                }
                if (owner.isPresent()) {
                    tx.updateTask(TaskUpdate.of(id)
                            .assignee(owner.get().isEmpty() ? null : owner.get())
                            .build());
                    changed.add("owner");
                }
                for (long blocker : blockedBy) {
                    requireOwn(tx, blocker, "addBlockedBy");
                    tx.addDependency(id, blocker);
                    changed.add("blockedBy #" + blocker);
                }
                for (long dependant : blocks) {
                    requireOwn(tx, dependant, "addBlocks");
                    tx.addDependency(dependant, id);
                    changed.add("blocks #" + dependant);
                }
                if (status.isPresent()) {
                    Task now = tx.findTask(id).orElseThrow();
                    if (status.get().equals(DELETED)) {
                        tx.updateTask(TaskUpdate.of(id).archived(true).build());
                    } else if (now.status() != taskStatus(status.get())) {
                        tx.updateTask(TaskUpdate.of(id)
                                .status(taskStatus(status.get()))
                                .build());
                        if (status.get().equals(IN_PROGRESS)
                                && activeForm.filter(text -> !text.isEmpty()).isPresent()) {
                            tx.appendProgress(id, activeForm.get());
                        }
                    }
                    changed.add("status");
                }
                if (changed.isEmpty()) {
                    return ToolResult.ok("Task #" + id + " unchanged: no field to update was given");
                }
                return ToolResult.ok("Updated task #" + id + " " + String.join(", ", changed));
            });
        } catch (TaskRefusedException e) {
            // A cycle, a duplicate dependency or open subtasks: the store wrote nothing.
            return ToolResult.error(e.getMessage());
        }
    }

    private List<Task> live(TaskTransaction tx) {
        return tx.listTasks(sessionId).stream().filter(task -> !task.archived()).toList();
    }

    private Optional<Task> own(TaskTransaction tx, long id) {
        return tx.findTask(id).filter(task -> task.sessionId().equals(sessionId) && !task.archived());
    }

    private void requireOwn(TaskTransaction tx, long id, String argument) {
        if (own(tx, id).isEmpty()) {
            throw new ToolArgumentException(
                    argument + " names task " + id + ", which is not in this task list; TaskList shows the ids.");
        }
    }

    private String details(TaskTransaction tx, Task task) {
        StringBuilder text = new StringBuilder()
                .append("Task #")
                .append(task.id())
                .append(": ")
                .append(subject(task))
                .append("\nStatus: ")
                .append(wireStatus(task.status()));
        if (task.status() == TaskStatus.FAILED) {
            text.append(" (it failed; set it pending to try again)");
        } else if (task.status() == TaskStatus.CANCELLED) {
            text.append(" (it was cancelled; no one should work on it)");
        }
        if (task.assignee() != null) {
            text.append("\nOwner: ").append(task.assignee());
        }
        String detail = detail(task);
        if (!detail.isEmpty()) {
            text.append("\nDescription: ").append(detail);
        }
        if (!task.blockedBy().isEmpty()) {
            text.append("\nBlocked by: ")
                    .append(task.blockedBy().stream()
                            .map(blocker -> tx.findTask(blocker)
                                    .map(found -> "#" + found.id() + " (" + wireStatus(found.status()) + ")")
                                    .orElse("#" + blocker))
                            .collect(Collectors.joining(", ")));
        }
        List<Task> dependants = tx.listDependants(task.id());
        if (!dependants.isEmpty()) {
            text.append("\nBlocks: ")
                    .append(dependants.stream().map(found -> "#" + found.id()).collect(Collectors.joining(", ")));
        }
        return text.toString();
    }

    /**
     * A task's line of TaskList. A shortened line (the one task of a page that would not fit the result budget
     * otherwise) cuts the subject and names at most {@value #SHORT_LINE_BLOCKERS} blockers; TaskGet shows them all.
     */
    private static String line(TaskTransaction tx, Map<Long, Task> session, Task task, boolean shortened) {
        StringBuilder line = new StringBuilder()
                .append('#')
                .append(task.id())
                .append(" [")
                .append(wireStatus(task.status()))
                .append("] ")
                .append(shortened ? SessionPages.shorten(subject(task), SHORT_SUBJECT_TOKENS) : subject(task));
        if (task.assignee() != null) {
            line.append(" (owner: ").append(task.assignee()).append(')');
        }
        if (task.openBlockers() > 0) {
            List<String> open = new ArrayList<>();
            for (long blocker : task.blockedBy()) {
                Optional.ofNullable(session.get(blocker))
                        .or(() -> tx.findTask(blocker)) // a blocker in another session
                        .filter(found -> found.status() != TaskStatus.SUCCESS)
                        .ifPresent(found -> open.add("#" + found.id()));
            }
            List<String> named = open;
            if (shortened && open.size() > SHORT_LINE_BLOCKERS) {
                named = new ArrayList<>(open.subList(0, SHORT_LINE_BLOCKERS));
                named.add("and " + (open.size() - SHORT_LINE_BLOCKERS) + " more");
            }
            line.append(" [blocked by ").append(String.join(", ", named)).append(']');
        }
        return line.toString();
    }

    private static String text(ToolArguments arguments) {
        String subject = arguments.requiredText("subject").strip();
        checkSubject(subject);
        return join(subject, arguments.optionalText("description").orElse(""));
    }

    private static void checkSubject(String subject) {
        if (subject.isEmpty()) {
            throw new ToolArgumentException("The subject is blank; give the task a brief title.");
        }
        if (subject.contains("\n") || subject.contains("\r")) {
            throw new ToolArgumentException("The subject is one line; put the details in the description.");
        }
    }

    private static String join(String subject, String description) {
        String detail = description.strip();
        return detail.isEmpty() ? subject : subject + "\n\n" + detail;
    }

    private static String subject(Task task) {
        int end = task.description().indexOf('\n');
        return end < 0 ? task.description() : task.description().substring(0, end);
    }

    private static String detail(Task task) {
        int end = task.description().indexOf('\n');
        return end < 0 ? "" : task.description().substring(end).strip();
    }

    private static void agentName(String name) {
        if (name.isEmpty()) {
            return;
        }
        try {
            StoreArguments.name(name, "owner");
        } catch (IllegalArgumentException e) {
            throw new ToolArgumentException(e.getMessage() + ".");
        }
    }

    private static long id(String text, String argument) {
        try {
            long id = Long.parseLong(text.strip().replaceFirst("^#", ""));
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw new ToolArgumentException(
                argument + " must be a task id such as \"12\" (TaskList shows them), not \"" + text + "\".");
    }

    private static List<Long> ids(List<String> texts, String argument) {
        return texts.stream().map(text -> id(text, argument)).distinct().toList();
    }

    private static TaskStatus taskStatus(String status) {
        return switch (status) {
            case IN_PROGRESS -> TaskStatus.RUNNING;
            case COMPLETED -> TaskStatus.SUCCESS;
            default -> TaskStatus.PENDING;
        };
    }

    private static String wireStatus(TaskStatus status) {
        return switch (status) {
            case RUNNING -> IN_PROGRESS;
            case SUCCESS -> COMPLETED;
            case FAILED -> "failed";
            case CANCELLED -> "cancelled";
            default -> PENDING;
        };
    }
}
