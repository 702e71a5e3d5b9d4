package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code list_tasks} pages a session: every task once, in order, while tasks are added and inserted between pages. */
class TaskReadToolsPagingTest {
    private static final Pattern LINE = Pattern.compile("^(\\d+)\\. #(\\d+) ", Pattern.MULTILINE);
    private static final Pattern CURSOR =
            Pattern.compile("\n(\\d+) more: call list_tasks again with cursor \"([^\"]+)\"$");

    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final Toolbox tools = TaskReadTools.toolbox(store, new ObjectMapper());

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void pagesListEveryTaskOnceWhileTasksAreAddedAndInsertedBetweenThem() {
        List<Long> created = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            created.add(store.inTransaction(tx -> tx.appendTask(NewTask.of("trip", "Task " + created.size())))
                    .id());
        }

        List<Long> listed = new ArrayList<>();
        String first = call("{\"session_id\":\"trip\",\"limit\":10}");
        listed.addAll(ids(first));
        store.inTransaction(tx -> tx.insertTask(NewTask.of("trip", "Inserted at the top"), 0));
        store.inTransaction(tx -> tx.appendTask(NewTask.of("trip", "Appended")));
        String second = call("{\"session_id\":\"trip\",\"limit\":10,\"cursor\":\"" + cursor(first, 15) + "\"}");
        listed.addAll(ids(second));
        String last = call("{\"session_id\":\"trip\",\"limit\":10,\"cursor\":\"" + cursor(second, 5) + "\"}");
        listed.addAll(ids(last));

        assertThat(listed).isEqualTo(created);
        assertThat(last)
                .endsWith("\n2 tasks were added since the first page: call list_tasks without a cursor to"
                        + " list them.");
    }

    @Test
    void aTaggedListingGoesOnAfterTheCursorsTaskLostItsTag() {
        List<Long> tagged = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            tagged.add(store.inTransaction(tx -> tx.appendTask(NewTask.builder("trip", "Tagged " + tagged.size())
                            .tags("ops")
                            .build()))
                    .id());
            store.inTransaction(tx -> tx.appendTask(NewTask.of("trip", "Untagged")));
        }

        String first = call("{\"session_id\":\"trip\",\"tag\":\"ops\",\"limit\":3}");
        long last = tagged.get(2);
        store.inTransaction(
                tx -> tx.updateTask(TaskUpdate.of(last).tags(List.of()).build()));
        String next =
                call("{\"session_id\":\"trip\",\"tag\":\"ops\",\"limit\":3,\"cursor\":\"" + cursor(first, 3) + "\"}");

        assertThat(ids(first)).isEqualTo(tagged.subList(0, 3));
        assertThat(ids(next)).isEqualTo(tagged.subList(3, 6));
    }

    @Test
    void aSessionWithoutTasksAndTheEndOfAListingSaySo() {
        assertThat(call("{\"session_id\":\"empty\"}")).isEqualTo("No tasks in session empty");
        store.inTransaction(tx -> tx.appendTask(NewTask.of("one", "Only task")));
        store.inTransaction(tx -> tx.appendTask(NewTask.of("one", "Second task")));
        String first = call("{\"session_id\":\"one\",\"limit\":1}");
        assertThat(call("{\"session_id\":\"one\",\"limit\":1,\"cursor\":\"" + cursor(first, 1) + "\"}"))
                .startsWith("Tasks of session one:\n2. #")
                .doesNotContain("more:");
    }

    private String call(String arguments) {
        ToolResult result = tools.call(new ToolCall("call-1", TaskReadTools.LIST_TASKS, arguments));
        assertThat(result.isError()).as(result.text()).isFalse();
        return result.text();
    }

    private static List<Long> ids(String page) {
        List<Long> ids = new ArrayList<>();
        Matcher matcher = LINE.matcher(page);
        while (matcher.find()) {
            ids.add(Long.parseLong(matcher.group(2)));
        }
        return ids;
    }

    private static String cursor(String page, int remaining) {
        Matcher matcher = CURSOR.matcher(page);
        assertThat(matcher.find()).as(page).isTrue();
        assertThat(Integer.parseInt(matcher.group(1))).isEqualTo(remaining);
        return matcher.group(2);
    }
}
