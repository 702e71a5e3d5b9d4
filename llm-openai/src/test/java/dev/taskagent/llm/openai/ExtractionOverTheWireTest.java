package dev.taskagent.llm.openai;

import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The extraction agent, the OpenAI adapter and the in-memory store together, over the wire. */
class ExtractionOverTheWireTest {
    private static final String SESSION = "dinner-plans";

    @Test
    void theExtractionAgentCreatesTasksFromToolCallsSentOverTheWire() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start();
                OpenAiChatModel model = OpenAiChatModel.builder()
                        .baseUrl(server.baseUrl())
                        .model("gpt-test")
                        .maxRetries(0)
                        .build()) {
            server.enqueue(json(
                    200,
                    toolCallCompletion(
                            300,
                            40,
                            new String[] {
                                "call_1",
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Book a table for four tonight\"}"
                            },
                            new String[] {
                                "call_2",
                                "insert_task",
                                "{\"after_task_order\": 1, \"task_description\": \"Text Anna the address\"}"
                            })));
            server.enqueue(json(
                    200,
                    toolCallCompletion(
                            420,
                            30,
                            new String[] {
                                "call_3", "append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0]}"
                            },
                            new String[] {"call_4", "finish", "{}"})));
            InMemoryTaskStore store = new InMemoryTaskStore();
            TaskAgent agent = TaskAgent.builder(store, model).build();

            AgentRun run = agent.run(
                    SESSION,
                    List.of(ConversationMessage.user(
                            "msg-1", "Book a table for four tonight, and text Anna the address.")));

            assertThat(run.stopReason()).isEqualTo(AgentRun.StopReason.FINISH);
            assertThat(run.tokenUsage()).isEqualTo(new TokenUsage(720, 70));
            List<Task> tasks = store.listTasks(SESSION);
            assertThat(tasks)
                    .extracting(Task::order, Task::description)
                    .containsExactly(tuple(1, "Book a table for four tonight"), tuple(2, "Text Anna the address"));
            assertThat(tasks.get(0).messageIds()).containsExactly("msg-1");

            // The first request offered the extraction tools; the second sent the model's tool calls back
            // with one result per call id.
            List<FakeOpenAiServer.RecordedRequest> requests = server.requests();
            assertThat(requests).hasSize(2);
            List<String> toolNames = new ArrayList<>();
            requests.get(0)
                    .json()
                    .path("tools")
                    .forEach(tool ->
                            toolNames.add(tool.path("function").path("name").asText()));
            assertThat(toolNames).contains("insert_task", "append_messages_to_task", "finish");
            JsonNode messages = requests.get(1).json().path("messages");
            List<String> callIds = new ArrayList<>();
            List<String> resultIds = new ArrayList<>();
            messages.forEach(message -> {
                message.path("tool_calls")
                        .forEach(call -> callIds.add(call.path("id").asText()));
                if (message.path("role").asText().equals("tool")) {
                    resultIds.add(message.path("tool_call_id").asText());
                }
            });
            assertThat(callIds).containsExactly("call_1", "call_2");
            assertThat(resultIds).containsExactly("call_1", "call_2");
        }
    }
}
