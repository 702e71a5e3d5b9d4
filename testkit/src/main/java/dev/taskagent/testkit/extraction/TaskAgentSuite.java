package dev.taskagent.testkit.extraction;

import static dev.taskagent.llm.ScriptedChatModel.call;
import static dev.taskagent.llm.ScriptedChatModel.text;
import static dev.taskagent.llm.ScriptedChatModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.RunError;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.AgentRun.StopReason;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.extraction.ToolCallRecord;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.testkit.internal.Logged;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of the extraction {@link TaskAgent} on a real store, driven by a {@link
 * ScriptedChatModel}: the tools' semantics and guards, the loop, atomicity of an iteration, events, the
 * finished-task hook and per-session serialisation. Extend it once per store:
 *
 * <pre>{@code
 * class InMemoryTaskAgentTest extends TaskAgentSuite {
 *     @Override
 *     protected TaskStore createStore(Clock clock) {
 *         return new InMemoryTaskStore(clock);
 *     }
 * }
 * }</pre>
 *
 * <p>Each test gets a fresh store from {@link #createStore(Clock)} and works in a session of its own. The
 * tests of a failing model, tool or store also check that the failed run was logged once, at WARN, in one
 * line, when slf4j-simple is the logging backend (it writes to standard error, where they look).
 */
public abstract class TaskAgentSuite {
    private MutableClock clock;
    private TaskStore store;
    private String session;
    private final List<TaskEvent> events = new CopyOnWriteArrayList<>();
    private final List<Task> finishedTasks = new CopyOnWriteArrayList<>();

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected TaskAgentSuite() {}

    /**
     * Creates an empty store for one test.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store; closed after the test
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void openStore() {
        clock = MutableClock.standard();
        store = createStore(clock);
        session = "agent-suite-" + UUID.randomUUID();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    // ---- the eight tools -------------------------------------------------------------------------

    @Test
    void oneUserMessageHoldingTwoRequestsBecomesTwoTasksInTheUsersWords() {
        ScriptedChatModel model = script(toolCalls(
                call("report_thinking", json("thinking", "Two requests: booking and texting Anna.")),
                call("insert_task", json("after_task_order", 0, "task_description", "Book a table for two at 7pm")),
                call("insert_task", json("after_task_order", 1, "task_description", "Text Anna the address")),
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(0))),
                call("finish", "{}")));

        AgentRun run =
                run(model, ConversationMessage.user("host-1", "Book a table for two at 7pm and text Anna the address"));

        assertThat(run.isSuccess()).isTrue();
        assertThat(descriptions()).containsExactly("Book a table for two at 7pm", "Text Anna the address");
        assertThat(tasks().get(0).status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(tasks().get(0).messageIds()).containsExactly("host-1");
        assertThat(tasks().get(1).status()).isEqualTo(TaskStatus.PENDING);
        assertThat(run.createdTasks())
                .extracting(Task::description)
                .containsExactly(descriptions().toArray(String[]::new));
        assertThat(run.thinking()).containsExactly("Two requests: booking and texting Anna.");
    }

    @Test
    void insertTaskAtTheStartRenumbersAndAnOrderPastTheEndAppends() {
        seed("Second");
        ScriptedChatModel model = script(toolCalls(
                call("insert_task", json("after_task_order", 0, "task_description", "First")),
                call("insert_task", json("after_task_order", 99, "task_description", "Last")),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        assertThat(descriptions()).containsExactly("First", "Second", "Last");
        assertThat(tasks()).extracting(Task::order).containsExactly(1, 2, 3);
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo("Created task 1 \"First\" (pending). The tasks that were at orders 1..1 are now at 2..2.");
        assertThat(run.toolCalls().get(1).result().text())
                .isEqualTo("Created task 3 \"Last\" (pending). It is the last of 3 tasks.");
        assertThat(run.changedTasks()).isEmpty();
    }

    @Test
    void updateTaskChangesStatusAndDescriptionKeepsOtherFieldsAndIgnoresABlankDescription() {
        Task task = seed("Add dark mode");
        setPreferences(task, List.of("Use CSS variables"));
        store.inTransaction(tx -> tx.appendProgress(task.id(), "Found the settings page"));
        ScriptedChatModel model = script(toolCalls(
                call(
                        "update_task",
                        json("task_order", 1, "task_description", "Add a dark mode toggle to the settings page")),
                call("update_task", json("task_order", 1, "task_status", "success", "task_description", "  ")),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        Task after = tasks().get(0);
        assertThat(after.description()).isEqualTo("Add a dark mode toggle to the settings page");
        assertThat(after.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(after.userPreferences()).containsExactly("Use CSS variables");
        assertThat(after.progresses()).containsExactly("Found the settings page");
        assertThat(run.toolCalls())
                .extracting(record -> record.result().isError())
                .containsOnly(false);
        assertThat(run.changedTasks()).extracting(Task::id).containsExactly(task.id());
    }

    @Test
    void anyStatusMayFollowAnyStatus() {
        seed("Deploy");
        List<ToolCall> calls = new ArrayList<>();
        for (String status :
                List.of("success", "pending", "failed", "running", "failed", "success", "running", "pending")) {
            calls.add(call("update_task", json("task_order", 1, "task_status", status)));
        }
        calls.add(call("finish", "{}"));

        AgentRun run = run(script(toolCalls(calls.toArray(ToolCall[]::new))), ConversationMessage.user("m", "..."));

        assertThat(run.toolCalls())
                .extracting(record -> record.result().isError())
                .containsOnly(false);
        assertThat(tasks().get(0).status()).isEqualTo(TaskStatus.PENDING);
    }

    @Test
    void setPreferenceReplacesAPreferenceOfOneElement() {
        Task task = seed("Build the signup page");
        setPreferences(task, List.of("Use React"));

        runSetPreference(1, "Use Vue");

        assertThat(tasks().get(0).userPreferences()).containsExactly("Use Vue");
    }

    @Test
    void setPreferenceWorksOnATaskWhosePreferenceWasNeverSet() {
        seed("Build the signup page");

        runSetPreference(1, "Use Vue");

        assertThat(tasks().get(0).userPreferences()).containsExactly("Use Vue");
    }

    @Test
    void setPreferenceReplacesAnEmptyPreferenceList() {
        Task task = seed("Build the signup page");
        setPreferences(task, List.of());

        runSetPreference(1, "Use Vue");

        assertThat(tasks().get(0).userPreferences()).containsExactly("Use Vue");
    }

    @Test
    void setPreferenceReplacesALegacyListOfManyWithOneElement() {
        Task task = seed("Build the signup page");
        setPreferences(task, List.of("a", "b", "c"));

        runSetPreference(1, "new");

        assertThat(tasks().get(0).userPreferences()).containsExactly("new");
        assertThat(events).singleElement().isInstanceOfSatisfying(TaskEvent.PreferenceSet.class, event -> assertThat(
                        event.preference())
                .isEqualTo("new"));
    }

    @Test
    void setPreferenceWorksOnEveryStatus() {
        for (TaskStatus status : TaskStatus.values()) {
            Task task = seed("Task " + status.wireName());
            setStatus(task, status);
        }
        List<ToolCall> calls = new ArrayList<>();
        List<List<String>> expected = new ArrayList<>();
        for (int order = 1; order <= TaskStatus.values().length; order++) {
            calls.add(call("set_task_user_preference", json("task_order", order, "user_preference", "pref " + order)));
            expected.add(List.of("pref " + order));
        }
        calls.add(call("finish", "{}"));

        AgentRun run = run(script(toolCalls(calls.toArray(ToolCall[]::new))), ConversationMessage.user("m", "..."));

        assertThat(run.toolCalls())
                .extracting(record -> record.result().isError())
                .containsOnly(false);
        assertThat(tasks()).extracting(Task::userPreferences).containsExactlyElementsOf(expected);
        assertThat(tasks()).extracting(Task::status).containsExactly(TaskStatus.values());
    }

    @Test
    void aBlankPreferenceIsRejectedAndTheOldOneKept() {
        Task task = seed("Build the signup page");
        setPreferences(task, List.of("Use React"));

        AgentRun run = runSetPreference(1, "   ");

        assertThat(run.toolCalls().get(0).result().isError()).isTrue();
        assertThat(run.toolCalls().get(0).result().text()).isEqualTo("Argument 'user_preference' must not be blank.");
        assertThat(tasks().get(0).userPreferences()).containsExactly("Use React");
    }

    @Test
    void aChangeOfMindLeavesOnePreferenceThatSaysTheLatestChoice() {
        seed("Build the signup page");
        runSetPreference(1, "Use React; email ann@example.com when done");
        ScriptedChatModel model = script(respondWith -> toolCalls(
                call(
                        "set_task_user_preference",
                        json("task_order", 1, "user_preference", "Use Vue; email ann@example.com when done")),
                call("finish", "{}")));

        run(model, ConversationMessage.user("m2", "actually, Vue"));

        assertThat(inputOf(model.requests().get(0)))
                .contains(
                        "- Task 1: Build the signup page (Status: pending) | User Prefs: \"Use React; email ann@example.com when done\"");
        assertThat(tasks().get(0).userPreferences()).containsExactly("Use Vue; email ann@example.com when done");
    }

    @Test
    void appendProgressAddsOneVerbatimEntryAndTouchesNeitherPreferenceNorStatus() {
        Task task = seed("Build the login page");
        setPreferences(task, List.of("Use TypeScript"));
        setStatus(task, TaskStatus.RUNNING);
        String entry = "Created login component in src/Login.tsx — \"quotes\", 'apostrophes'; DROP TABLE tasks; 🚀";
        ScriptedChatModel model = script(toolCalls(
                call("append_task_progress", json("task_order", 1, "progress", entry)), call("finish", "{}")));

        run(model, ConversationMessage.user("m", "..."));

        Task after = tasks().get(0);
        assertThat(after.progresses()).containsExactly(entry);
        assertThat(after.userPreferences()).containsExactly("Use TypeScript");
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
    }

    @Test
    void appendMessagesLinksHostIdsSetsRunningAndTouchesNeitherProgressNorPreference() {
        Task task = seed("Build the login page");
        setPreferences(task, List.of("Use TypeScript"));
        store.inTransaction(tx -> tx.appendProgress(task.id(), "Read the spec"));
        ScriptedChatModel model = script(toolCalls(
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(1, 0))),
                call("finish", "{}")));

        AgentRun run = run(
                model,
                ConversationMessage.user("host-a", "Build the login page"),
                ConversationMessage.assistant("host-b", "On it"));

        Task after = tasks().get(0);
        assertThat(after.messageIds()).containsExactly("host-b", "host-a");
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(after.progresses()).containsExactly("Read the spec");
        assertThat(after.userPreferences()).containsExactly("Use TypeScript");
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo("Linked messages 1, 0 to task 1 \"Build the login page\"; its status is now running.");
    }

    @Test
    void appendMessagesAndProgressAreRejectedOnSuccessAndFailedTasks() {
        setStatus(seed("Deploy to staging"), TaskStatus.SUCCESS);
        setStatus(seed("Deploy to production"), TaskStatus.FAILED);
        List<Task> before = tasks();
        ScriptedChatModel model = script(toolCalls(
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(0))),
                call("append_messages_to_task", json("task_order", 2, "message_ids", List.of(0))),
                call("append_task_progress", json("task_order", 1, "progress", "Ran the deploy script")),
                call("append_task_progress", json("task_order", 2, "progress", "Ran the deploy script")),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "deploy again"));

        assertThat(run.toolCalls().subList(0, 4))
                .allSatisfy(record -> assertThat(record.result().isError()).isTrue());
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo(
                        "Cannot link messages to task 1 \"Deploy to staging\": it is success. If work on it restarted,"
                                + " first set it running with update_task, then link the messages.");
        assertThat(run.toolCalls().get(3).result().text())
                .isEqualTo(
                        "Cannot add progress to task 2 \"Deploy to production\": it is failed. If work on it restarted,"
                                + " first set it running with update_task, then add the progress.");
        assertThat(tasks()).isEqualTo(before);
    }

    @Test
    void aFailedTaskIsRetriedBySettingItRunningThenAppending() {
        setStatus(seed("Deploy to production"), TaskStatus.FAILED);
        ScriptedChatModel model = script(toolCalls(
                call("update_task", json("task_order", 1, "task_status", "running")),
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(0))),
                call(
                        "append_task_progress",
                        json("task_order", 1, "progress", "Re-ran deploy.sh with the fixed token")),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("retry-1", "try the deploy again"));

        assertThat(run.toolCalls())
                .extracting(record -> record.result().isError())
                .containsOnly(false);
        Task after = tasks().get(0);
        assertThat(after.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(after.messageIds()).containsExactly("retry-1");
        assertThat(after.progresses()).containsExactly("Re-ran deploy.sh with the fixed token");
    }

    @Test
    void progressAndPreferenceOnTheSameTaskInOneIterationBothLand() {
        seed("Build the signup page");
        ScriptedChatModel model = script(toolCalls(
                call("append_task_progress", json("task_order", 1, "progress", "Scaffolded src/Signup.vue")),
                call("set_task_user_preference", json("task_order", 1, "user_preference", "Use Vue")),
                call("finish", "{}")));

        run(model, ConversationMessage.user("m", "..."));

        Task after = tasks().get(0);
        assertThat(after.progresses()).containsExactly("Scaffolded src/Signup.vue");
        assertThat(after.userPreferences()).containsExactly("Use Vue");
    }

    @Test
    void planningMessagesGoToThePlanningSectionWhichIsNeverListed() {
        seed("Build the login page");
        ScriptedChatModel model = script(toolCalls(
                call("append_messages_to_planning_section", json("message_ids", List.of(0, 5))), call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("plan-1", "First the backend, then the UI"));

        assertThat(planningMessageIds()).containsExactly("plan-1");
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo("Linked message 0 to the planning section. Skipped ids not in this batch (valid: 0): 5.");
        assertThat(tasks()).hasSize(1);
        ScriptedChatModel next = script(toolCalls(call("finish", "{}")));
        run(next, ConversationMessage.user("m2", "..."));
        assertThat(inputOf(next.requests().get(0)))
                .contains("## Current Existing Tasks:\n- Task 1: Build the login page (Status: pending)\n\n");
    }

    @Test
    void messagesMovedBetweenTasksAndThePlanningSectionReportEveryTaskThatChanged() {
        seed("Build the login page");
        seed("Write the docs");
        ScriptedChatModel model = script(
                toolCalls(call("append_messages_to_task", "{\"task_order\":1,\"message_ids\":[0]}")),
                toolCalls(
                        call("append_messages_to_planning_section", json("message_ids", List.of(0))),
                        call("append_messages_to_task", "{\"task_order\":2,\"message_ids\":[0]}"),
                        call("finish", "{}")));
        AgentRun run = run(model, ConversationMessage.user("h0", "Docs first, then the login page"));

        assertThat(run.isSuccess()).isTrue();
        assertThat(tasks().get(0).messageIds()).isEmpty();
        assertThat(tasks().get(1).messageIds()).containsExactly("h0");
        assertThat(planningMessageIds()).isEmpty();
        assertThat(run.changedTasks()).extracting(Task::description).contains("Build the login page", "Write the docs");
        List<TaskEvent> loginPageUpdates = events.stream()
                .filter(event -> event instanceof TaskEvent.Updated)
                .filter(event -> event.task().description().equals("Build the login page"))
                .toList();
        assertThat(loginPageUpdates)
                .as("the task that lost h0 to the planning section")
                .isNotEmpty();
        assertThat(events)
                .filteredOn(event -> event instanceof TaskEvent.MessagesLinked)
                .extracting(event -> event.task().description())
                .containsExactly("Build the login page", "Write the docs");
    }

    @Test
    void planningWithNoValidMessageIdIsANoteNotAnError() {
        ScriptedChatModel model = script(toolCalls(
                call("append_messages_to_planning_section", json("message_ids", List.of(3))), call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        assertThat(run.toolCalls().get(0).result().isError()).isFalse();
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo(
                        "Note: None of the message ids 3 is in this batch; nothing was linked. Use ids 0 as shown in <message id=N>.");
        assertThat(planningMessageIds()).isEmpty();
    }

    // ---- the input ---------------------------------------------------------------------------------

    @Test
    void listingShowsOnePreferenceJoinsALegacyListAndOmitsNoneAndEmpty() {
        setPreferences(seed("One"), List.of("Use Vue"));
        setPreferences(seed("Legacy"), List.of("a", "b", "c"));
        seed("None");
        setPreferences(seed("Empty"), List.of());
        ScriptedChatModel model = script(toolCalls(call("finish", "{}")));

        run(model, ConversationMessage.user("m", "hello"));

        assertThat(inputOf(model.requests().get(0)))
                .startsWith("## Current Existing Tasks:\n"
                        + "- Task 1: One (Status: pending) | User Prefs: \"Use Vue\"\n"
                        + "- Task 2: Legacy (Status: pending) | User Prefs: \"a | b | c\"\n"
                        + "- Task 3: None (Status: pending)\n"
                        + "- Task 4: Empty (Status: pending)\n\n"
                        + "## Previous Progress:\n");
    }

    @Test
    void previousProgressShowsTheLastSixEntriesOfTheSession() {
        Task first = seed("One");
        Task second = seed("Two");
        for (String entry : List.of("a", "b", "c", "d")) {
            store.inTransaction(tx -> tx.appendProgress(first.id(), entry));
        }
        for (String entry : List.of("e", "f", "g")) {
            store.inTransaction(tx -> tx.appendProgress(second.id(), entry));
        }
        ScriptedChatModel model = script(toolCalls(call("finish", "{}")));

        run(model, ConversationMessage.user("m", "hello"));

        assertThat(inputOf(model.requests().get(0)))
                .contains(
                        "## Previous Progress:\nTask 1: b\nTask 1: c\nTask 1: d\nTask 2: e\nTask 2: f\nTask 2: g\n\n");
    }

    @Test
    void aRunOnTwoHundredLongTasksListsTheNewestWithinTheTruncationRulesAndCountsTheRest() {
        store.inTransaction(tx -> {
            for (int index = 1; index <= 200; index++) {
                Task task = tx.appendTask(NewTask.of(session, "Request " + index + " " + "x".repeat(2000)));
                tx.appendProgress(task.id(), "Did " + index + " " + "y".repeat(2000));
            }
            return null;
        });
        ScriptedChatModel model = script(toolCalls(
                call("update_task", json("task_order", 200, "task_status", "success")), call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "z".repeat(5000)));

        String input = inputOf(model.requests().get(0));
        List<String> taskLines =
                input.lines().filter(line -> line.startsWith("- Task ")).toList();
        // 200 descriptions of a truncated 1,024 characters are over the listing's token budget: the newest are
        // listed, and one line counts the rest.
        String leftOut =
                input.lines().filter(line -> line.startsWith("- (")).findFirst().orElseThrow();
        int hidden = Integer.parseInt(leftOut.replaceAll("^- \\((\\d+) more tasks not shown.*$", "$1"));
        assertThat(taskLines).isNotEmpty();
        assertThat(taskLines.size() + hidden).isEqualTo(200);
        assertThat(taskLines.get(taskLines.size() - 1))
                .startsWith("- Task 200: Request 200 x")
                .contains("… [truncated: ");
        assertThat(input.lines().filter(line -> line.startsWith("Task ")).toList())
                .hasSize(6)
                .last()
                .asString()
                .startsWith("Task 200: Did 200 y");
        String mark = "… [truncated: 9999 more characters]";
        assertThat(input.lines()).allSatisfy(line -> assertThat(line.length())
                .isLessThanOrEqualTo(TaskAgent.Builder.DEFAULT_PART_TRUNCATION_LENGTH + mark.length() + 40));
        assertThat(run.isSuccess()).isTrue();
        assertThat(tasks().get(199).status()).isEqualTo(TaskStatus.SUCCESS);
    }

    // ---- bad input from the model ------------------------------------------------------------------

    @Test
    void everyKindOfBadModelInputGetsAHelpfulSoftErrorAndWritesNothing() {
        seed("One");
        seed("Two");
        seed("Three");
        List<Task> before = tasks();
        List<ToolCall> bad = List.of(
                call("append_task_progress", json("task_order", "first", "progress", "x")),
                call("insert_task", json("after_task_order", 1)),
                call("update_task", json("task_order", 7, "task_status", "running")),
                call("update_task", json("task_order", 1, "task_status", "done")),
                call("delete_task", json("task_order", 1)),
                call("append_task_progress", "{task_order: 1, progress: oops"),
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(7, 9))),
                call("insert_task", json("after_task_order", -1, "task_description", "Sneaky")),
                call("insert_task", json("after_task_order", 0, "task_description", " ")),
                call("update_task", json("task_order", 2)),
                call("append_messages_to_task", json("task_order", 0, "message_ids", List.of(0))),
                call("set_task_user_preference", json("task_order", 1, "user_preference", List.of("a", "b"))));
        List<ToolCall> calls = new ArrayList<>(bad);
        calls.add(call("finish", "{}"));
        ScriptedChatModel model = script(toolCalls(calls.toArray(ToolCall[]::new)));

        AgentRun run = run(model, ConversationMessage.user("m0", "..."), ConversationMessage.user("m1", "..."));

        assertThat(run.isSuccess()).isTrue();
        assertThat(run.stopReason()).isEqualTo(StopReason.FINISH);
        List<String> errors = run.toolCalls().subList(0, bad.size()).stream()
                .peek(record -> assertThat(record.result().isError())
                        .as("result of %s", record.call())
                        .isTrue())
                .map(record -> record.result().text())
                .toList();
        assertThat(errors.get(0)).isEqualTo("Argument 'task_order' must be an integer, not the string \"first\".");
        assertThat(errors.get(1)).isEqualTo("Missing required argument 'task_description' (a string).");
        assertThat(errors.get(2)).isEqualTo("Task order 7 is out of range (1..3); use an order from the task list.");
        assertThat(errors.get(3))
                .isEqualTo("Argument 'task_status' is 'done'; use one of pending, running, success, failed.");
        assertThat(errors.get(4))
                .isEqualTo(
                        "Unknown tool 'delete_task'. Available tools: insert_task, update_task, append_messages_to_task,"
                                + " append_task_progress, set_task_user_preference, append_messages_to_planning_section,"
                                + " report_thinking, finish.");
        assertThat(errors.get(5)).startsWith("The arguments are not valid JSON");
        assertThat(errors.get(6))
                .isEqualTo("None of the message ids 7, 9 is in this batch; nothing was linked. Use ids 0..1 as shown in"
                        + " <message id=N>.");
        assertThat(errors.get(7))
                .isEqualTo("after_task_order must be 0 or more (0 inserts at the start), was -1. Use 0 or an order from"
                        + " the task list.");
        assertThat(errors.get(8)).isEqualTo("Argument 'task_description' must not be blank.");
        assertThat(errors.get(9))
                .isEqualTo("Nothing to update: send task_status (pending, running, success, failed) and/or a non-blank"
                        + " task_description.");
        assertThat(errors.get(10)).isEqualTo("Task order 0 is out of range (1..3); use an order from the task list.");
        assertThat(errors.get(11)).startsWith("Argument 'user_preference' must be a string");
        assertThat(tasks()).isEqualTo(before);
        assertThat(events).isEmpty();
    }

    @Test
    void messageIdsOutsideTheBatchAreSkippedAndReported() {
        seed("Build the login page");
        ScriptedChatModel model = script(toolCalls(
                call("append_messages_to_task", json("task_order", 1, "message_ids", List.of(0, 2, 1, -1))),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("h0", "a"), ConversationMessage.user("h1", "b"));

        assertThat(tasks().get(0).messageIds()).containsExactly("h0", "h1");
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo("Linked messages 0, 1 to task 1 \"Build the login page\"; its status is now running."
                        + " Skipped ids not in this batch (valid: 0..1): 2, -1.");
    }

    @Test
    void anOrderOnAnEmptyListTellsTheModelToInsertFirst() {
        ScriptedChatModel model = script(toolCalls(
                call("append_task_progress", json("task_order", 1, "progress", "Did it")), call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo(
                        "Task order 1 does not exist: the task list is empty. Create the task with insert_task first.");
    }

    // ---- the loop -----------------------------------------------------------------------------------

    @Test
    void theRunStopsWhenTheModelCallsFinishAfterRunningTheRestOfTheBatch() {
        ScriptedChatModel model = script(toolCalls(
                call("finish", "{}"),
                call("insert_task", json("after_task_order", 0, "task_description", "Still done"))));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        assertThat(run.stopReason()).isEqualTo(StopReason.FINISH);
        assertThat(run.iterations()).isEqualTo(1);
        assertThat(model.requestCount()).isEqualTo(1);
        assertThat(descriptions()).containsExactly("Still done");
        assertThat(run.toolCalls().get(0).result().text())
                .isEqualTo("Finished: the run ends after this batch of calls.");
    }

    @Test
    void theRunStopsWhenTheModelAnswersWithoutToolCalls() {
        ScriptedChatModel model = script(
                toolCalls(call("insert_task", json("after_task_order", 0, "task_description", "Book a table"))),
                text("All done."));

        AgentRun run = run(model, ConversationMessage.user("m", "Book a table"));

        assertThat(run.stopReason()).isEqualTo(StopReason.NO_TOOL_CALLS);
        assertThat(run.isSuccess()).isTrue();
        assertThat(run.iterations()).isEqualTo(2);
        assertThat(run.tokenUsage()).isEqualTo(new TokenUsage(200, 40));
        assertThat(descriptions()).containsExactly("Book a table");
    }

    @Test
    void theRunStopsAtTheIterationLimit() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(toolCalls(call("report_thinking", json("thinking", "1"))))
                .respond(toolCalls(call("report_thinking", json("thinking", "2"))))
                .respond(toolCalls(call("report_thinking", json("thinking", "3"))))
                .build();
        TaskAgent agent = agentBuilder(model).maxIterations(2).build();

        AgentRun run = agent.run(session, List.of(ConversationMessage.user("m", "...")));

        assertThat(run.iterationLimitReached()).isTrue();
        assertThat(run.isSuccess()).isTrue();
        assertThat(run.iterations()).isEqualTo(2);
        assertThat(model.requestCount()).isEqualTo(2);
        assertThat(run.thinking()).containsExactly("1", "2");
        assertThat(run.tokenUsage()).isEqualTo(new TokenUsage(200, 40));
    }

    @Test
    void aModelFailureEndsTheRunWithTheErrorInTheResultKeepsEarlierIterationsAndLogsOneLine() {
        ChatModelException failure = new ChatModelException("rate limited, retry later");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(
                        toolCalls(call("insert_task", json("after_task_order", 0, "task_description", "Book a table"))))
                .fail(failure)
                .build();

        Logged<AgentRun> logged = Logged.of(() -> run(model, ConversationMessage.user("m", "Book a table")));

        AgentRun run = logged.value();
        assertThat(run.isSuccess()).isFalse();
        assertThat(run.stopReason()).isEqualTo(StopReason.ERROR);
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.MODEL);
        assertThat(error.iteration()).isEqualTo(2);
        assertThat(error.cause()).isSameAs(failure);
        assertThat(error.toolName()).isNull();
        assertThat(error.message())
                .isEqualTo("The chat model failed in iteration 2: ChatModelException: rate limited, retry later");
        assertThat(descriptions()).containsExactly("Book a table");
        assertThat(run.createdTasks()).extracting(Task::description).containsExactly("Book a table");
        assertThat(run.iterations()).isEqualTo(2);
        logged.assertOneWarning("Extraction of session '" + session + "' stopped: " + error.message());
    }

    @Test
    void everyToolCallGetsAToolResultInTheHistoryOfTheNextRequest() {
        ScriptedChatModel model = script(
                toolCalls(
                        call("report_thinking", json("thinking", "one task")),
                        call("insert_task", json("after_task_order", 0, "task_description", "Book a table")),
                        call("no_such_tool", "{}")),
                toolCalls(call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "Book a table"));

        List<ChatMessage> history = model.requests().get(1).messages();
        assertThat(history).hasSize(5);
        assertThat(history.get(0)).isInstanceOf(UserMessage.class);
        AssistantMessage assistant = (AssistantMessage) history.get(1);
        List<ToolResultMessage> results = history.subList(2, 5).stream()
                .map(ToolResultMessage.class::cast)
                .toList();
        assertThat(results)
                .extracting(ToolResultMessage::toolCallId)
                .containsExactlyElementsOf(
                        assistant.toolCalls().stream().map(ToolCall::id).toList());
        assertThat(results).extracting(ToolResultMessage::isError).containsExactly(false, false, true);
        assertThat(run.toolCalls()).hasSize(4);
        assertThat(run.toolCalls().get(3).call().name()).isEqualTo("finish");
        assertThat(run.toolCalls().get(3).result().isError()).isFalse();
        assertThat(run.toolCalls()).extracting(ToolCallRecord::iteration).containsExactly(1, 1, 1, 2);
    }

    @Test
    void theContextIsRebuiltWithinTheIterationSoLaterCallsSeeNewOrdersAndStatuses() {
        seed("Old first");
        ScriptedChatModel model = script(toolCalls(
                call("insert_task", json("after_task_order", 0, "task_description", "New first")),
                call("update_task", json("task_order", 2, "task_status", "success")),
                call("append_task_progress", json("task_order", 2, "progress", "Too late")),
                call("append_task_progress", json("task_order", 1, "progress", "Started the new one")),
                call("finish", "{}")));

        AgentRun run = run(model, ConversationMessage.user("m", "..."));

        assertThat(descriptions()).containsExactly("New first", "Old first");
        assertThat(tasks().get(1).status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(run.toolCalls().get(2).result().isError()).isTrue();
        assertThat(tasks().get(1).progresses()).isEmpty();
        assertThat(tasks().get(0).progresses()).containsExactly("Started the new one");
    }

    // ---- atomicity, events and the hook ------------------------------------------------------------

    @Test
    void aStoreFailureInTheSecondCallRollsTheIterationBackAndNamesTheToolAndCause() {
        FaultInjectingStore faulty = new FaultInjectingStore(store);
        TaskStoreException diskFull = new TaskStoreException("disk full");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(
                        toolCalls(call("insert_task", json("after_task_order", 0, "task_description", "Book a table"))))
                .respondWith(request -> {
                    faulty.failOnWrite(2, diskFull);
                    return toolCalls(
                            call("update_task", json("task_order", 1, "task_status", "success")),
                            call("insert_task", json("after_task_order", 1, "task_description", "Text Anna")),
                            call("finish", "{}"));
                })
                .build();
        TaskAgent agent = TaskAgent.builder(faulty, model)
                .listener(events::add)
                .onTaskFinished(finishedTasks::add)
                .build();
        int eventsOfFirstIteration = 1;

        Logged<AgentRun> logged = Logged.of(
                () -> agent.run(session, List.of(ConversationMessage.user("m", "Book a table and text Anna"))));

        AgentRun run = logged.value();
        assertThat(run.isSuccess()).isFalse();
        assertThat(run.stopReason()).isEqualTo(StopReason.ERROR);
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.TOOL);
        assertThat(error.toolName()).isEqualTo("insert_task");
        assertThat(error.iteration()).isEqualTo(2);
        assertThat(error.cause()).isSameAs(diskFull);
        assertThat(error.message())
                .isEqualTo("Tool 'insert_task' failed in iteration 2: TaskStoreException: disk full");
        assertThat(descriptions()).containsExactly("Book a table");
        assertThat(tasks().get(0).status()).isEqualTo(TaskStatus.PENDING);
        assertThat(events).hasSize(eventsOfFirstIteration);
        assertThat(finishedTasks).isEmpty();
        assertThat(run.toolCalls())
                .extracting(record -> record.call().name() + ":" + record.committed())
                .containsExactly("insert_task:true", "update_task:false", "insert_task:false");
        assertThat(run.toolCalls().get(2).result().text())
                .isEqualTo("Failed: TaskStoreException: disk full; the iteration was rolled back.");
        assertThat(run.createdTasks()).extracting(Task::status).containsExactly(TaskStatus.PENDING);
        logged.assertOneWarning("Extraction of session '" + session + "' stopped: " + error.message());
    }

    @Test
    void aStoreFailureAtCommitRollsTheIterationBackAndNamesTheStore() {
        FaultInjectingStore faulty = new FaultInjectingStore(store);
        TaskStoreException connectionLost = new TaskStoreException("connection lost during commit");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(
                        toolCalls(call("insert_task", json("after_task_order", 0, "task_description", "Book a table"))))
                .respondWith(request -> {
                    faulty.failNextCommit(connectionLost);
                    return toolCalls(
                            call("insert_task", json("after_task_order", 1, "task_description", "Text Anna")),
                            call("finish", "{}"));
                })
                .build();
        TaskAgent agent = TaskAgent.builder(faulty, model).listener(events::add).build();

        Logged<AgentRun> logged = Logged.of(
                () -> agent.run(session, List.of(ConversationMessage.user("m", "Book a table and text Anna"))));

        AgentRun run = logged.value();
        RunError error = run.error().orElseThrow();
        assertThat(error.stage()).isEqualTo(RunError.Stage.STORE);
        assertThat(error.toolName()).isNull();
        assertThat(error.iteration()).isEqualTo(2);
        assertThat(error.cause()).isSameAs(connectionLost);
        assertThat(descriptions()).containsExactly("Book a table");
        assertThat(events).hasSize(1);
        assertThat(run.toolCalls())
                .extracting(record -> record.call().name() + ":" + record.committed())
                .containsExactly("insert_task:true", "insert_task:false", "finish:false");
        assertThat(run.createdTasks()).extracting(Task::description).containsExactly("Book a table");
        logged.assertOneWarning("Extraction of session '" + session
                + "' stopped: The store failed in iteration 2: TaskStoreException: connection lost during commit");
    }

    @Test
    void eventsArePublishedOnlyAfterTheWholeIterationCommitted() {
        List<List<String>> storedWhenToldOfEachEvent = new CopyOnWriteArrayList<>();
        List<Throwable> listenerFailures = new CopyOnWriteArrayList<>();
        ScriptedChatModel model = script(toolCalls(
                call("insert_task", json("after_task_order", 0, "task_description", "A")),
                call("insert_task", json("after_task_order", 1, "task_description", "B")),
                call("append_task_progress", json("task_order", 1, "progress", "Did A")),
                call("finish", "{}")));
        TaskAgent agent = agentBuilder(model)
                .listener(event -> {
                    try {
                        storedWhenToldOfEachEvent.add(descriptions());
                    } catch (RuntimeException e) {
                        listenerFailures.add(e);
                    }
                })
                .build();

        agent.run(session, List.of(ConversationMessage.user("m", "A and B")));

        assertThat(listenerFailures).isEmpty();
        assertThat(events).hasSize(3);
        assertThat(events.get(0)).isInstanceOf(TaskEvent.Created.class);
        assertThat(events.get(2))
                .isInstanceOfSatisfying(TaskEvent.ProgressAppended.class, event -> assertThat(event.progress())
                        .isEqualTo("Did A"));
        assertThat(storedWhenToldOfEachEvent).hasSize(3).containsOnly(List.of("A", "B"));
    }

    @Test
    void aStoreThatRetriesTheUnitOfWorkDoesNotDuplicateCallsEventsOrTasks() {
        RetryOnceStore retrying = new RetryOnceStore(store);
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respondWith(request -> {
                    retrying.arm();
                    return toolCalls(
                            call("report_thinking", json("thinking", "once")),
                            call("insert_task", json("after_task_order", 0, "task_description", "Book a table")),
                            call("finish", "{}"));
                })
                .build();
        TaskAgent agent =
                TaskAgent.builder(retrying, model).listener(events::add).build();

        AgentRun run = agent.run(session, List.of(ConversationMessage.user("m", "Book a table")));

        assertThat(retrying.retries()).isEqualTo(1);
        assertThat(run.isSuccess()).isTrue();
        assertThat(descriptions()).containsExactly("Book a table");
        assertThat(run.toolCalls()).hasSize(3);
        assertThat(run.thinking()).containsExactly("once");
        assertThat(events).hasSize(1);
    }

    @Test
    void theHookHearsOfTasksThatReachedSuccessOrFailed() {
        setStatus(seed("Book a table"), TaskStatus.RUNNING);
        setStatus(seed("Text Anna"), TaskStatus.RUNNING);
        seed("Order flowers");
        setStatus(seed("Old work"), TaskStatus.SUCCESS);
        ScriptedChatModel model = script(toolCalls(
                call("update_task", json("task_order", 1, "task_status", "success")),
                call("update_task", json("task_order", 2, "task_status", "failed")),
                call("update_task", json("task_order", 3, "task_status", "running")),
                call("set_task_user_preference", json("task_order", 4, "user_preference", "none")),
                call("finish", "{}")));

        run(model, ConversationMessage.user("m", "..."));

        assertThat(finishedTasks)
                .extracting(task -> task.description() + ":" + task.status().wireName())
                .containsExactly("Book a table:success", "Text Anna:failed");
    }

    @Test
    void aSecondRunOfTheSameSessionWaitsAndSeesWhatTheFirstCommitted() throws Exception {
        CountDownLatch firstInModel = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicReference<String> secondInput = new AtomicReference<>();
        ChatModel model = request -> {
            String input = inputOf(request);
            if (input.contains("block me")) {
                firstInModel.countDown();
                await(releaseFirst);
                return toolCalls(
                        call("insert_task", json("after_task_order", 0, "task_description", "First request")),
                        call("finish", "{}"));
            }
            if (input.contains("other session")) {
                return toolCalls(call("finish", "{}"));
            }
            secondInput.set(input);
            return toolCalls(call("finish", "{}"));
        };
        TaskAgent agent = agentBuilder(model).build();
        List<AgentRun> runs = new CopyOnWriteArrayList<>();
        Thread first =
                new Thread(() -> runs.add(agent.run(session, List.of(ConversationMessage.user("a", "block me")))));
        Thread second =
                new Thread(() -> runs.add(agent.run(session, List.of(ConversationMessage.user("b", "second")))));
        first.start();
        assertThat(firstInModel.await(10, TimeUnit.SECONDS)).isTrue();
        second.start();
        waitUntilWaiting(second);

        AgentRun otherSession = agent.run(session + "-other", List.of(ConversationMessage.user("c", "other session")));
        assertThat(otherSession.isSuccess()).isTrue();
        assertThat(secondInput.get()).isNull();
        releaseFirst.countDown();
        first.join(10_000);
        second.join(10_000);

        assertThat(runs).hasSize(2).allSatisfy(run -> assertThat(run.isSuccess())
                .isTrue());
        assertThat(secondInput.get()).contains("- Task 1: First request (Status: pending)");
    }

    // ---- helpers -------------------------------------------------------------------------------------

    private TaskAgent.Builder agentBuilder(ChatModel model) {
        return TaskAgent.builder(store, model)
                .listener(events::add)
                .onTaskFinished(finishedTasks::add)
                .clock(clock);
    }

    private AgentRun run(ChatModel model, ConversationMessage... messages) {
        AgentRun run = agentBuilder(model).build().run(session, List.of(messages));
        clock.advance(Duration.ofSeconds(1));
        return run;
    }

    private AgentRun runSetPreference(int order, String preference) {
        ScriptedChatModel model = script(toolCalls(
                call("set_task_user_preference", json("task_order", order, "user_preference", preference)),
                call("finish", "{}")));
        return run(model, ConversationMessage.user("pref-" + UUID.randomUUID(), "..."));
    }

    private static ScriptedChatModel script(dev.taskagent.llm.ChatResponse... responses) {
        ScriptedChatModel.Builder builder = ScriptedChatModel.builder();
        Arrays.stream(responses).forEach(builder::respond);
        return builder.build();
    }

    private static ScriptedChatModel script(
            java.util.function.Function<ChatRequest, dev.taskagent.llm.ChatResponse> responder) {
        return ScriptedChatModel.builder().respondWith(responder).build();
    }

    private Task seed(String description) {
        return store.inTransaction(tx -> tx.appendTask(NewTask.of(session, description)));
    }

    private void setStatus(Task task, TaskStatus status) {
        if (task.status() != status) {
            store.inTransaction(
                    tx -> tx.updateTask(TaskUpdate.of(task.id()).status(status).build()));
        }
    }

    private void setPreferences(Task task, List<String> preferences) {
        store.inTransaction(tx -> tx.updateTask(
                TaskUpdate.of(task.id()).userPreferences(preferences).build()));
    }

    private List<String> planningMessageIds() {
        return store.inTransaction(tx -> tx.planningMessageIds(session));
    }

    private List<Task> tasks() {
        return store.listTasks(session);
    }

    private List<String> descriptions() {
        return tasks().stream().map(Task::description).toList();
    }

    private static String inputOf(ChatRequest request) {
        return ((UserMessage) request.messages().get(0)).text();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the latch");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void waitUntilWaiting(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the second run never waited; its thread is " + thread.getState());
            }
            Thread.onSpinWait();
        }
    }

    /** Writes a JSON object from name/value pairs; values are strings, integers or lists of them. */
    static String json(Object... namesAndValues) {
        StringBuilder out = new StringBuilder("{");
        for (int index = 0; index < namesAndValues.length; index += 2) {
            if (index > 0) {
                out.append(',');
            }
            out.append(quote((String) namesAndValues[index])).append(':').append(value(namesAndValues[index + 1]));
        }
        return out.append('}').toString();
    }

    private static String value(Object value) {
        if (value instanceof String text) {
            return quote(text);
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (int index = 0; index < list.size(); index++) {
                out.append(index > 0 ? "," : "").append(value(list.get(index)));
            }
            return out.append(']').toString();
        }
        return String.valueOf(value);
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
