package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import dev.taskagent.store.TaskPage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.ForwardingTaskTransaction;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The search of the work queue ({@link TaskQueue#search(SearchQuery)} and the {@code search_tasks} tool), written
 * once and run on every store that searches: subclass it in a store's tests and return a fresh, empty store from
 * {@link #createStore(Clock)}. The store's own search is proven by the conformance kit (rules TS-13); this suite
 * checks what a model sees: compact lines, pages it can follow, and a soft error for every bad input, with nothing
 * written.
 */
public abstract class SearchToolSuite {
    private static final Pattern TASK_LINE = Pattern.compile("^#(\\d+) ", Pattern.MULTILINE);
    private static final Pattern CURSOR = Pattern.compile("cursor \"([A-Za-z0-9_-]+)\"$");

    private TaskStore store;
    private TaskQueue queue;
    private final AtomicInteger callIds = new AtomicInteger();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected SearchToolSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createQueue() {
        store = createStore(MutableClock.standard());
        queue = TaskQueue.builder(store).build();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void theToolListsOneCompactLinePerTaskAndPagesThroughEveryMatchOnce() {
        List<Long> created = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            created.add(
                    create("s1", "alice", "Überweisung Nummer " + i + " prüfen").id());
        }
        create("s1", "alice", "Rechnung schreiben");

        ToolResult first = call(Map.of("query", "ÜBERWEISUNG"));

        assertThat(first.isError()).isFalse();
        assertThat(first.text()).startsWith("Tasks matching 'überweisung', best first:\n");
        assertThat(ids(first)).hasSize(SearchQuery.DEFAULT_LIMIT);
        assertThat(first.text().lines().skip(1).limit(SearchQuery.DEFAULT_LIMIT))
                .allMatch(line -> line.matches("#\\d+ pending p0: Überweisung Nummer \\d+ prüfen @alice"));
        assertThat(first.text()).contains("\n5 more: call search_tasks again with the same query and filters");
        ToolResult second = call(Map.of("query", "überweisung", "cursor", cursor(first), "limit", 10));
        assertThat(second.text()).doesNotContain(" more: ");
        List<Long> seen = new ArrayList<>(ids(first));
        seen.addAll(ids(second));
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(created);
    }

    @Test
    void theToolFiltersByStatusAssigneeSessionAndTag() {
        Task alice = create("s1", "alice", "Bericht schreiben");
        Task bob = queue.create(NewTask.builder("s2", "Bericht lesen")
                .assignee("bob")
                .tags("review")
                .build());
        queue.update(TaskUpdate.of(bob.id()).status(TaskStatus.SUCCESS).build());

        assertThat(ids(call(Map.of("query", "bericht")))).containsExactlyInAnyOrder(alice.id(), bob.id());
        assertThat(ids(call(Map.of("query", "bericht", "status", "success")))).containsExactly(bob.id());
        assertThat(ids(call(Map.of("query", "bericht", "assignee", "alice")))).containsExactly(alice.id());
        assertThat(ids(call(Map.of("query", "bericht", "session_id", "s2")))).containsExactly(bob.id());
        assertThat(ids(call(Map.of("query", "bericht", "tag", "review")))).containsExactly(bob.id());
        ToolResult none = call(Map.of("query", "bericht", "tag", "review", "assignee", "alice"));
        assertThat(none.isError()).isFalse();
        assertThat(none.text()).isEqualTo("No tasks match 'bericht' (assignee alice, tag 'review').");
    }

    @Test
    void everyBadInputIsASoftErrorThatSaysWhatToDoAndWritesNothing() {
        for (int i = 0; i < 3; i++) {
            create("s1", "alice", "Vorgang " + i + " anlegen");
        }
        String cursor = cursor(call(Map.of("query", "vorgang", "limit", 1)));
        List<Task> before = store.listTasks("s1");
        Map<String, Map<String, Object>> bad = new LinkedHashMap<>();
        bad.put("a cursor of another query", Map.of("query", "anlegen", "cursor", cursor));
        bad.put("a cursor of other filters", Map.of("query", "vorgang", "assignee", "alice", "cursor", cursor));
        bad.put("a forged cursor", Map.of("query", "vorgang", "cursor", "AQ" + cursor.substring(2, 40) + "xyz"));
        bad.put("a cut cursor", Map.of("query", "vorgang", "cursor", cursor.substring(0, cursor.length() - 3)));
        bad.put("a cursor that is no cursor", Map.of("query", "vorgang", "cursor", "' OR 1=1 --"));
        bad.put("a megabyte cursor", Map.of("query", "vorgang", "cursor", "A".repeat(1 << 20)));
        bad.put("a limit of 0", Map.of("query", "vorgang", "limit", 0));
        bad.put("a limit of 10^9", Map.of("query", "vorgang", "limit", 1_000_000_000));
        bad.put("a limit beyond int", Map.of("query", "vorgang", "limit", 1_000_000_000_000L));
        bad.put("operators only", Map.of("query", "\"&|!()*"));
        bad.put("an empty query", Map.of("query", ""));
        bad.put("a megabyte of query", Map.of("query", "vorgang ".repeat(1 << 17)));
        bad.put("no query", Map.of("assignee", "alice"));
        bad.put("an unknown status", Map.of("query", "vorgang", "status", "done"));
        bad.put("a tag no task can carry", Map.of("query", "vorgang", "tag", " padded "));

        for (Map.Entry<String, Map<String, Object>> input : bad.entrySet()) {
            ToolResult result = call(input.getValue());
            assertThat(result.isError()).as(input.getKey()).isTrue();
            assertThat(result.text())
                    .as(input.getKey())
                    .hasSizeLessThan(400)
                    .doesNotContain("Exception", "\tat ")
                    .containsAnyOf("query", "cursor", "limit", "status", "tag");
        }
        assertThat(store.listTasks("s1")).isEqualTo(before);
    }

    @Test
    void theJavaApiRefusesBadCursorsWithATypedExceptionAndPagesLikeTheTool() {
        for (int i = 0; i < 5; i++) {
            create("s1", "alice", "Lieferung " + i + " prüfen");
        }
        SearchQuery query = SearchQuery.of("lieferung").withLimit(2);
        TaskPage first = queue.search(query);
        TaskPage second = queue.search(query.withCursor(first.cursor()));

        assertThat(first.tasks()).hasSize(2);
        assertThat(first.remaining()).isEqualTo(3);
        assertThat(second.tasks()).hasSize(2).doesNotContainAnyElementsOf(first.tasks());
        assertThatThrownBy(() -> queue.search(SearchQuery.of("prüfen").withCursor(first.cursor())))
                .isInstanceOf(SearchCursorException.class)
                .hasMessageContaining("another search");
        assertThatThrownBy(() -> queue.search(query.withCursor(first.cursor().substring(1))))
                .isInstanceOf(SearchCursorException.class)
                .hasMessageContaining("without a cursor");
    }

    @Test
    void aStoreThatCannotSearchIsASoftErrorNamingOtherTools() {
        TaskStore cannotSearch = new TaskStore() {
            @Override
            public <R> R inTransaction(TransactionWork<R> work) {
                return store.inTransaction(transaction -> work.execute(new ForwardingTaskTransaction(transaction) {
                    @Override
                    public TaskPage searchTasks(SearchQuery query) {
                        throw new UnsupportedOperationException("no search here");
                    }
                }));
            }
        };
        ToolResult result = TaskQueue.builder(cannotSearch)
                .build()
                .tools()
                .call(new ToolCall("1", "search_tasks", "{\"query\":\"anything\"}"));

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).contains("cannot search").contains("get_my_queue");
    }

    private Task create(String session, String assignee, String description) {
        return queue.create(
                NewTask.builder(session, description).assignee(assignee).build());
    }

    private ToolResult call(Map<String, Object> arguments) {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, Object> argument : arguments.entrySet()) {
            json.append(json.length() == 1 ? "" : ",")
                    .append(quote(argument.getKey()))
                    .append(':');
            Object value = argument.getValue();
            json.append(value instanceof String text ? quote(text) : String.valueOf(value));
        }
        return queue.tools()
                .call(new ToolCall(
                        "call-" + callIds.incrementAndGet(),
                        "search_tasks",
                        json.append('}').toString()));
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static List<Long> ids(ToolResult result) {
        assertThat(result.isError()).as(result.text()).isFalse();
        List<Long> ids = new ArrayList<>();
        Matcher matcher = TASK_LINE.matcher(result.text());
        while (matcher.find()) {
            ids.add(Long.parseLong(matcher.group(1)));
        }
        return ids;
    }

    private static String cursor(ToolResult result) {
        Matcher matcher = CURSOR.matcher(result.text());
        assertThat(matcher.find()).as(result.text()).isTrue();
        return matcher.group(1);
    }
}
