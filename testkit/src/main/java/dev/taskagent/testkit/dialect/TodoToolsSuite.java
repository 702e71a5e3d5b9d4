package dev.taskagent.testkit.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
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
 * The {@code TodoWrite} / {@code TodoRead} dialect ({@link TodoTools}), written once and run on every store:
 * the calls of a coding agent's session replayed through the tools, then the store's state checked.
 * Subclass it in a store's tests and return a fresh, empty store from {@link #createStore(Clock)}.
 */
public abstract class TodoToolsSuite {
    private static final String SESSION = "coding-session";

    private TaskStore store;
    private Toolbox tools;
    private final AtomicInteger callIds = new AtomicInteger();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TodoToolsSuite() {}

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
        tools = TodoTools.forSession(store, SESSION);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void aCodingAgentsTodoListIsKeptAsTheSessionsTasksThroughAWholeSession() {
        ToolResult planned = write("""
                {"todos": [
                  {"content": "Reproduce the login redirect loop", "status": "pending", "activeForm": "Reproducing the loop"},
                  {"content": "Fix the redirect", "status": "pending", "activeForm": "Fixing the redirect"},
                  {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}
                ]}""");

        assertThat(planned)
                .isEqualTo(ToolResult.ok("Todo list saved (3 created, 0 updated, 0 removed):\n"
                        + "- [pending] Reproduce the login redirect loop\n"
                        + "- [pending] Fix the redirect\n"
                        + "- [pending] Run the tests"));
        assertThat(live())
                .extracting(Task::order, Task::description, Task::status)
                .containsExactly(
                        tuple(1, "Reproduce the login redirect loop", TaskStatus.PENDING),
                        tuple(2, "Fix the redirect", TaskStatus.PENDING),
                        tuple(3, "Run the tests", TaskStatus.PENDING));

        write("""
                {"todos": [
                  {"content": "Reproduce the login redirect loop", "status": "in_progress", "activeForm": "Reproducing the loop"},
                  {"content": "Fix the redirect", "status": "pending", "activeForm": "Fixing the redirect"},
                  {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}
                ]}""");
        Task first = live().get(0);
        assertThat(first.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(first.progresses()).containsExactly("Reproducing the loop");

        ToolResult moved = write("""
                {"todos": [
                  {"content": "Reproduce the login redirect loop", "status": "completed", "activeForm": "Reproducing the loop"},
                  {"content": "Fix the redirect", "status": "in_progress", "activeForm": "Fixing the redirect"},
                  {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}
                ]}""");
        assertThat(moved.text()).startsWith("Todo list saved (0 created, 2 updated, 0 removed):");

        // The agent drops "Run the tests" and adds two items after the fix.
        write("""
                {"todos": [
                  {"content": "Reproduce the login redirect loop", "status": "completed", "activeForm": "Reproducing the loop"},
                  {"content": "Fix the redirect", "status": "completed", "activeForm": "Fixing the redirect"},
                  {"content": "Add a regression test", "status": "in_progress", "activeForm": "Adding a regression test"},
                  {"content": "Open the pull request", "status": "pending", "activeForm": "Opening the pull request"}
                ]}""");

        assertThat(live())
                .extracting(Task::description, Task::status)
                .containsExactly(
                        tuple("Reproduce the login redirect loop", TaskStatus.SUCCESS),
                        tuple("Fix the redirect", TaskStatus.SUCCESS),
                        tuple("Add a regression test", TaskStatus.RUNNING),
                        tuple("Open the pull request", TaskStatus.PENDING));
        assertThat(store.listTasks(SESSION))
                .filteredOn(Task::archived)
                .extracting(Task::description)
                .containsExactly("Run the tests");
        List<Task> tasks = live();
        assertThat(read())
                .isEqualTo(ToolResult.ok("{\"todos\":["
                        + "{\"content\":\"Reproduce the login redirect loop\",\"status\":\"completed\",\"id\":\""
                        + tasks.get(0).id() + "\"},"
                        + "{\"content\":\"Fix the redirect\",\"status\":\"completed\",\"id\":\""
                        + tasks.get(1).id()
                        + "\"},"
                        + "{\"content\":\"Add a regression test\",\"status\":\"in_progress\",\"id\":\""
                        + tasks.get(2).id() + "\"},"
                        + "{\"content\":\"Open the pull request\",\"status\":\"pending\",\"id\":\""
                        + tasks.get(3).id() + "\"}]}"));
    }

    @Test
    void theOlderShapeWithIdsAndPrioritiesIsReadToo() {
        write("""
                {"todos": [
                  {"id": "1", "content": "Write the migration", "status": "in_progress", "priority": "high"},
                  {"id": "2", "content": "Update the docs", "status": "pending", "priority": "low"}
                ]}""");

        assertThat(live())
                .extracting(Task::description, Task::status)
                .containsExactly(
                        tuple("Write the migration", TaskStatus.RUNNING), tuple("Update the docs", TaskStatus.PENDING));
    }

    @Test
    void twoItemsInProgressAreRefusedAndNothingIsWritten() {
        write("{\"todos\": [{\"content\": \"Lint\", \"status\": \"pending\"}]}");

        ToolResult refused = write("""
                {"todos": [
                  {"content": "Lint", "status": "in_progress"},
                  {"content": "Test", "status": "in_progress"}
                ]}""");

        assertThat(refused)
                .isEqualTo(ToolResult.error("Only one item may be in_progress at a time; 2 are: \"Lint\", \"Test\"."
                        + " Mark the others pending or completed."));
        assertThat(live())
                .extracting(Task::description, Task::status)
                .containsExactly(tuple("Lint", TaskStatus.PENDING));
    }

    @Test
    void badListsAreRefusedWithAnErrorTheModelCanActOn() {
        assertThat(write("{\"todos\": [{\"content\": \"A\", \"status\": \"pending\"},"
                        + " {\"content\": \"A\", \"status\": \"completed\"}]}"))
                .isEqualTo(ToolResult.error("Two items have the content \"A\"; give each item its own words."));
        assertThat(write("{\"todos\": [{\"content\": \"A\", \"status\": \"done\"}]}")
                        .isError())
                .isTrue();
        assertThat(write("{\"todos\": [{\"content\": \"   \", \"status\": \"pending\"}]}")
                        .isError())
                .isTrue();
        assertThat(write("{}")).isEqualTo(ToolResult.error("Missing required argument 'todos' (an array of objects)."));
        assertThat(write("{\"todos\": [\"Lint\"]}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'todos' must be an array of objects; it holds the string \"Lint\"."));
        assertThat(store.listTasks(SESSION)).isEmpty();
    }

    @Test
    void anEmptyListRemovesEveryItem() {
        write(
                "{\"todos\": [{\"content\": \"A\", \"status\": \"pending\"}, {\"content\": \"B\", \"status\": \"completed\"}]}");

        assertThat(write("{\"todos\": []}").text()).isEqualTo("Todo list saved (0 created, 0 updated, 2 removed):");

        assertThat(live()).isEmpty();
        assertThat(read()).isEqualTo(ToolResult.ok("{\"todos\":[]}"));
    }

    @Test
    void aLongListIsReadAPageAtATimeWithinTheBudgetEachItemOnceWhileItemsAreAddedAndRemoved() {
        StringBuilder todos = new StringBuilder("{\"todos\": [");
        for (int i = 0; i < 300; i++) {
            todos.append(i == 0 ? "" : ", ")
                    .append("{\"content\": \"Item ")
                    .append(i)
                    .append(": reconcile the quarterly ledger export of the customer payments\", \"status\": \"")
                    .append(i == 0 ? "in_progress" : "pending")
                    .append("\"}");
        }
        assertThat(write(todos.append("]}").toString()).isError()).isFalse();
        List<Long> expected = new ArrayList<>(live().stream().map(Task::id).toList());
        assertThat(expected).hasSize(300);

        List<Long> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        String last;
        do {
            ToolResult page = read(cursor == null ? "{}" : "{\"cursor\": \"" + cursor + "\"}");
            withinBudget(page);
            last = page.text();
            Matcher id = ID.matcher(last);
            while (id.find()) {
                seen.add(Long.parseLong(id.group(1)));
            }
            cursor = field(last, "next_cursor", "\"([^\"]+)\"");
            if (cursor != null) {
                assertThat(field(last, "remaining", "(\\d+)"))
                        .as("page %d says how many follow", pages)
                        .isEqualTo(Integer.toString(expected.size() - seen.size()));
            }
            pages++;
            // Between pages: an item added at the end, one at the top (moving every order down), one not yet
            // read removed, and then the last item of the page removed (the one its cursor names).
            store.inTransaction(tx -> tx.appendTask(NewTask.of(SESSION, "Appended")));
            store.inTransaction(tx -> tx.insertTask(NewTask.of(SESSION, "Inserted at the top"), 0));
            if (pages == 1) {
                archive(expected.remove(expected.size() - 1));
            }
            if (pages == 2) {
                archive(seen.get(seen.size() - 1));
            }
        } while (cursor != null && pages < 100);

        assertThat(pages).as("300 items of ~30 tokens each take several pages").isGreaterThan(2);
        assertThat(seen)
                .as("every item there was at the first page, once, in order")
                .isEqualTo(expected);
        assertThat(last)
                .doesNotContain("\"remaining\"")
                .endsWith(
                        ",\"added_since_first_page\":" + 2 * (pages - 1)
                                + ",\"note\":\"Items were added since the first page: call TodoRead without a cursor to read them.\"}");
        assertThat(read("{}").text()).startsWith("{\"todos\":[{\"content\":\"Inserted at the top\",");
    }

    @Test
    void aLimitPagesAShortListAndTheLastPageHasNoCursor() {
        write(
                "{\"todos\": [{\"content\": \"A\", \"status\": \"completed\"},"
                        + " {\"content\": \"B\", \"status\": \"in_progress\"}, {\"content\": \"C\", \"status\": \"pending\"}]}");
        List<Task> tasks = live();

        ToolResult page = read("{\"limit\": 2}");
        String cursor = page.text().replaceFirst("(?s).*\"next_cursor\":\"([^\"]+)\".*", "$1");
        assertThat(page)
                .isEqualTo(ToolResult.ok("{\"todos\":["
                        + "{\"content\":\"A\",\"status\":\"completed\",\"id\":\""
                        + tasks.get(0).id() + "\"},"
                        + "{\"content\":\"B\",\"status\":\"in_progress\",\"id\":\""
                        + tasks.get(1).id() + "\"}],"
                        + "\"remaining\":1,\"next_cursor\":\"" + cursor + "\","
                        + "\"note\":\"1 more item: call TodoRead with this cursor for the next page. Read every page"
                        + " before TodoWrite, which replaces the whole list.\"}"));
        assertThat(read("{\"limit\": 2, \"cursor\": \"" + cursor + "\"}"))
                .isEqualTo(ToolResult.ok("{\"todos\":[{\"content\":\"C\",\"status\":\"pending\",\"id\":\""
                        + tasks.get(2).id() + "\"}]}"));

        archive(tasks.get(2).id());
        assertThat(read("{\"cursor\": \"" + cursor + "\"}")).isEqualTo(ToolResult.ok("{\"todos\":[]}"));
    }

    @Test
    void anItemTooLongForAPageIsShownCutSoThatTheCursorIsNeverCutOff() {
        String content = "Migrate " + "the billing tables ".repeat(1_500).strip();
        store.inTransaction(tx -> tx.appendTask(NewTask.of(SESSION, content)));
        store.inTransaction(tx -> tx.appendTask(NewTask.of(SESSION, "Then deploy")));

        ToolResult page = read("{}");

        withinBudget(page);
        assertThat(page.text())
                .startsWith("{\"todos\":[{\"content\":\"Migrate the billing tables the billing")
                .contains("…\",\"status\":\"pending\",\"id\":\"")
                .contains("\",\"content_cut\":true}],\"remaining\":1,\"next_cursor\":\"");
        assertThat(read("{\"cursor\": \"" + field(page.text(), "next_cursor", "\"([^\"]+)\"") + "\"}")
                        .text())
                .startsWith("{\"todos\":[{\"content\":\"Then deploy\",");
    }

    @Test
    void badLimitsAndCursorsGetAnErrorTheModelCanActOnAndWriteNothing() {
        write(
                "{\"todos\": [{\"content\": \"A\", \"status\": \"pending\"}, {\"content\": \"B\", \"status\": \"pending\"}]}");
        String cursor = field(read("{\"limit\": 1}").text(), "next_cursor", "\"([^\"]+)\"");
        Toolbox other = TodoTools.forSession(store, "another-session");
        other.call(new ToolCall(
                "other",
                TodoTools.TODO_WRITE,
                "{\"todos\": [{\"content\": \"X\", \"status\": \"pending\"},"
                        + " {\"content\": \"Y\", \"status\": \"pending\"}]}"));
        String otherSessionCursor = field(
                other.call(new ToolCall("other", TodoTools.TODO_READ, "{\"limit\": 1}"))
                        .text(),
                "next_cursor",
                "\"([^\"]+)\"");
        String taskListCursor = ClaudeTaskTools.forSession(store, SESSION)
                .call(new ToolCall("claude", ClaudeTaskTools.TASK_LIST, "{\"limit\": 1}"))
                .text()
                .replaceFirst("(?s).*cursor \"([^\"]+)\"$", "$1");
        List<Task> before = store.listTasks(SESSION);

        assertThat(read("{\"limit\": 0}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 500, not 0."));
        assertThat(read("{\"limit\": 1000000000}"))
                .isEqualTo(ToolResult.error("Argument 'limit' must be between 1 and 500, not 1000000000."));
        assertThat(read("{\"limit\": [1]}").text()).startsWith("Argument 'limit' must be an integer");
        String another = "The cursor belongs to another listing (other filters); a cursor continues only the listing"
                + " that returned it. List again without a cursor.";
        assertThat(read("{\"cursor\": \"" + otherSessionCursor + "\"}")).isEqualTo(ToolResult.error(another));
        assertThat(read("{\"cursor\": \"" + taskListCursor + "\"}")).isEqualTo(ToolResult.error(another));
        assertThat(read("{\"cursor\": \"" + cursor.substring(0, cursor.length() - 1) + "\"}"))
                .isEqualTo(ToolResult.error("The cursor cannot be used: it is not a cursor a listing returned (changed"
                        + " or cut). Pass the cursor exactly as the previous page returned it, or list again without a"
                        + " cursor."));
        String forged = cursor.substring(0, 30) + (cursor.charAt(30) == 'A' ? 'B' : 'A') + cursor.substring(31);
        assertThat(read("{\"cursor\": \"" + forged + "\"}").text())
                .startsWith("The cursor cannot be used: it was changed or cut.");
        assertThat(read("{\"cursor\": true}"))
                .isEqualTo(ToolResult.error("Argument 'cursor' must be a string, not the boolean true."));

        assertThat(store.listTasks(SESSION)).as("nothing written").isEqualTo(before);
    }

    /** The ids of a TodoRead page's items. */
    private static final Pattern ID = Pattern.compile("\"id\":\"(\\d+)\"");

    /** A top-level field of a TodoRead page, by a pattern of its value; null when absent. */
    private static String field(String page, String name, String value) {
        Matcher matcher = Pattern.compile("\"" + name + "\":" + value).matcher(page);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** Checks a page: no error, within the toolset's budget as the toolbox estimates it, not cut by the toolbox. */
    private void withinBudget(ToolResult page) {
        assertThat(page.isError()).as(page.text()).isFalse();
        int budget =
                tools.tool(TodoTools.TODO_READ).orElseThrow().resultBudget().orElseThrow();
        int tokens = (page.text().getBytes(StandardCharsets.UTF_8).length + 2) / 3;
        assertThat(tokens).as("estimated tokens of a page").isLessThanOrEqualTo(budget);
        assertThat(page.text()).doesNotContain("cut here");
    }

    private void archive(long taskId) {
        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(taskId).archived(true).build()));
    }

    private ToolResult read(String argumentsJson) {
        return tools.call(new ToolCall("call-" + callIds.incrementAndGet(), TodoTools.TODO_READ, argumentsJson));
    }

    private ToolResult write(String argumentsJson) {
        return tools.call(new ToolCall("call-" + callIds.incrementAndGet(), TodoTools.TODO_WRITE, argumentsJson));
    }

    private ToolResult read() {
        return tools.call(new ToolCall("call-" + callIds.incrementAndGet(), TodoTools.TODO_READ, "{}"));
    }

    private List<Task> live() {
        return store.listTasks(SESSION).stream()
                .filter(task -> !task.archived())
                .toList();
    }
}
