package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every tool that lists or shows tasks keeps its worst case within its toolset's result budget on a large store
 * ({@link LargeStore}: 100,000 tasks, one agent's queue of 10,000, a task with 5,000 comments, hundreds of dead
 * letters, long texts everywhere), and the extraction agent's task listing stays within its token budget. The results
 * are counted in real tokens ({@code o200k_base}, jtokkit), not the budget's estimate, and no result may lean on the
 * toolbox's last-resort cut: a tool that ignores the budget ends in the cut's marker, and fails here.
 *
 * <p>Subclass it in a store's tests and return a fresh, empty store from {@link #createStore(Clock)}; the suite fills
 * it once, through its own transactions, and closes it after the last test. The largest count seen per tool is
 * printed when the suite ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BoundedAnswersSuite {
    /** The start of the toolbox's last-resort cut note. */
    public static final String CUT_MARKER = "cut here";

    private static final Encoding O200K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private LargeStore large;
    private final Map<String, Integer> worstCases = new TreeMap<>();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected BoundedAnswersSuite() {}

    /**
     * Creates the store under test. It must be empty; the suite fills it and closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    /**
     * Tells how many comments the long task gets: {@value LargeStore#COMMENTS} unless a store's test asks for fewer
     * (see {@link LargeStore#fill(TaskStore, int)}).
     *
     * @return at least 100
     */
    protected int longTaskComments() {
        return LargeStore.COMMENTS;
    }

    @BeforeAll
    void fillTheStore() {
        long start = System.nanoTime();
        large = LargeStore.fill(createStore(MutableClock.standard()), longTaskComments());
        System.out.println(getClass().getSimpleName() + " filled the store in "
                + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
    }

    @AfterAll
    void closeTheStore() {
        if (large != null) {
            large.store().close();
        }
        System.out.println(getClass().getSimpleName() + " worst cases in o200k tokens: " + worstCases);
    }

    @Test
    void everyQueueToolThatListsOrShowsTasksStaysWithinTheBudgetInRealTokens() {
        Toolbox tools = large.queue().tools();
        long id = large.longTask().id();

        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100}");
        String cursor = cursorOf(within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":3}"));
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"limit\":100,\"cursor\":\"" + cursor + "\"}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"blocked\",\"limit\":100}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"ready\",\"limit\":100}");
        within(tools, "get_my_queue", "{\"agent_name\":\"alice\",\"tag\":\"invoice\",\"limit\":100}");
        within(tools, "get_task", "{\"task_id\":" + id + "}");
        within(tools, "get_task", "{\"task_id\":" + id + ",\"view\":\"full\"}");
        within(
                tools,
                "get_task",
                "{\"task_id\":" + id + ",\"view\":\"full\",\"comments_before\":" + large.comments() / 2 + "}");
        within(tools, "get_task", "{\"task_id\":" + large.blockedTask().id() + ",\"view\":\"full\"}");
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
        Toolbox tools = large.queue().workerTools();
        within(tools, "get_task", "{\"task_id\":" + large.longTask().id() + ",\"view\":\"full\"}");
        within(tools, "signup_for_task", "{\"agent_name\":\"agent-7\"}");
    }

    /**
     * The dialects' listings page the session of 100,000 tasks: the first page, the largest page asked for, and a
     * page in the middle, each within the budget without the toolbox's cut, ending with the next page's cursor.
     */
    @Test
    void theDialectToolsOfTheLargeSessionStayWithinTheBudgetInRealTokens() {
        Toolbox claude = ClaudeTaskTools.forSession(large.store(), large.queue().sessionId());
        within(claude, ClaudeTaskTools.TASK_LIST, "{}");
        String cursor = cursorOf(within(claude, ClaudeTaskTools.TASK_LIST, "{\"limit\":500}"));
        ToolResult middle = within(claude, ClaudeTaskTools.TASK_LIST, "{\"limit\":500,\"cursor\":\"" + cursor + "\"}");
        assertThat(middle.text()).containsPattern("\n\\d+ more: call TaskList again with cursor \"[^\"]+\"$");
        within(
                claude,
                ClaudeTaskTools.TASK_GET,
                "{\"taskId\":\"" + large.longTask().id() + "\"}");
        within(
                claude,
                ClaudeTaskTools.TASK_GET,
                "{\"taskId\":\"" + large.blockedTask().id() + "\"}");

        Toolbox todo = TodoTools.forSession(large.store(), large.queue().sessionId());
        within(todo, TodoTools.TODO_READ, "{}");
        String page = within(todo, TodoTools.TODO_READ, "{\"limit\":500}").text();
        String next = page.replaceFirst("(?s).*\"next_cursor\":\"([^\"]+)\".*", "$1");
        assertThat(within(todo, TodoTools.TODO_READ, "{\"limit\":500,\"cursor\":\"" + next + "\"}")
                        .text())
                .contains("\"remaining\":");
    }

    /**
     * The extraction agent reads the session of 100,000 tasks in its input: the listing keeps to the agent's listing
     * budget, the default and a small one, in real tokens, and says in one line how many tasks it leaves out and
     * that they can still be addressed by order.
     */
    @Test
    void theExtractionListingOfTheLargeSessionStaysWithinItsBudgetInRealTokens() {
        int defaultBudget = TaskAgent.Builder.DEFAULT_LISTING_TOKEN_BUDGET;
        String listing = extractionListing(defaultBudget);
        assertThat(listing)
                .containsPattern(
                        "\\(\\d+ more tasks not shown: .*Any task can still be addressed by its" + " order\\.\\)\n$");
        withinListingBudget("extraction listing", listing, defaultBudget);

        String small = extractionListing(500);
        withinListingBudget("extraction listing (budget 500)", small, 500);
    }

    /** Runs the extraction agent once on the queue's session with a model that finishes at once; its listing. */
    private String extractionListing(int budget) {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
        TaskAgent agent = TaskAgent.builder(large.store(), model)
                .listingTokenBudget(budget)
                .build();
        AgentRun run = agent.run(
                large.queue().sessionId(),
                List.of(ConversationMessage.user("m1", "Remind the customer of the invoice")));
        assertThat(run.isSuccess()).as("the run: %s", run).isTrue();
        String input = ((UserMessage) model.requests().get(0).messages().get(0)).text();
        int start = input.indexOf("## Current Existing Tasks:\n");
        int end = input.indexOf("\n## Previous Progress:");
        assertThat(start).as("the input has a task listing: %s", input).isNotNegative();
        return input.substring(input.indexOf('\n', start) + 1, end);
    }

    private void withinListingBudget(String what, String listing, int budget) {
        int tokens = O200K.countTokensOrdinary(listing);
        worstCases.merge(what, tokens, Math::max);
        assertThat(tokens)
                .as(what + " takes " + tokens + " o200k tokens of its budget of " + budget)
                .isLessThanOrEqualTo(budget);
    }

    /** Calls a tool and checks its result: no error, within the budget in o200k tokens, not cut by the toolbox. */
    private ToolResult within(Toolbox tools, String tool, String arguments) {
        ToolResult result = tools.call(new ToolCall("worst-case", tool, arguments));
        assertThat(result.isError())
                .as(tool + " " + arguments + ": " + result.text())
                .isFalse();
        worstCases.merge(tool, assertWithinBudget(tools, tool, arguments, result), Math::max);
        return result;
    }

    /**
     * Checks that a tool's result keeps to the tool's result budget in real {@code o200k_base} tokens and was not
     * cut by the toolbox: for the worst-case tests of tools served by other modules, on a {@link LargeStore}.
     *
     * @param tools the toolbox the tool was called through
     * @param tool the tool's name; it must have a result budget
     * @param arguments the call's arguments, for the failure's message
     * @param result the result
     * @return the result's length in {@code o200k_base} tokens
     * @throws AssertionError if the result is over the budget or ends in the toolbox's cut
     */
    public static int assertWithinBudget(Toolbox tools, String tool, String arguments, ToolResult result) {
        int budget = tools.tool(tool)
                .orElseThrow(() -> new AssertionError("No tool " + tool))
                .resultBudget()
                .orElseThrow(() -> new AssertionError("The tool " + tool + " has no result budget"));
        int tokens = countTokens(result.text());
        assertThat(tokens)
                .as(tool + " " + arguments + " answers in " + tokens + " o200k tokens")
                .isLessThanOrEqualTo(budget);
        assertThat(result.text())
                .as(tool + " " + arguments + " bounds its own answer instead of leaving it to the toolbox's cut")
                .doesNotContain(CUT_MARKER);
        return tokens;
    }

    /**
     * Counts a text's tokens in {@code o200k_base} (jtokkit), special tokens taken as text.
     *
     * @param text any text
     * @return its tokens
     */
    public static int countTokens(String text) {
        return O200K.countTokensOrdinary(text);
    }

    private static String cursorOf(ToolResult result) {
        String text = result.text();
        int end = text.lastIndexOf('"');
        return text.substring(text.lastIndexOf('"', end - 1) + 1, end);
    }
}
