package dev.taskagent.langchain4j;

import static dev.taskagent.testservers.FakeAnthropicServer.json;
import static dev.taskagent.testservers.FakeAnthropicServer.message;
import static dev.taskagent.testservers.FakeAnthropicServer.text;
import static dev.taskagent.testservers.FakeAnthropicServer.toolUse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.testservers.FakeAnthropicServer;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * taskagent's extraction agent driven through LangChain4j's own Anthropic model, over the Messages wire
 * format: the tools reach Anthropic as tools with input schemas, and its tool_use blocks come back as
 * taskagent's tool calls.
 */
class LangChain4jAnthropicTest {
    private final FakeAnthropicServer server = FakeAnthropicServer.start();
    private final InMemoryTaskStore store = new InMemoryTaskStore();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void theExtractionAgentKeepsTheTaskListThroughLangChain4jsAnthropicModel() {
        server.enqueue(json(
                200,
                message(
                        "tool_use",
                        310,
                        42,
                        text("Adding it."),
                        toolUse(
                                "toolu_1",
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Renew the passport\"}"),
                        toolUse("toolu_2", "append_messages_to_task", "{\"task_order\": 1, \"message_ids\": [0]}"),
                        toolUse("toolu_3", "finish", "{}"))));
        AnthropicChatModel anthropic = AnthropicChatModel.builder()
                .baseUrl(server.baseUrl() + "/v1/")
                .apiKey("sk-ant-test")
                .modelName("claude-test")
                .maxTokens(1_000)
                .maxRetries(0)
                .build();
        TaskAgent agent =
                TaskAgent.builder(store, LangChain4jChatModel.of(anthropic)).build();

        AgentRun run =
                agent.run("errands", List.of(ConversationMessage.user("m1", "Renew my passport before the trip")));

        assertThat(run.stopReason()).as(run.toString()).isEqualTo(AgentRun.StopReason.FINISH);
        assertThat(store.listTasks("errands")).singleElement().satisfies(task -> {
            assertThat(task.description()).isEqualTo("Renew the passport");
            assertThat(task.messageIds()).containsExactly("m1");
        });
        FakeOpenAiServer.RecordedRequest request = server.takeRequest();
        assertThat(request.path()).isEqualTo("/v1/messages");
        assertThat(request.header("x-api-key")).isEqualTo("sk-ant-test");
        JsonNode body = request.json();
        assertThat(body.path("model").asText()).isEqualTo("claude-test");
        List<String> tools = new ArrayList<>();
        body.path("tools").forEach(tool -> tools.add(tool.path("name").asText()));
        assertThat(tools).contains("insert_task", "append_messages_to_task", "finish");
        JsonNode insert = null;
        for (JsonNode tool : body.path("tools")) {
            if (tool.path("name").asText().equals("insert_task")) {
                insert = tool;
            }
        }
        assertThat(insert).isNotNull();
        assertThat(insert.path("input_schema").path("properties").has("task_description"))
                .isTrue();
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
    }
}
