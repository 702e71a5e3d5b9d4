package dev.taskagent.benchmarks;

import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.MessagePart;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.extraction.ToolCallRecord;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TextDeltaListener;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One iteration of the extraction agent with a scripted model, on a session of 100 tasks and a batch of
 * 50 messages: one {@link TaskAgent#run} whose model answers once with five tool calls and {@code
 * finish}. What is measured is the agent's own work: reading the task list and rendering the input,
 * running the tool calls in one transaction (with the context rebuilt after each call that changes
 * tasks), committing. The model costs nothing: a fresh {@link ScriptedChatModel} replays the answer.
 *
 * <p>The floor does the same writes straight through the {@link TaskStore} API in one transaction, with
 * one read of the task list: what is left is the price of the agent (rendering, argument parsing,
 * context rebuilds, the run record).
 *
 * <p>Every iteration gets {@value #SESSIONS} fresh sessions and the runs go round them, so the progress
 * lists the runs append to grow by only a few entries per task within an iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ExtractionBenchmark {
    static final int TASKS = 100;
    static final int MESSAGES = 50;
    static final int SESSIONS = 20;

    /**
     * inmemory, or h2 (a fresh file database under target/); h2-nofeed (not run by default: name it with
     * {@code -p store=h2,h2-nofeed}) is H2 without the event feed, to measure what the feed adds.
     */
    @Param({"inmemory", "h2"})
    public String store;

    private BenchStore benchStore;
    private TaskStore taskStore;
    private final ScriptSwitch model = new ScriptSwitch();
    private TaskAgent agent;
    private List<ConversationMessage> messages;
    private List<String> sessions;
    private int iterationNumber;
    private long runs;

    /** Opens the store and builds the agent and the batch of messages. */
    @Setup(Level.Trial)
    public void openStore() {
        benchStore = BenchStore.open(store, "extraction", 2);
        taskStore = benchStore.store();
        agent = TaskAgent.builder(taskStore, model).build();
        messages = messages();
    }

    /** Adds {@value #SESSIONS} sessions of {@value #TASKS} tasks each for the coming iteration. */
    @Setup(Level.Iteration)
    public void addSessions() {
        iterationNumber++;
        List<String> fresh = new ArrayList<>();
        for (int session = 0; session < SESSIONS; session++) {
            String sessionId = "extraction-" + iterationNumber + "-" + session;
            taskStore.inTransaction(transaction -> {
                for (int order = 1; order <= TASKS; order++) {
                    Task task = transaction.appendTask(NewTask.of(
                            sessionId,
                            "Plan the team offsite #" + order
                                    + ": book a venue for twelve people near the lake, vegetarian catering"));
                    transaction.appendProgress(task.id(), "Asked three venues for quotes; two answered");
                    transaction.appendProgress(task.id(), "Shortlisted Seeblick Lodge (CHF 4,200 for two days)");
                    if (order % 3 == 0) {
                        transaction.updateTask(TaskUpdate.of(task.id())
                                .status(order % 2 == 0 ? TaskStatus.SUCCESS : TaskStatus.RUNNING)
                                .userPreference("Budget under CHF 5,000; no flights; vegetarian food")
                                .build());
                    }
                }
                return null;
            });
            fresh.add(sessionId);
        }
        sessions = List.copyOf(fresh);
    }

    /** Closes the store. */
    @TearDown(Level.Trial)
    public void closeStore() {
        benchStore.close();
    }

    /**
     * One agent run of one iteration: context build, five tool calls in one transaction, finish.
     *
     * @return the run
     */
    @Benchmark
    public AgentRun agentIteration() {
        long number = runs++;
        String sessionId = sessions.get((int) (number % SESSIONS));
        int order = (int) (number / SESSIONS % TASKS) + 1;
        model.next(ScriptedChatModel.builder().respond(answer(order)).build());
        AgentRun run = agent.run(sessionId, messages);
        if (!run.isSuccess() || run.iterations() != 1) {
            throw new IllegalStateException("The scripted run failed or took more than one iteration: " + run);
        }
        for (ToolCallRecord call : run.toolCalls()) {
            if (call.result().isError()) {
                throw new IllegalStateException("Tool " + call.call().name() + " refused the scripted call: "
                        + call.result().text());
            }
        }
        return run;
    }

    /**
     * The floor: the same writes through the store API in one transaction, after one read of the list.
     *
     * @return the last written task
     */
    @Benchmark
    public Task storeCallsFloor() {
        long number = runs++;
        String sessionId = sessions.get((int) (number % SESSIONS));
        int order = (int) (number / SESSIONS % TASKS) + 1;
        return taskStore.inTransaction(transaction -> {
            List<Task> tasks = transaction.listTasks(sessionId);
            long taskId = tasks.get(order - 1).id();
            transaction.updateTask(
                    TaskUpdate.of(taskId).status(TaskStatus.RUNNING).build());
            transaction.linkMessages(
                    taskId, List.of(messages.get(2).id(), messages.get(3).id()));
            transaction.appendProgress(taskId, progress(order));
            transaction.updateTask(TaskUpdate.of(taskId)
                    .userPreference("Budget under CHF 5,000; no flights; vegan food; lake view")
                    .build());
            transaction.linkMessagesToPlanningSection(
                    sessionId, List.of(messages.get(0).id()));
            return transaction.findTask(taskId).orElseThrow();
        });
    }

    private static ChatResponse answer(int order) {
        return ScriptedChatModel.toolCalls(
                ScriptedChatModel.call(
                        "report_thinking",
                        "{\"thinking\":\"Messages 2 and 3 are about task " + order
                                + ": the user confirmed the venue and changed the catering to vegan.\"}"),
                ScriptedChatModel.call("update_task", "{\"task_order\":" + order + ",\"task_status\":\"running\"}"),
                ScriptedChatModel.call(
                        "append_messages_to_task", "{\"task_order\":" + order + ",\"message_ids\":[2,3]}"),
                ScriptedChatModel.call(
                        "append_task_progress",
                        "{\"task_order\":" + order + ",\"progress\":\"" + progress(order) + "\"}"),
                ScriptedChatModel.call(
                        "set_task_user_preference",
                        "{\"task_order\":" + order
                                + ",\"user_preference\":\"Budget under CHF 5,000; no flights; vegan food; lake view\"}"),
                ScriptedChatModel.call("append_messages_to_planning_section", "{\"message_ids\":[0]}"),
                ScriptedChatModel.call("finish", "{}"));
    }

    private static String progress(int order) {
        return "Booked Seeblick Lodge for task " + order + " (confirmation SB-2231), deposit CHF 800 paid";
    }

    /** A realistic batch: user and agent turns, tool calls and their results, a file. */
    private static List<ConversationMessage> messages() {
        List<ConversationMessage> batch = new ArrayList<>();
        for (int index = 0; index < MESSAGES; index++) {
            String id = "msg-" + index;
            ConversationMessage message =
                    switch (index % 5) {
                        case 0 ->
                            ConversationMessage.user(
                                    id,
                                    "Can you book the lodge for the offsite? Twelve people, two"
                                            + " nights, and please make the catering vegan this time, not just vegetarian.");
                        case 1 ->
                            ConversationMessage.assistant(
                                    id,
                                    "I will check availability at Seeblick Lodge for"
                                            + " twelve people and ask for a vegan menu.");
                        case 2 ->
                            ConversationMessage.of(
                                    id,
                                    ConversationMessage.Role.ASSISTANT,
                                    MessagePart.toolCall(
                                            "call-" + index,
                                            "search_venues",
                                            "{\"query\":\"lodge lake 12 people\",\"nights\":2}"));
                        case 3 ->
                            ConversationMessage.of(
                                    id,
                                    ConversationMessage.Role.TOOL,
                                    MessagePart.toolResult(
                                            "call-" + (index - 1),
                                            "[{\"name\":\"Seeblick Lodge\",\"price\":4200},{\"name\":\"Alpenrose\",\"price\":5100}]"));
                        default ->
                            ConversationMessage.of(
                                    id,
                                    ConversationMessage.Role.USER,
                                    MessagePart.text("Here is last year's invoice for comparison."),
                                    MessagePart.file("invoice-2025.pdf"));
                    };
            batch.add(message);
        }
        return List.copyOf(batch);
    }

    /** Hands each run a fresh one-answer script, so the model keeps no history across runs. */
    private static final class ScriptSwitch implements ChatModel {
        private ScriptedChatModel current;

        void next(ScriptedChatModel script) {
            current = script;
        }

        @Override
        public ChatResponse chat(ChatRequest request) {
            return current.chat(request);
        }

        @Override
        public ChatResponse chatStreaming(ChatRequest request, TextDeltaListener listener) {
            return current.chatStreaming(request, listener);
        }
    }
}
