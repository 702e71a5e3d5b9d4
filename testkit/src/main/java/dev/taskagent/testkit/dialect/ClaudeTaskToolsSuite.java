package dev.taskagent.testkit.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code TaskCreate} / {@code TaskGet} / {@code TaskUpdate} / {@code TaskList} dialect ({@link
 * ClaudeTaskTools}), written once and run on every store that keeps the work graph: a coding agent's calls
 * replayed through the tools, then the store's state and the queue's claims checked. Subclass it in a store's
 * tests and return a fresh, empty store from {@link #createStore(Clock)}.
 */
public abstract class ClaudeTaskToolsSuite {
    private static final String SESSION = "claude-session";
    private static final Pattern CREATED = Pattern.compile("^Task #(\\d+) created successfully: .*");

    private TaskStore store;
    private Toolbox tools;
    private final AtomicInteger callIds = new AtomicInteger();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected ClaudeTaskToolsSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createTools() {
        store = createStore(MutableClock.standard());
        tools = ClaudeTaskTools.forSession(store, SESSION);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void aPlanWithDependenciesIsListedAndClaimedInOrder() {
        long build = create("Build the release", "Compile and package version 1.2.");
        long deploy = create("Deploy the release", "");
        long announce = create("Announce it", "Post to the mailing list.");

        assertThat(call(
                        ClaudeTaskTools.TASK_UPDATE,
                        "{\"taskId\": \"" + deploy + "\", \"addBlockedBy\": [\"" + build + "\"], \"owner\": \"ops\"}"))
                .isEqualTo(ToolResult.ok("Updated task #" + deploy + " owner, blockedBy #" + build));
        assertThat(call(
                                ClaudeTaskTools.TASK_UPDATE,
                                "{\"taskId\": \"#" + deploy + "\", \"addBlocks\": [\"" + announce + "\"]}")
                        .isError())
                .isFalse();

        assertThat(call(ClaudeTaskTools.TASK_LIST, "{}").text())
                .isEqualTo("#" + build + " [pending] Build the release\n"
                        + "#" + deploy + " [pending] Deploy the release (owner: ops) [blocked by #" + build + "]\n"
                        + "#" + announce + " [pending] Announce it [blocked by #" + deploy + "]");
        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"" + deploy + "\"}")
                        .text())
                .isEqualTo("Task #" + deploy + ": Deploy the release\nStatus: pending\nOwner: ops\n" + "Blocked by: #"
                        + build + " (pending)\nBlocks: #" + announce);
        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"" + build + "\"}")
                        .text())
                .isEqualTo("Task #" + build + ": Build the release\nStatus: pending\n"
                        + "Description: Compile and package version 1.2.\nBlocks: #" + deploy);

        TaskQueue queue = TaskQueue.builder(store).build();
        assertThat(queue.claimNext("ops")).as("deploy waits for build").isEmpty();
        call(
                ClaudeTaskTools.TASK_UPDATE,
                "{\"taskId\": \"" + build
                        + "\", \"status\": \"in_progress\", \"activeForm\": \"Building the release\"}");
        assertThat(store.findTask(build).orElseThrow().progresses()).containsExactly("Building the release");
        call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + build + "\", \"status\": \"completed\"}");

        assertThat(queue.claimNext("ops")).map(Task::id).contains(deploy);
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{}").text())
                .contains("#" + build + " [completed] Build the release")
                .contains("#" + deploy + " [in_progress] Deploy the release (owner: ops)\n");
    }

    @Test
    void aDependencyThatWouldCloseACycleIsRefusedNamingItAndNothingIsWritten() {
        long first = create("Write the schema", "");
        long second = create("Write the migration", "");
        call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + second + "\", \"addBlockedBy\": [\"" + first + "\"]}");
        Task before = store.findTask(first).orElseThrow();

        ToolResult refused = call(
                ClaudeTaskTools.TASK_UPDATE,
                "{\"taskId\": \"" + first + "\", \"owner\": \"alice\", \"addBlockedBy\": [\"" + second + "\"]}");

        assertThat(refused.isError()).isTrue();
        assertThat(refused.text()).contains("cycle " + first + " → " + second + " → " + first);
        assertThat(store.findTask(first).orElseThrow())
                .as("the owner of the refused update is not written either")
                .isEqualTo(before);
    }

    @Test
    void tasksOfAnotherSessionAreNotFoundAndDeletedTasksLeaveTheList() {
        long elsewhere = store.inTransaction(tx -> tx.appendTask(NewTask.of("another-session", "Not yours")))
                .id();
        long mine = create("Tidy the backlog", "");

        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"" + elsewhere + "\"}"))
                .isEqualTo(ToolResult.error("Task not found"));
        assertThat(call(
                        ClaudeTaskTools.TASK_UPDATE,
                        "{\"taskId\": \"" + mine + "\", \"addBlockedBy\": [\"" + elsewhere + "\"]}"))
                .isEqualTo(ToolResult.error("addBlockedBy names task " + elsewhere
                        + ", which is not in this task list; TaskList shows the ids."));
        assertThat(store.findTask(mine).orElseThrow().blockedBy()).isEmpty();

        call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + mine + "\", \"status\": \"deleted\"}");

        assertThat(store.findTask(mine).orElseThrow().archived()).isTrue();
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{}")).isEqualTo(ToolResult.ok("No tasks."));
        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"" + mine + "\"}"))
                .isEqualTo(ToolResult.error("Task not found"));
    }

    @Test
    void badArgumentsGetAnErrorTheModelCanActOnAndWriteNothing() {
        long task = create("Review the pull request", "");
        Task before = store.findTask(task).orElseThrow();

        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"abc\"}"))
                .isEqualTo(ToolResult.error(
                        "taskId must be a task id such as \"12\" (TaskList shows them), not \"abc\"."));
        assertThat(call(ClaudeTaskTools.TASK_CREATE, "{\"subject\": \"Two\\nlines\", \"description\": \"\"}"))
                .isEqualTo(ToolResult.error("The subject is one line; put the details in the description."));
        assertThat(call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + task + "\", \"status\": \"done\"}")
                        .isError())
                .isTrue();
        assertThat(call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + task + "\", \"owner\": \"bad\\nname\"}")
                        .text())
                .startsWith("owner contains a control character");
        assertThat(call(
                        ClaudeTaskTools.TASK_UPDATE,
                        "{\"taskId\": \"" + task + "\", \"addBlockedBy\": [\"" + task + "\"]}"))
                .isEqualTo(ToolResult.error("Task " + task + " cannot depend on itself"));

        assertThat(store.findTask(task).orElseThrow()).isEqualTo(before);
        assertThat(store.listTasks(SESSION)).hasSize(1);
    }

    @Test
    void aLongListIsListedAPageAtATimeWithinTheBudgetEachTaskOnceWhileTasksAreAddedAndDeleted() {
        List<Long> expected = new ArrayList<>(store.inTransaction(tx -> {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                ids.add(tx.appendTask(NewTask.of(
                                SESSION,
                                "Task " + i + ": reconcile the quarterly ledger export of the customer payments"))
                        .id());
            }
            return ids;
        }));
        List<Long> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        String last;
        do {
            ToolResult page =
                    call(ClaudeTaskTools.TASK_LIST, cursor == null ? "{}" : "{\"cursor\": " + quote(cursor) + "}");
            withinBudget(page);
            last = page.text();
            Matcher line = LISTED.matcher(last);
            while (line.find()) {
                seen.add(Long.parseLong(line.group(1)));
            }
            cursor = nextCursor(last);
            if (cursor != null) {
                assertThat(last)
                        .as("page %d says how many follow", pages)
                        .contains("\n" + (expected.size() - seen.size()) + " more: call TaskList again with cursor");
            }
            pages++;
            // Between pages: a task appended, one inserted at the top (moving every order down), one not yet listed
            // deleted, and then the last task of the page deleted (the one its cursor names).
            create("Added after page " + pages, "");
            store.inTransaction(tx -> tx.insertTask(NewTask.of(SESSION, "Inserted at the top"), 0));
            if (pages == 1) {
                long gone = expected.remove(expected.size() - 1);
                call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + gone + "\", \"status\": \"deleted\"}");
            }
            if (pages == 2) {
                call(
                        ClaudeTaskTools.TASK_UPDATE,
                        "{\"taskId\": \"" + seen.get(seen.size() - 1) + "\", \"status\": \"deleted\"}");
            }
        } while (cursor != null && pages < 100);

        assertThat(pages).as("300 tasks of ~30 tokens each take several pages").isGreaterThan(2);
        assertThat(seen)
                .as("every task there was at the first page, once, in order")
                .isEqualTo(expected);
        assertThat(last)
                .endsWith("\n" + 2 * (pages - 1)
                        + " tasks were added since the first page: call TaskList without a cursor" + " to list them.");
        String fresh = call(ClaudeTaskTools.TASK_LIST, "{}").text();
        assertThat(fresh).startsWith("#").contains("] Inserted at the top\n");
    }

    @Test
    void aLimitPagesAShortListAndTheLastPageHasNoCursor() {
        long first = create("First", "");
        long second = create("Second", "");
        long third = create("Third", "");

        ToolResult page = call(ClaudeTaskTools.TASK_LIST, "{\"limit\": 2}");
        String cursor = nextCursor(page.text());
        assertThat(page.text())
                .isEqualTo("#" + first + " [pending] First\n#" + second + " [pending] Second\n"
                        + "1 more: call TaskList again with cursor \"" + cursor + "\"");
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"limit\": \"2\", \"cursor\": " + quote(cursor) + "}"))
                .isEqualTo(ToolResult.ok("#" + third + " [pending] Third"));

        call(ClaudeTaskTools.TASK_UPDATE, "{\"taskId\": \"" + third + "\", \"status\": \"deleted\"}");
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(cursor) + "}"))
                .isEqualTo(ToolResult.ok("No more tasks."));
    }

    @Test
    void aTaskTooLongForAPageIsShownShortenedSoThatTheCursorIsNeverCutOff() {
        String subject = "Migrate " + "the billing tables ".repeat(1_500).strip();
        long huge = store.inTransaction(tx -> tx.appendTask(NewTask.of(SESSION, subject)))
                .id();
        long next = create("Then deploy", "");

        ToolResult page = call(ClaudeTaskTools.TASK_LIST, "{}");

        withinBudget(page);
        assertThat(page.text())
                .startsWith("#" + huge + " [pending] Migrate the billing tables")
                .contains("…\n1 more:");
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(nextCursor(page.text())) + "}"))
                .isEqualTo(ToolResult.ok("#" + next + " [pending] Then deploy"));
        assertThat(call(ClaudeTaskTools.TASK_GET, "{\"taskId\": \"" + huge + "\"}")
                        .text())
                .as("TaskGet shows it whole, as far as its budget goes")
                .contains("the billing tables the billing tables the billing tables");
    }

    @Test
    void badLimitsAndCursorsGetAnErrorTheModelCanActOnAndWriteNothing() {
        for (int i = 0; i < 3; i++) {
            create("Task " + i, "");
        }
        String cursor =
                nextCursor(call(ClaudeTaskTools.TASK_LIST, "{\"limit\": 1}").text());
        store.inTransaction(tx -> tx.appendTask(NewTask.of("another-session", "Elsewhere")));
        store.inTransaction(tx -> tx.appendTask(NewTask.of("another-session", "Elsewhere too")));
        String otherSessionCursor = nextCursor(ClaudeTaskTools.forSession(store, "another-session")
                .call(new ToolCall("other", ClaudeTaskTools.TASK_LIST, "{\"limit\": 1}"))
                .text());
        String todoCursor = nextCursor(TodoTools.forSession(store, SESSION)
                .call(new ToolCall("todo", TodoTools.TODO_READ, "{\"limit\": 1}"))
                .text());
        TaskQueue queue = TaskQueue.builder(store).build();
        store.inTransaction(tx ->
                tx.appendTask(NewTask.builder(SESSION, "Queued").assignee("ops").build()));
        store.inTransaction(tx -> tx.appendTask(
                NewTask.builder(SESSION, "Queued too").assignee("ops").build()));
        String queueCursor = queue.listQueue(QueueQuery.of("ops").withLimit(1)).cursor();
        List<Task> before = store.listTasks(SESSION);

        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"limit\": 0}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 500, not 0."));
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"limit\": 1000000000}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 500, not 1000000000."));
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"limit\": \"all\"}").text())
                .startsWith("Argument 'limit' must be an integer");
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": 12}"))
                .isEqualTo(ToolResult.error("Argument 'cursor' must be a string, not the number 12."));
        String another = "The cursor belongs to another listing (other filters); a cursor continues only the listing"
                + " that returned it. List again without a cursor.";
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(otherSessionCursor) + "}"))
                .as("a cursor of another session's list")
                .isEqualTo(ToolResult.error(another));
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(todoCursor) + "}"))
                .as("a cursor of TodoRead")
                .isEqualTo(ToolResult.error(another));
        String notOne = "The cursor cannot be used: it is not a cursor a listing returned (changed or cut). Pass the"
                + " cursor exactly as the previous page returned it, or list again without a cursor.";
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(queueCursor) + "}"))
                .as("a cursor of get_my_queue")
                .isEqualTo(ToolResult.error(notOne));
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(cursor.substring(0, 20)) + "}"))
                .isEqualTo(ToolResult.error(notOne));
        String forged = cursor.substring(0, 30) + (cursor.charAt(30) == 'A' ? 'B' : 'A') + cursor.substring(31);
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote(forged) + "}")
                        .text())
                .startsWith("The cursor cannot be used: it was changed or cut.");
        assertThat(call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": \" \"}").text())
                .startsWith("The cursor cannot be used: it is not a cursor a listing returned");
        ToolResult tooLong = call(ClaudeTaskTools.TASK_LIST, "{\"cursor\": " + quote("A".repeat(10_000)) + "}");
        assertThat(tooLong.isError()).isTrue();
        assertThat(tooLong.text())
                .startsWith("The cursor cannot be used: it is not a cursor a listing returned (too long)");

        assertThat(store.listTasks(SESSION)).as("nothing written").isEqualTo(before);
    }

    /** The ids of a TaskList page's lines. */
    private static final Pattern LISTED = Pattern.compile("(?m)^#(\\d+) \\[");

    /** The cursor at the end of a page, or null on the last page. */
    private static String nextCursor(String text) {
        Matcher matcher = Pattern.compile("(?:more: call TaskList again with cursor|\"next_cursor\":) ?\"([^\"]+)\"")
                .matcher(text);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }

    /** Checks a page: no error, within the toolset's budget as the toolbox estimates it, not cut by the toolbox. */
    private void withinBudget(ToolResult page) {
        assertThat(page.isError()).as(page.text()).isFalse();
        int budget = tools.tool(ClaudeTaskTools.TASK_LIST)
                .orElseThrow()
                .resultBudget()
                .orElseThrow();
        int tokens = (page.text().getBytes(StandardCharsets.UTF_8).length + 2) / 3;
        assertThat(tokens).as("estimated tokens of a page").isLessThanOrEqualTo(budget);
        assertThat(page.text()).doesNotContain("cut here");
    }

    private long create(String subject, String description) {
        ToolResult created = call(
                ClaudeTaskTools.TASK_CREATE,
                "{\"subject\": \"" + subject + "\", \"description\": \"" + description + "\"}");
        Matcher matcher = CREATED.matcher(created.text());
        assertThat(matcher.matches()).as(created.text()).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    private ToolResult call(String tool, String argumentsJson) {
        return tools.call(new ToolCall("call-" + callIds.incrementAndGet(), tool, argumentsJson));
    }
}
