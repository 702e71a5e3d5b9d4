package dev.taskagent.spring.ai;

import static dev.taskagent.spring.ai.SpringAiChatModelOpenAiTest.parse;
import static dev.taskagent.testservers.FakeAnthropicServer.blockStopEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.inputJsonDeltaEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.json;
import static dev.taskagent.testservers.FakeAnthropicServer.message;
import static dev.taskagent.testservers.FakeAnthropicServer.messageDeltaEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.messageStartEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.messageStopEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.text;
import static dev.taskagent.testservers.FakeAnthropicServer.textBlockStartEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.textDeltaEvent;
import static dev.taskagent.testservers.FakeAnthropicServer.toolUse;
import static dev.taskagent.testservers.FakeAnthropicServer.toolUseBlockStartEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.testservers.FakeAnthropicServer;
import dev.taskagent.testservers.FakeOpenAiServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;

/** The model bridge over Spring AI's own Anthropic model, against the fake Anthropic Messages server. */
class SpringAiChatModelAnthropicTest {
    static final String API_KEY = "sk-ant-test-0123456789abcdefSECRET";

    private FakeAnthropicServer server;
    private SpringAiChatModel model;

    @BeforeEach
    void startServer() {
        server = FakeAnthropicServer.start();
        model = SpringAiChatModel.of(springAnthropic(server));
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    static AnthropicChatModel springAnthropic(FakeAnthropicServer server) {
        return AnthropicChatModel.builder()
                .options(AnthropicChatOptions.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey(API_KEY)
                        .model("claude-test")
                        .maxRetries(0)
                        .build())
                .build();
    }

    @Test
    void aToolCallRoundTripsThroughSpringAisAnthropicModel() {
        server.enqueue(json(
                200,
                message(
                        "tool_use",
                        30,
                        8,
                        text("Adding."),
                        toolUse(
                                "toolu_1",
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Ski\"}"))));

        ChatResponse response = model.chat(SpringAiChatModelOpenAiTest.runWithTools());

        // Anthropic sends the input as an object: Spring AI hands it on as compact JSON text.
        assertThat(response)
                .isEqualTo(new ChatResponse(
                        "Adding.",
                        List.of(new ToolCall(
                                "toolu_1", "insert_task", "{\"after_task_order\":0,\"task_description\":\"Ski\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(30, 8)));
        FakeOpenAiServer.RecordedRequest request = server.takeRequest();
        assertThat(request.path()).isEqualTo("/v1/messages");
        assertThat(request.header("x-api-key")).isEqualTo(API_KEY);
        JsonNode body = request.json();
        assertThat(body.path("model").asText()).isEqualTo("claude-test");
        assertThat(body.path("system").asText()).isEqualTo("You track tasks.");
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(500);
        assertThat(body.path("messages"))
                .isEqualTo(
                        parse("[{\"role\":\"user\",\"content\":\"Book a table for Friday and remind me to call Ann.\"},"
                                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Adding both.\"},"
                                + "{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"insert_task\","
                                + "\"input\":{\"after_task_order\":0,\"task_description\":\"Book a table\"}},"
                                + "{\"type\":\"tool_use\",\"id\":\"call_2\",\"name\":\"insert_task\","
                                + "\"input\":{\"after_task_order\":1,\"task_description\":\"Call Ann\"}}]},"
                                + "{\"role\":\"user\",\"content\":["
                                + "{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"content\":\"Inserted task 1.\"},"
                                + "{\"type\":\"tool_result\",\"tool_use_id\":\"call_2\","
                                + "\"content\":\"Task order 7 is out of range (1..1).\"}]}]"));
        JsonNode tools = body.path("tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).path("name").asText()).isEqualTo("insert_task");
        assertThat(tools.get(0).path("description").asText()).isEqualTo("Inserts a task after the given order.");
        // Spring AI's Anthropic model sends the schema's type, properties and required.
        assertThat(tools.get(0).path("input_schema"))
                .isEqualTo(parse("{\"type\":\"object\",\"properties\":{"
                        + "\"after_task_order\":{\"type\":\"integer\",\"description\":\"0 to insert first\"},"
                        + "\"task_description\":{\"type\":\"string\",\"description\":\"The user's words\"}},"
                        + "\"required\":[\"after_task_order\",\"task_description\"]}"));
        assertThat(tools.get(1).path("name").asText()).isEqualTo("finish");
    }

    @Test
    void aStreamedAnswerReachesTheListenerDeltaByDelta() {
        server.enqueue(FakeAnthropicServer.stream(
                messageStartEvent(25),
                textBlockStartEvent(0),
                textDeltaEvent(0, "Hel"),
                textDeltaEvent(0, "lo, "),
                textDeltaEvent(0, "world."),
                blockStopEvent(0),
                messageDeltaEvent("end_turn", 7),
                messageStopEvent()));
        List<String> deltas = new ArrayList<>();

        ChatResponse response = model.chatStreaming(
                ChatRequest.of("Be brief.", List.of(new UserMessage("Greet the world.")), List.of()), deltas::add);

        assertThat(deltas).containsExactly("Hel", "lo, ", "world.");
        assertThat(response)
                .isEqualTo(new ChatResponse("Hello, world.", List.of(), FinishReason.STOP, new TokenUsage(25, 7)));
        JsonNode body = server.takeRequest().json();
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("system").asText()).isEqualTo("Be brief.");
        assertThat(body.path("messages")).isEqualTo(parse("[{\"role\":\"user\",\"content\":\"Greet the world.\"}]"));
        // The model's own default: Anthropic requires a limit.
        assertThat(body.path("max_tokens").asInt()).isEqualTo(4096);
    }

    @Test
    void aStreamedToolUseIsAccumulatedFromItsInputJsonDeltas() {
        server.enqueue(FakeAnthropicServer.stream(
                messageStartEvent(40),
                textBlockStartEvent(0),
                textDeltaEvent(0, "Adding."),
                blockStopEvent(0),
                toolUseBlockStartEvent(1, "toolu_9", "insert_task"),
                inputJsonDeltaEvent(1, "{\"after_task_order\": 0, "),
                inputJsonDeltaEvent(1, "\"task_description\": \"Book a table\"}"),
                blockStopEvent(1),
                messageDeltaEvent("tool_use", 12),
                messageStopEvent()));
        List<String> deltas = new ArrayList<>();

        ChatResponse response = model.chatStreaming(SpringAiChatModelOpenAiTest.runWithTools(), deltas::add);

        assertThat(deltas).containsExactly("Adding.");
        assertThat(response)
                .isEqualTo(new ChatResponse(
                        "Adding.",
                        List.of(new ToolCall(
                                "toolu_9",
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Book a table\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(40, 12)));
    }

    @Test
    void namesProviderAndModelFromSpringAi() {
        assertThat(model.providerName()).isEqualTo("anthropic");
        assertThat(model.modelName()).isEqualTo("claude-test");
    }

    @Test
    void anOverloadedServiceIsAChatModelExceptionThatSaysWhatItSaid() {
        server.enqueue(json(529, FakeAnthropicServer.error("overloaded_error", "Overloaded")));

        assertThatThrownBy(() -> model.chat(SpringAiChatModelOpenAiTest.runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model AnthropicChatModel (provider anthropic, model claude-test): the"
                        + " provider's service failed (HTTP 529): Overloaded. Try again later.");
    }

    @Test
    void aRefusedKeyIsAClearErrorThatNeverShowsTheKey() {
        server.enqueue(json(401, FakeAnthropicServer.error("authentication_error", "invalid x-api-key " + API_KEY)));

        Throwable thrown =
                catchThrowable(() -> model.chatStreaming(SpringAiChatModelOpenAiTest.runWithTools(), d -> {}));

        assertThat(thrown)
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model AnthropicChatModel (provider anthropic, model claude-test): the"
                        + " provider's service refused the API key (HTTP 401 Unauthorized). Check the key the Spring AI"
                        + " ChatModel is configured with (in Spring Boot, spring.ai.<provider>.api-key); it must be a"
                        + " valid, active key for this service. The key is not shown here.");
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            assertThat(String.valueOf(cause.getMessage())).doesNotContain(API_KEY);
        }
    }
}
