package dev.taskagent.spring.ai;

import static dev.taskagent.testservers.FakeOpenAiServer.finishChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.textChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.textCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.testservers.FakeOpenAiServer;
import dev.taskagent.tool.JsonSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/** The model bridge over Spring AI's own OpenAI model, against the fake OpenAI server. */
class SpringAiChatModelOpenAiTest {
    static final String API_KEY = "sk-test-0123456789abcdefSECRET";

    static final ToolDefinition INSERT_TASK = new ToolDefinition(
            "insert_task",
            "Inserts a task after the given order.",
            JsonSchema.object()
                    .requiredInteger("after_task_order", "0 to insert first")
                    .requiredString("task_description", "The user's words")
                    .toJson());
    static final ToolDefinition FINISH =
            new ToolDefinition("finish", "Ends the run.", JsonSchema.object().toJson());

    private FakeOpenAiServer server;
    private SpringAiChatModel model;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
        model = SpringAiChatModel.of(springOpenAi(server));
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    static OpenAiChatModel springOpenAi(FakeOpenAiServer server) {
        return OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey(API_KEY)
                        .model("gpt-test")
                        .maxRetries(0)
                        .build())
                .build();
    }

    static ChatRequest runWithTools() {
        List<ChatMessage> history = List.of(
                new UserMessage("Book a table for Friday and remind me to call Ann."),
                new AssistantMessage(
                        "Adding both.",
                        List.of(
                                new ToolCall(
                                        "call_1",
                                        "insert_task",
                                        "{\"after_task_order\":0,\"task_description\":\"Book a table\"}"),
                                new ToolCall(
                                        "call_2",
                                        "insert_task",
                                        "{\"after_task_order\":1,\"task_description\":\"Call Ann\"}"))),
                new ToolResultMessage("call_1", "insert_task", "Inserted task 1.", false),
                new ToolResultMessage("call_2", "insert_task", "Task order 7 is out of range (1..1).", true));
        return new ChatRequest(
                "You track tasks.", history, List.of(INSERT_TASK, FINISH), new ChatOptions(0.2, 500, true));
    }

    @Test
    void sendsSystemPromptHistoryToolsAndOptionsThroughSpringAi() {
        server.enqueue(json(200, textCompletion("Done.", 10, 2)));

        model.chat(runWithTools());

        FakeOpenAiServer.RecordedRequest request = server.takeRequest();
        assertThat(request.path()).isEqualTo("/v1/chat/completions");
        assertThat(request.header("Authorization")).isEqualTo("Bearer " + API_KEY);
        JsonNode body = request.json();
        assertThat(body.path("model").asText()).isEqualTo("gpt-test");
        assertThat(body.has("stream")).isFalse();

        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(5);
        assertThat(messages.get(0)).isEqualTo(parse("{\"role\":\"system\",\"content\":\"You track tasks.\"}"));
        assertThat(messages.get(1))
                .isEqualTo(parse(
                        "{\"role\":\"user\",\"content\":\"Book a table for Friday and remind me to call Ann.\"}"));
        JsonNode assistant = messages.get(2);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        assertThat(assistant.path("content").asText()).isEqualTo("Adding both.");
        assertThat(assistant.path("tool_calls"))
                .isEqualTo(
                        parse(
                                "[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"insert_task\","
                                        + "\"arguments\":\"{\\\"after_task_order\\\":0,\\\"task_description\\\":\\\"Book a table\\\"}\"}},"
                                        + "{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"insert_task\","
                                        + "\"arguments\":\"{\\\"after_task_order\\\":1,\\\"task_description\\\":\\\"Call Ann\\\"}\"}}]"));
        assertThat(messages.get(3))
                .isEqualTo(parse("{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"Inserted task 1.\"}"));
        assertThat(messages.get(4))
                .isEqualTo(parse("{\"role\":\"tool\",\"tool_call_id\":\"call_2\","
                        + "\"content\":\"Task order 7 is out of range (1..1).\"}"));

        JsonNode tools = body.path("tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).path("type").asText()).isEqualTo("function");
        JsonNode function = tools.get(0).path("function");
        assertThat(function.path("name").asText()).isEqualTo("insert_task");
        assertThat(function.path("description").asText()).isEqualTo("Inserts a task after the given order.");
        assertThat(function.path("parameters")).isEqualTo(parse(INSERT_TASK.parametersSchemaJson()));
        assertThat(tools.get(1).path("function").path("name").asText()).isEqualTo("finish");
        assertThat(tools.get(1).path("function").path("parameters")).isEqualTo(parse(FINISH.parametersSchemaJson()));

        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(500);
    }

    @Test
    void aRequestWithoutToolsOrOptionsSendsNoToolsAndTheModelsDefaults() {
        server.enqueue(json(200, textCompletion("Hi.", 3, 1)));

        model.chat(ChatRequest.of("", List.of(new UserMessage("Hello")), List.of()));

        JsonNode body = server.takeRequest().json();
        assertThat(body.path("messages")).isEqualTo(parse("[{\"role\":\"user\",\"content\":\"Hello\"}]"));
        assertThat(body.has("tools")).isFalse();
        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("max_tokens")).isFalse();
    }

    @Test
    void theRequestsToolsReplaceDefaultToolCallbacksOfTheSpringAiModel() {
        OpenAiChatModel withDefaultTool = OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey(API_KEY)
                        .model("gpt-test")
                        .maxRetries(0)
                        .toolCallbacks(List.of(new OfferedToolCallback(new ToolDefinition(
                                "weather", "The weather.", JsonSchema.object().toJson()))))
                        .build())
                .build();
        SpringAiChatModel bridged = SpringAiChatModel.of(withDefaultTool);
        server.enqueue(json(200, textCompletion("Hi.", 3, 1)));
        server.enqueue(json(200, textCompletion("Done.", 3, 1)));

        bridged.chat(ChatRequest.of("", List.of(new UserMessage("Hello")), List.of()));
        bridged.chat(runWithTools());

        assertThat(server.takeRequest().json().has("tools")).isFalse();
        List<String> offered = new ArrayList<>();
        server.takeRequest()
                .json()
                .path("tools")
                .forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertThat(offered).containsExactly("insert_task", "finish");
    }

    @Test
    void returnsParallelToolCallsWithTheirIdsAndArgumentsVerbatim() {
        server.enqueue(json(
                200,
                toolCallCompletion(
                        300,
                        40,
                        new String[] {
                            "call_a", "insert_task", "{\"after_task_order\": 0, \"task_description\": \"Ski\"}"
                        },
                        new String[] {"call_b", "finish", "{not json"})));

        ChatResponse response = model.chat(runWithTools());

        assertThat(response)
                .isEqualTo(new ChatResponse(
                        "",
                        List.of(
                                new ToolCall(
                                        "call_a",
                                        "insert_task",
                                        "{\"after_task_order\": 0, \"task_description\": \"Ski\"}"),
                                new ToolCall("call_b", "finish", "{not json")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(300, 40)));
    }

    @Test
    void returnsTextFinishReasonAndUsage() {
        server.enqueue(json(200, textCompletion("All set.", 12, 3)));

        ChatResponse response = model.chat(runWithTools());

        assertThat(response)
                .isEqualTo(new ChatResponse("All set.", List.of(), FinishReason.STOP, new TokenUsage(12, 3)));
    }

    @Test
    void namesProviderAndModelFromSpringAi() {
        assertThat(model.providerName()).isEqualTo("openai");
        assertThat(model.modelName()).isEqualTo("gpt-test");
        SpringAiChatModel named = SpringAiChatModel.builder(springOpenAi(server))
                .providerName("azure.ai.openai")
                .modelName("my-deployment")
                .build();
        assertThat(named.providerName()).isEqualTo("azure.ai.openai");
        assertThat(named.modelName()).isEqualTo("my-deployment");
    }

    @Test
    void streamsTextDeltasToTheListenerInOrderOnTheCallingThread() {
        server.enqueue(FakeOpenAiServer.stream(
                textChunk("Hel"),
                textChunk("lo, "),
                textChunk("wor"),
                textChunk("ld."),
                finishChunk("stop", -1, 0),
                usageChunk(21, 5)));
        List<String> deltas = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();

        ChatResponse response = model.chatStreaming(runWithTools(), delta -> {
            deltas.add(delta);
            threads.add(Thread.currentThread());
        });

        assertThat(deltas).containsExactly("Hel", "lo, ", "wor", "ld.");
        assertThat(threads).containsOnly(Thread.currentThread());
        assertThat(response)
                .isEqualTo(new ChatResponse("Hello, world.", List.of(), FinishReason.STOP, new TokenUsage(21, 5)));
        JsonNode body = server.takeRequest().json();
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("tools")).hasSize(2);
    }

    @Test
    void accumulatesStreamedToolCallFragmentsIntoWholeCalls() {
        server.enqueue(FakeOpenAiServer.stream(
                textChunk("Adding."),
                toolCallChunk(0, "call_x", "insert_task", ""),
                toolCallChunk(0, null, null, "{\"after_task_order\":"),
                toolCallChunk(1, "call_y", "finish", "{"),
                toolCallChunk(0, null, null, " 0, \"task_description\": \"Bo"),
                toolCallChunk(0, null, null, "ok a table\"}"),
                toolCallChunk(1, null, null, "}"),
                finishChunk("tool_calls", 80, 30)));
        List<String> deltas = new ArrayList<>();

        ChatResponse response = model.chatStreaming(runWithTools(), deltas::add);

        assertThat(deltas).containsExactly("Adding.");
        assertThat(response)
                .isEqualTo(new ChatResponse(
                        "Adding.",
                        List.of(
                                new ToolCall(
                                        "call_x",
                                        "insert_task",
                                        "{\"after_task_order\": 0, \"task_description\": \"Book a table\"}"),
                                new ToolCall("call_y", "finish", "{}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(80, 30)));
    }

    @Test
    void aServerErrorIsAChatModelExceptionThatSaysWhatTheServerSaid() {
        server.enqueue(json(500, FakeOpenAiServer.error("The engine is overloaded")));

        assertThatThrownBy(() -> model.chat(runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model OpenAiChatModel (provider openai, model gpt-test): the"
                        + " provider's service failed (HTTP 500): The engine is overloaded. Try again later.");
    }

    @Test
    void aServerErrorWhileStreamingIsAChatModelException() {
        server.enqueue(json(500, FakeOpenAiServer.error("The engine is overloaded")));

        assertThatThrownBy(() -> model.chatStreaming(runWithTools(), delta -> {}))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model OpenAiChatModel (provider openai, model gpt-test): the"
                        + " provider's service failed (HTTP 500): The engine is overloaded. Try again later.");
    }

    @Test
    void aRefusedKeyIsAClearErrorThatNeverShowsTheKey() {
        // OpenAI's own 401 text quotes the key (partly masked); here it quotes it whole.
        server.enqueue(json(
                401,
                "{\"error\":{\"message\":\"Incorrect API key provided: " + API_KEY
                        + ".\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}"));

        Throwable thrown = catchThrowable(() -> model.chat(runWithTools()));

        assertThat(thrown)
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model OpenAiChatModel (provider openai, model gpt-test): the"
                        + " provider's service refused the API key (HTTP 401 Unauthorized). Check the key the Spring AI"
                        + " ChatModel is configured with (in Spring Boot, spring.ai.<provider>.api-key); it must be a"
                        + " valid, active key for this service. The key is not shown here.");
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            assertThat(String.valueOf(cause.getMessage())).doesNotContain(API_KEY);
        }
    }

    @Test
    void anUnreachableServerIsAChatModelExceptionCalledOrStreamed() {
        String address =
                server.baseUrl().substring("http://".length(), server.baseUrl().lastIndexOf("/v1"));
        server.close();
        String expected = "The Spring AI chat model OpenAiChatModel (provider openai, model gpt-test) failed: Request"
                + " failed: Failed to connect to /" + address + ": Connection refused. Check the Spring AI"
                + " ChatModel's configuration (base URL, model, key) and that its service is reachable.";

        assertThatThrownBy(() -> model.chat(runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessage(expected);
        assertThatThrownBy(() -> model.chatStreaming(runWithTools(), delta -> {}))
                .isInstanceOf(ChatModelException.class)
                .hasMessage(expected);
    }

    static JsonNode parse(String json) {
        try {
            return FakeOpenAiServer.JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
