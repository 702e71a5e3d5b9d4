package dev.taskagent.examples;

import static dev.taskagent.llm.ScriptedChatModel.call;
import static dev.taskagent.llm.ScriptedChatModel.toolCalls;

import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModels;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.util.List;

/** Extracts a task from a conversation, then a worker claims a task from the queue and completes it. */
public final class QuickStart {
    private QuickStart() {}

    /** @param args ignored */
    public static void main(String[] args) {
        try (TaskStore store = JdbcTaskStore.open("jdbc:h2:mem:quickstart")) {
            // 1. Extraction: the model reads a conversation and keeps the session's task list true.
            TaskAgent agent = TaskAgent.builder(store, chatModel()).build();
            agent.run("session-42", List.of(ConversationMessage.user("m1", "Please add a dark mode toggle")));
            for (Task task : store.listTasks("session-42")) {
                System.out.println(task.order() + ". " + task.description() + " [" + task.status() + "]");
            }

            // 2. The work queue: an agent claims its next task under a lease, then completes it.
            TaskQueue queue = TaskQueue.builder(store).build();
            queue.create(queue.newTask("Review the toggle").assignee("reviewer").build());
            Task claimed = queue.claimNext("reviewer").orElseThrow();
            Task done = queue.complete(claimed.id(), "reviewer", claimed.attempt(), TaskStatus.SUCCESS, "LGTM");
            System.out.println("#" + done.id() + " " + done.description() + " [" + done.status() + "]");
        }
    }

    /** OpenAI, or any compatible server, when configured; otherwise a scripted model, so that this runs offline. */
    private static ChatModel chatModel() {
        if (System.getenv("OPENAI_API_KEY") != null || System.getenv("OPENAI_BASE_URL") != null) {
            return ChatModels.discover();
        }
        System.out.println("Model: ScriptedChatModel (offline; set OPENAI_API_KEY to use OpenAI)");
        return ScriptedChatModel.builder()
                .respond(toolCalls(
                        call(
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Add a dark mode toggle\"}"),
                        call("append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0]}"),
                        call("finish", "{}")))
                .build();
    }
}
