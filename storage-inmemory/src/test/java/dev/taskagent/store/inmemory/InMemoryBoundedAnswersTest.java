package dev.taskagent.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskTransaction;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every tool that lists or shows tasks keeps its worst case within its toolset's result budget on a large store:
 * 100,000 tasks, one agent's queue of 10,000, a task with 5,000 comments, hundreds of dead letters, long texts
 * everywhere. The results are counted in real tokens ({@code o200k_base}, jtokkit), not the budget's estimate, and
 * no result may lean on the toolbox's last-resort cut: a tool that ignores the budget ends in the cut's marker,
 * and fails here.
 *
 * <p>The store is filled once, through its own transactions, in batches.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InMemoryBoundedAnswersTest {
    /** Tasks in the store. */
    static final int TASKS = 100_000;

    /** Tasks in the one long queue. */
    static final int QUEUE = 10_000;

    /** Comments on the one long task. */
    static final int COMMENTS = 5_000;

    /** Tasks that failed after their last attempt. */
    static final int DEAD_LETTERS = 300;

    private static final int BATCH = 5_000;
    private static final String LONG_AGENT = "alice";
    private static final String CUT_MARKER = "cut here";
    private static final Encoding O200K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private TaskStore store;
    private TaskQueue queue;
    private Task longTask;
    private Task blockedTask;

    @BeforeAll
    void fillTheStore() {
        store = new InMemoryTaskStore(MutableClock.standard());
        queue = TaskQueue.builder(store).maxAttempts(1).build();
        String words = "invoice overdue customer payment reminder ledger reconcile quarterly export ";
        String description = words.repeat(6).strip();
        longTask = store.inTransaction(transaction -> {
            Task task = transaction.appendTask(queue.newTask("The long task: " + words.repeat(60))
                    .assignee(LONG_AGENT)
                    .priority(9)
                    .tags("invoice", "long")
                    .build());
            for (int i = 0; i < COMMENTS; i++) {
                transaction.addComment(task.id(), "agent-" + (i % 7), "Comment " + i + ": " + description);
            }
            for (int i = 0; i < 200; i++) {
                transaction.addLink(task.id(), "https://example.com/evidence/" + i, description, "agent-1");
            }
            return task;
        });
        List<Long> blockers = new ArrayList<>();
        int created = 1;
        created += fill(QUEUE - 1, index -> queue.newTask("Queue task " + index + ": " + description)
                .assignee(LONG_AGENT)
                .priority(index % 5)
                .tags("invoice")
                .build());
        store.inTransaction(transaction -> {
            for (int i = 0; i < 60; i++) {
                Task child = transaction.appendTask(queue.newTask("Subtask " + i + ": " + description)
                        .assignee("bob")
                        .parent(longTask.id())
                        .build());
                transaction.appendTask(queue.newTask("Dependant " + i + ": " + description)
                        .assignee("bob")
                        .blockedBy(longTask.id())
                        .build());
                blockers.add(child.id());
            }
            return null;
        });
        created += 120;
        blockedTask =
                store.inTransaction(transaction -> transaction.appendTask(queue.newTask("Blocked task: " + description)
                        .assignee(LONG_AGENT)
                        .blockedBy(blockers)
                        .build()));
        created++;
        created += fill(1_000, index -> queue.newTask("Blocked " + index + ": " + description)
                .assignee(LONG_AGENT)
                .blockedBy(blockers.subList(index % 50, index % 50 + 8))
                .build());
        store.inTransaction(transaction -> {
            for (int i = 0; i < DEAD_LETTERS; i++) {
                transaction.appendTask(queue.newTask("Dead letter " + i + ": " + description)
                        .assignee("mailer")
                        .build());
            }
            return null;
        });
        created += DEAD_LETTERS;
        for (int done = 0; done < DEAD_LETTERS; done += TaskStore.MAX_CLAIM_BATCH) {
            store.inTransaction(transaction -> {
                Map<Long, Integer> attempts = new LinkedHashMap<>();
                for (Task claimed : transaction.claimUpTo("mailer", Duration.ofMinutes(5), TaskStore.MAX_CLAIM_BATCH)) {
                    attempts.put(claimed.id(), claimed.attempt());
                    transaction.addComment(claimed.id(), "mailer", "The mail server refused it: " + description);
                }
                return transaction.completeHeld("mailer", attempts, TaskStatus.FAILED);
            });
        }
        int others = TASKS - created;
        fill(others, index -> queue.newTask("Other task " + index + ": " + description)
                .assignee("agent-" + (index % 100))
                .tags("invoice")
                .build());
        Optional<Task> last = store.inTransaction(transaction -> transaction.findTask(longTask.id() + TASKS - 1));
        assertThat(last).as("the store holds %d tasks", TASKS).isPresent();
    }

    /** Appends tasks in transactions of {@link #BATCH}; returns how many. */
    private int fill(int count, Function<Integer, NewTask> task) {
        for (int from = 0; from < count; from += BATCH) {
            int start = from;
            int end = Math.min(count, from + BATCH);
            store.inTransaction((TaskTransaction transaction) -> {
                for (int index = start; index < end; index++) {
                    transaction.appendTask(task.apply(index));
                }
                return null;
            });
        }
        return count;
    }

    @AfterAll
    void closeTheStore() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void everyQueueToolThatListsOrShowsTasksStaysWithinTheBudgetInRealTokens() {
        Toolbox tools = queue.tools();
        long id = longTask.id();

        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100}");
        String cursor = cursorOf(within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":3}"));
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100,\"cursor\":\"" + cursor + "\"}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"blocked\",\"limit\":100}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"ready\",\"limit\":100}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"tag\":\"invoice\",\"limit\":100}");
        within(tools, "get_task", "{\"task_id\":" + id + "}");
        within(tools, "get_task", "{\"task_id\":" + id + ",\"view\":\"full\"}");
        within(tools, "get_task", "{\"task_id\":" + id + ",\"view\":\"full\",\"comments_before\":2500}");
        within(tools, "get_task", "{\"task_id\":" + blockedTask.id() + ",\"view\":\"full\"}");
        within(tools, "search_tasks", "{\"query\":\"invoice\",\"limit\":100}");
        within(tools, "search_tasks", "{\"query\":\"invoice overdue\",\"assignee\":\"alice\",\"limit\":100}");
        ToolResult dead = within(tools, "list_dead_letters", "{\"limit\":100}");
        assertThat(dead.text()).contains(" more: call list_dead_letters again");
        ToolResult claimed = within(tools, "signup_for_task", "{\"agent_name\":\"alice\"}");
        assertThat(claimed.text()).startsWith("Task #" + id + " claimed");
        within(
                tools,
                "move_task",
                "{\"task_id\":" + id
                        + ",\"current_agent\":\"alice\",\"new_agent\":\"bob\",\"attempt\":1,\"comment\":\"Yours.\"}");
    }

    @Test
    void theWorkerToolsetStaysWithinTheBudgetInRealTokens() {
        Toolbox tools = queue.workerTools();
        within(tools, "get_task", "{\"task_id\":" + longTask.id() + ",\"view\":\"full\"}");
        within(tools, "signup_for_task", "{\"agent_name\":\"agent-7\"}");
    }

    /**
     * The dialects' listings page the session of 100,000 tasks: the first page, the largest page asked for, and a
     * page in the middle, each within the budget without the toolbox's cut, ending with the next page's cursor.
     */
    @Test
    void theDialectToolsOfTheLargeSessionStayWithinTheBudgetInRealTokens() {
        Toolbox claude = ClaudeTaskTools.forSession(store, queue.sessionId());
        within(claude, ClaudeTaskTools.TASK_LIST, "{}");
        String cursor = cursorOf(within(claude, ClaudeTaskTools.TASK_LIST, "{\"limit\":500}"));
        ToolResult middle = within(claude, ClaudeTaskTools.TASK_LIST, "{\"limit\":500,\"cursor\":\"" + cursor + "\"}");
        assertThat(middle.text()).containsPattern("\n\\d+ more: call TaskList again with cursor \"[^\"]+\"$");
        within(claude, ClaudeTaskTools.TASK_GET, "{\"taskId\":\"" + longTask.id() + "\"}");
        within(claude, ClaudeTaskTools.TASK_GET, "{\"taskId\":\"" + blockedTask.id() + "\"}");

        Toolbox todo = TodoTools.forSession(store, queue.sessionId());
        within(todo, TodoTools.TODO_READ, "{}");
        String page = within(todo, TodoTools.TODO_READ, "{\"limit\":500}").text();
        String next = page.replaceFirst("(?s).*\"next_cursor\":\"([^\"]+)\".*", "$1");
        assertThat(within(todo, TodoTools.TODO_READ, "{\"limit\":500,\"cursor\":\"" + next + "\"}")
                        .text())
                .contains("\"remaining\":");
    }

    /** Calls a tool and checks its result: no error, within the budget in o200k tokens, not cut by the toolbox. */
    private ToolResult within(Toolbox tools, String tool, String arguments) {
        ToolResult result = tools.call(new ToolCall("worst-case", tool, arguments));
        int budget = tools.tool(tool).orElseThrow().resultBudget().orElseThrow();
        int tokens = O200K.countTokensOrdinary(result.text());
        assertThat(result.isError())
                .as(tool + " " + arguments + ": " + result.text())
                .isFalse();
        assertThat(tokens)
                .as(tool + " " + arguments + " answers in " + tokens + " o200k tokens")
                .isLessThanOrEqualTo(budget);
        assertThat(result.text())
                .as(tool + " " + arguments + " bounds its own answer instead of leaving it to the toolbox's cut")
                .doesNotContain(CUT_MARKER);
        return result;
    }

    private static String cursorOf(ToolResult result) {
        String text = result.text();
        int end = text.lastIndexOf('"');
        return text.substring(text.lastIndexOf('"', end - 1) + 1, end);
    }
}
