package dev.taskagent.testkit.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.taskagent.dialect.TodoTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
