package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.internal.Json;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import dev.taskagent.testkit.queue.LargeStore;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The read-only {@code tasks} toolset keeps its worst case within its result budget on a {@link LargeStore}, in real
 * {@code o200k_base} tokens and without the toolbox's last-resort cut: {@code list_tasks} pages the session of 100,000
 * tasks, {@code get_task_with_steps} shows a window of a checklist of 1,000 long steps and 300 progress notes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskReadToolsBoundedTest {
    private static final Pattern CURSOR =
            Pattern.compile("\n(\\d+) more: call list_tasks again with cursor \"([^\"]+)\"$");

    private LargeStore large;
    private Toolbox tools;
    private final Map<String, Integer> worstCases = new TreeMap<>();

    @BeforeAll
    void fillTheStore() {
        large = LargeStore.fill(new InMemoryTaskStore(MutableClock.standard()));
        tools = TaskReadTools.toolbox(large.store(), new ObjectMapper());
    }

    @AfterAll
    void closeTheStore() {
        if (large != null) {
            large.store().close();
        }
        System.out.println("TaskReadToolsBoundedTest worst cases in o200k tokens: " + worstCases);
    }

    @Test
    void listTasksPagesTheLargeSessionWithinTheBudget() {
        String session = large.queue().sessionId();
        ToolResult first = within(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\"}");
        Matcher more = CURSOR.matcher(first.text());
        assertThat(more.find()).as(first.text()).isTrue();
        assertThat(first.text())
                .startsWith("Tasks of session " + session + ":\n1. #"
                        + large.longTask().id() + " ");

        ToolResult largest = within(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"limit\":500}");
        Matcher afterLargest = CURSOR.matcher(largest.text());
        assertThat(afterLargest.find()).isTrue();
        int shown = LargeStore.TASKS - Integer.parseInt(afterLargest.group(1));
        assertThat(shown).as("a page of long lines holds fewer than the limit").isBetween(2, 499);

        ToolResult middle = within(
                TaskReadTools.LIST_TASKS,
                "{\"session_id\":\"" + session + "\",\"limit\":500,\"cursor\":\"" + afterLargest.group(2) + "\"}");
        assertThat(middle.text()).startsWith("Tasks of session " + session + ":\n" + (shown + 1) + ". #");
        assertThat(CURSOR.matcher(middle.text()).find()).isTrue();

        within(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"tag\":\"invoice\",\"limit\":500}");
        ToolResult tagged =
                within(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"tag\":\"long\",\"limit\":500}");
        assertThat(tagged.text())
                .isEqualTo("Tasks tagged 'long' of session " + session + ":\n"
                        + TaskReadTools.listingLine(
                                large.store().findTask(large.longTask().id()).orElseThrow()));
    }

    @Test
    void getTaskWithStepsShowsAWindowOfALongChecklistWithinTheBudget() throws Exception {
        long id = large.longTask().id();
        ToolResult first = within(TaskReadTools.GET_TASK_WITH_STEPS, "{\"task_id\":" + id + "}");
        JsonNode task = Json.mapper().readTree(first.text());
        assertThat(task.get("steps_total").asInt()).isEqualTo(LargeStore.STEPS);
        assertThat(task.get("steps_done").asInt()).isEqualTo(400);
        assertThat(task.get("steps").get(0).get("number").asInt()).isEqualTo(1);
        assertThat(task.get("steps").size()).isBetween(1, 50);
        assertThat(task.get("progress_total").asInt()).isEqualTo(LargeStore.PROGRESS_NOTES);
        assertThat(task.get("progress").get(task.get("progress").size() - 1).asText())
                .startsWith("Progress " + (LargeStore.PROGRESS_NOTES - 1) + ": ");
        assertThat(task.get("truncated").toString()).contains("steps", "progress", "description");
        assertThat(Json.mapper().readTree(first.structuredContent()).get("task"))
                .isEqualTo(task);

        ToolResult later = within(TaskReadTools.GET_TASK_WITH_STEPS, "{\"task_id\":" + id + ",\"steps_from\":990}");
        JsonNode tail = Json.mapper().readTree(later.text());
        assertThat(tail.get("steps").get(0).get("number").asInt()).isEqualTo(990);
        assertThat(tail.get("steps")
                        .get(tail.get("steps").size() - 1)
                        .get("number")
                        .asInt())
                .isLessThanOrEqualTo(LargeStore.STEPS);

        within(
                TaskReadTools.GET_TASK_WITH_STEPS,
                "{\"task_id\":" + large.blockedTask().id() + "}");
    }

    @Test
    void badPagingArgumentsGetAClearErrorAndNothingElse() {
        String session = large.queue().sessionId();
        assertThat(error(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"limit\":0}"))
                .isEqualTo("Argument 'limit' must be between 1 and 500, not 0.");
        assertThat(error(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"limit\":1000000000}"))
                .isEqualTo("Argument 'limit' must be between 1 and 500, not 1000000000.");
        String forged = error(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"cursor\":\"forged\"}");
        assertThat(forged).startsWith("The cursor cannot be used: ").contains("again without a cursor.");
        String cursor = cursorOf(call(TaskReadTools.LIST_TASKS, "{\"session_id\":\"" + session + "\",\"limit\":2}"));
        assertThat(error(
                        TaskReadTools.LIST_TASKS,
                        "{\"session_id\":\"" + session + "\",\"tag\":\"invoice\",\"cursor\":\"" + cursor + "\"}"))
                .as("a cursor of another listing (no tag) is refused")
                .isEqualTo("The cursor belongs to another listing (other filters); a cursor continues only the"
                        + " listing that returned it. List again without a cursor.");
        long id = large.longTask().id();
        assertThat(error(TaskReadTools.GET_TASK_WITH_STEPS, "{\"task_id\":" + id + ",\"steps_from\":0}"))
                .isEqualTo("Argument 'steps_from' must be between 1 and 2147483647, not 0.");
        assertThat(error(TaskReadTools.GET_TASK_WITH_STEPS, "{\"task_id\":" + id + ",\"steps_from\":1000000000}"))
                .isEqualTo("Task " + id + " has 1000 steps; steps_from 1000000000 is past the last one.");
    }

    private ToolResult within(String tool, String arguments) {
        ToolResult result = call(tool, arguments);
        assertThat(result.isError())
                .as(tool + " " + arguments + ": " + result.text())
                .isFalse();
        worstCases.merge(tool, BoundedAnswersSuite.assertWithinBudget(tools, tool, arguments, result), Math::max);
        return result;
    }

    private String error(String tool, String arguments) {
        ToolResult result = call(tool, arguments);
        assertThat(result.isError())
                .as(tool + " " + arguments + ": " + result.text())
                .isTrue();
        return result.text();
    }

    private ToolResult call(String tool, String arguments) {
        return tools.call(new ToolCall("worst-case", tool, arguments));
    }

    private static String cursorOf(ToolResult result) {
        Matcher matcher = CURSOR.matcher(result.text());
        assertThat(matcher.find()).as(result.text()).isTrue();
        return matcher.group(2);
    }
}
