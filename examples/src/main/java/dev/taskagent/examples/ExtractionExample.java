package dev.taskagent.examples;

import static dev.taskagent.llm.ScriptedChatModel.call;
import static dev.taskagent.llm.ScriptedChatModel.toolCalls;

import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import java.io.PrintStream;
import java.util.List;

/**
 * Runs the extraction agent over a short conversation and prints the task list it produced.
 *
 * <p><b>The model is scripted:</b> a {@link ScriptedChatModel} replays the tool calls a real model would
 * make for this conversation, so the example runs offline and prints the same thing every time. To
 * extract tasks from your own conversations, pass a real model instead, e.g. {@code
 * ChatModels.discover()} with {@code taskagent-llm-openai} on the class path.
 */
public final class ExtractionExample {
    static final String SESSION = "dinner-plans";

    private ExtractionExample() {}

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        List<ConversationMessage> conversation = List.of(
                ConversationMessage.user(
                        "msg-1",
                        "Book a table for four at an Italian place tonight, and text Anna the address."
                                + " I'm vegetarian."),
                ConversationMessage.assistant(
                        "msg-2", "Trattoria Roma is full at 7pm, so I reserved 7:30pm at Luigi's, 12 Via Roma."),
                ConversationMessage.user("msg-3", "Perfect. Anna's number is +39 333 1234567."));

        TaskStore store = new InMemoryTaskStore();
        TaskAgent agent = TaskAgent.builder(store, scriptedModel())
                .onTaskFinished(task -> out.println("(hook) finished: " + task.description()))
                .build();

        out.println("Extracting tasks with a SCRIPTED model (ScriptedChatModel replays prepared tool calls;"
                + " no LLM is called).");
        AgentRun run = agent.run(SESSION, conversation);
        out.println("Run: " + run.stopReason() + " after " + run.iterations() + " iterations, "
                + run.toolCalls().size() + " tool calls");

        for (Task task : store.listTasks(SESSION)) {
            out.println("Task " + task.order() + " [" + task.status().wireName() + "] " + task.description());
            if (!task.userPreferences().isEmpty()) {
                out.println("    preference: " + task.userPreferenceText());
            }
            task.progresses().forEach(progress -> out.println("    progress:   " + progress));
            out.println("    messages:   " + String.join(", ", task.messageIds()));
        }
    }

    /** The tool calls a good model makes for the conversation above: two requests, two tasks. */
    private static ChatModel scriptedModel() {
        return ScriptedChatModel.builder()
                .respond(toolCalls(
                        call("report_thinking", "{\"thinking\": \"Two requests in message 0: a booking and a text.\"}"),
                        call(
                                "insert_task",
                                "{\"after_task_order\": 0,"
                                        + " \"task_description\": \"Book a table for four at an Italian place tonight\"}"),
                        call(
                                "insert_task",
                                "{\"after_task_order\": 1, \"task_description\": \"Text Anna the address\"}")))
                .respond(toolCalls(
                        call("append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0, 1]}"),
                        call("set_task_user_preference", "{\"task_order\": 1, \"user_preference\": \"Vegetarian\"}"),
                        call(
                                "append_task_progress",
                                "{\"task_order\": 1, \"progress\": \"Trattoria Roma full at 7pm; reserved 7:30pm at"
                                        + " Luigi's, 12 Via Roma\"}"),
                        call("update_task", "{\"task_order\": 1, \"task_status\": \"success\"}"),
                        call("append_messages_to_task", "{\"task_order\": 2, \"message_ids\": [2]}"),
                        call(
                                "set_task_user_preference",
                                "{\"task_order\": 2, \"user_preference\": \"Anna's number: +39 333 1234567\"}"),
                        call("finish", "{}")))
                .build();
    }
}
