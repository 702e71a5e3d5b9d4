package dev.taskagent.testkit.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
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
