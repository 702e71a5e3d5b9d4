package dev.taskagent.llm.openai;

import static dev.taskagent.testservers.FakeOpenAiServer.finishChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.textChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.textCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiChatModelTest {
    private static final String API_KEY = "sk-test-0123456789abcdefSECRET";

    private static final ToolDefinition INSERT_TASK = new ToolDefinition(
            "insert_task",
            "Inserts a task after the given order.",
            JsonSchema.object()
                    .requiredInteger("after_task_order", "0 to insert first")
                    .requiredString("task_description", "The user's words")
                    .toJson());
    private static final ToolDefinition FINISH =
            new ToolDefinition("finish", "Ends the run.", JsonSchema.object().toJson());

    private FakeOpenAiServer server;
    private OpenAiChatModel model;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
        model = modelWithRetries(2);
    }

    @AfterEach
    void stopServer() {
        model.close();
        server.close();
    }

    private OpenAiChatModel modelWithRetries(int retries) {
        return OpenAiChatModel.builder()
                .apiKey(API_KEY)
                .baseUrl(server.baseUrl())
                .model("gpt-test")
                .maxRetries(retries)
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    private static ChatRequest runWithTools() {
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
    void sendsModelHistoryToolsAndOptionsInTheRequestBody() throws Exception {
        server.enqueue(json(200, textCompletion("Done.", 10, 2)));

        model.chat(runWithTools());

        FakeOpenAiServer.RecordedRequest request = server.takeRequest();
        assertThat(request.method()).isEqualTo("POST");
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
                .isEqualTo(
                        parse(
                                "{\"role\":\"tool\",\"tool_call_id\":\"call_2\",\"content\":\"Task order 7 is out of range (1..1).\"}"));

        JsonNode tools = body.path("tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).path("type").asText()).isEqualTo("function");
        JsonNode function = tools.get(0).path("function");
        assertThat(function.path("name").asText()).isEqualTo("insert_task");
        assertThat(function.path("description").asText()).isEqualTo("Inserts a task after the given order.");
        assertThat(function.path("parameters")).isEqualTo(parse(INSERT_TASK.parametersSchemaJson()));
        assertThat(function.has("strict")).isFalse();
        assertThat(tools.get(1).path("function").path("parameters")).isEqualTo(parse(FINISH.parametersSchemaJson()));

        assertThat(body.path("parallel_tool_calls").asBoolean()).isTrue();
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        // A local server (any base URL but OpenAI's) gets the limit as max_tokens.
        assertThat(body.path("max_tokens").asInt()).isEqualTo(500);
        assertThat(body.has("max_completion_tokens")).isFalse();
    }

    @Test
    void sendsTheOutputLimitAsMaxCompletionTokensWhenAskedTo() {
        server.enqueue(json(200, textCompletion("Done.", 10, 2)));
        try (OpenAiChatModel modern = OpenAiChatModel.builder()
                .apiKey(API_KEY)
                .baseUrl(server.baseUrl())
                .legacyMaxTokens(false)
                .build()) {
            modern.chat(
                    new ChatRequest("", List.of(new UserMessage("Hi")), List.of(), new ChatOptions(null, 64, true)));
        }

        JsonNode body = server.takeRequest().json();
        assertThat(body.path("max_completion_tokens").asInt()).isEqualTo(64);
        assertThat(body.has("max_tokens")).isFalse();
        assertThat(body.path("model").asText()).isEqualTo(OpenAiChatModel.DEFAULT_MODEL);
    }

    @Test
    void aRequestWithoutToolsOrOptionsSendsOnlyModelAndMessages() {
        server.enqueue(json(200, textCompletion("Hello.", 3, 1)));

        model.chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of()));

        JsonNode body = server.takeRequest().json();
        // OpenAI rejects parallel_tool_calls without tools; an empty system prompt is not sent.
        assertThat(body)
                .isEqualTo(parse("{\"model\":\"gpt-test\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"));
    }

    @Test
    void forbiddingParallelToolCallsIsSent() {
        server.enqueue(json(200, textCompletion("Ok.", 3, 1)));

        model.chat(new ChatRequest(
                "",
                List.of(new UserMessage("Hi")),
                List.of(FINISH),
                ChatOptions.defaults().withParallelToolCalls(false)));

        assertThat(server.takeRequest().json().path("parallel_tool_calls").asBoolean(true))
                .isFalse();
    }

    @Test
    void returnsTwoParallelToolCallsWithTheirIdsAndRawArguments() {
        // Odd spacing, escapes and non-ASCII text must come through exactly as the model wrote them.
        String first = "{ \"after_task_order\" : 0,\n \"task_description\": \"Book a table \\\"Chez Ann\\\" 🍽\" }";
        String second = "{\"after_task_order\":1,\"task_description\":\"Call Ann\"";
        server.enqueue(
                json(200, toolCallCompletion(120, 40, new String[] {"call_a1", "insert_task", first}, new String[] {
                    "call_b2", "insert_task", second
                })));

        ChatResponse response = model.chat(runWithTools());

        assertThat(response.toolCalls())
                .containsExactly(
                        new ToolCall("call_a1", "insert_task", first), new ToolCall("call_b2", "insert_task", second));
        assertThat(response.text()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.usage()).isEqualTo(new TokenUsage(120, 40));
    }

    @Test
    void returnsTextFinishReasonAndUsage() {
        server.enqueue(json(200, textCompletion("Two tasks noted.", 33, 4).replace("\"stop\"", "\"length\"")));

        ChatResponse response = model.chat(runWithTools());

        assertThat(response)
                .isEqualTo(new ChatResponse("Two tasks noted.", List.of(), FinishReason.LENGTH, new TokenUsage(33, 4)));
    }

    @Test
    void streamsTextDeltasToTheListenerInOrder() {
        server.enqueue(FakeOpenAiServer.stream(
                textChunk("Hel"),
                textChunk("lo, "),
                textChunk("wor"),
                textChunk("ld."),
                finishChunk("stop", -1, 0),
                usageChunk(21, 5)));
        List<String> deltas = new ArrayList<>();

        ChatResponse response = model.chatStreaming(runWithTools(), deltas::add);

        assertThat(deltas).containsExactly("Hel", "lo, ", "wor", "ld.");
        assertThat(response)
                .isEqualTo(new ChatResponse("Hello, world.", List.of(), FinishReason.STOP, new TokenUsage(21, 5)));
        JsonNode body = server.takeRequest().json();
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("stream_options")).isEqualTo(parse("{\"include_usage\":true}"));
    }

    @Test
    void accumulatesToolCallFragmentsSplitAcrossChunks() {
        // Two calls whose arguments arrive in pieces, interleaved; usage rides on the last chunk, as some
        // compatible servers send it.
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
        assertThat(response.toolCalls())
                .containsExactly(
                        new ToolCall(
                                "call_x",
                                "insert_task",
                                "{\"after_task_order\": 0, \"task_description\": \"Book a table\"}"),
                        new ToolCall("call_y", "finish", "{}"));
        assertThat(response.text()).isEqualTo("Adding.");
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.usage()).isEqualTo(new TokenUsage(80, 30));
    }

    @Test
    void aStreamCutBeforeTheModelFinishedIsAClearError() {
        server.enqueue(FakeOpenAiServer.cutStream(textChunk("Hel")));

        assertThatThrownBy(() -> model.chatStreaming(runWithTools(), delta -> {}))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("The model service at " + server.baseUrl()
                        + " answered with something that is not a valid chat completion: the stream ended before a"
                        + " chunk with a finish_reason");
    }

    @Test
    void retriesARateLimitAndThenSucceeds() {
        server.enqueue(FakeOpenAiServer.rateLimited());
        server.enqueue(json(200, textCompletion("Made it.", 5, 2)));

        ChatResponse response = model.chat(runWithTools());

        assertThat(response.text()).isEqualTo("Made it.");
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(1).json())
                .isEqualTo(server.requests().get(0).json());
    }

    @Test
    void aRateLimitThatOutlastsTheRetriesNamesTheCause() {
        try (OpenAiChatModel oneRetry = modelWithRetries(1)) {
            server.enqueue(FakeOpenAiServer.rateLimited());
            server.enqueue(FakeOpenAiServer.rateLimited());

            assertThatThrownBy(() -> oneRetry.chat(runWithTools()))
                    .isInstanceOf(ChatModelException.class)
                    .hasMessage(
                            "The model service at " + server.baseUrl()
                                    + " is rate limiting (HTTP 429; gave up after 2 attempts): Rate limit reached for requests."
                                    + " Wait and try again, lower the request rate, raise maxRetries, or check the account's quota.");
        }
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aRefusedKeyIsAClearErrorThatNeverShowsTheKey() {
        // OpenAI's own 401 text quotes the key (partly masked); here it quotes it whole.
        server.enqueue(json(
                401,
                "{\"error\":{\"message\":\"Incorrect API key provided: " + API_KEY
                        + ".\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}"));

        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> model.chat(runWithTools()));

        assertThat(thrown)
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The model service at " + server.baseUrl()
                        + " refused the API key (HTTP 401 Unauthorized, code invalid_api_key). Check OPENAI_API_KEY"
                        + " (or the key given to OpenAiChatModel.builder().apiKey(...)): it must be a valid, active key"
                        + " for this server. The key is not shown here.");
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            assertThat(String.valueOf(cause.getMessage())).doesNotContain(API_KEY);
            assertThat(cause.toString()).doesNotContain(API_KEY);
        }
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aMalformedResponseBodyIsAClearError() {
        server.enqueue(FakeOpenAiServer.raw(200, "application/json", "<html>Bad gateway</html>"));

        assertThatThrownBy(() -> model.chat(runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("The model service at " + server.baseUrl()
                        + " answered with something that is not a valid chat completion: ")
                .hasMessageEndingWith("Check that OPENAI_BASE_URL points at an OpenAI-compatible API root (usually"
                        + " ending in /v1).");
    }

    @Test
    void aResponseWithoutChoicesIsAClearError() {
        server.enqueue(json(
                200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":[]}"));

        assertThatThrownBy(() -> model.chat(runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("The model service at " + server.baseUrl()
                        + " answered with something that is not a valid chat completion: it has no choices.");
    }

    @Test
    void aRejectedRequestShowsWhatTheServerSaid() {
        server.enqueue(json(400, FakeOpenAiServer.error("Invalid schema for function 'insert_task'.")));

        assertThatThrownBy(() -> model.chat(runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The model service at " + server.baseUrl()
                        + " rejected the request for model 'gpt-test' (HTTP 400): Invalid schema for function"
                        + " 'insert_task'.");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void anUnreachableServerIsAClearError() {
        String baseUrl = server.baseUrl();
        server.close();
        try (OpenAiChatModel unreachable =
                OpenAiChatModel.builder().baseUrl(baseUrl).maxRetries(0).build()) {

            assertThatThrownBy(() -> unreachable.chat(runWithTools()))
                    .isInstanceOf(ChatModelException.class)
                    .hasMessageStartingWith("Could not reach the model service at " + baseUrl + " (1 attempt): ")
                    .hasMessageEndingWith("Check OPENAI_BASE_URL and that the server is running.");
        }
    }

    @Test
    void aServerThatDoesNotAnswerInTimeIsAClearError() {
        CountDownLatch release = new CountDownLatch(1);
        server.enqueue(json(200, textCompletion("Too late.", 1, 1)).heldUntil(release));
        try (OpenAiChatModel impatient = OpenAiChatModel.builder()
                .baseUrl(server.baseUrl())
                .timeout(Duration.ofMillis(300))
                .maxRetries(0)
                .build()) {

            assertThatThrownBy(() -> impatient.chat(runWithTools()))
                    .isInstanceOf(ChatModelException.class)
                    .hasMessage("The model service at " + server.baseUrl()
                            + " did not answer within 300 ms (1 attempt). Raise the timeout, ask for a shorter"
                            + " answer, or check the server.");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aToolWithASchemaThatIsNotAnObjectIsRefusedBeforeSending() {
        ToolDefinition broken = new ToolDefinition("broken", "Broken.", "[1, 2]");

        assertThatThrownBy(() -> model.chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of(broken))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Tool 'broken' has a parameters schema that is not a JSON object; give it an object"
                        + " schema, e.g. from JsonSchema.object()");
        assertThat(server.requests()).isEmpty();
    }

    private static JsonNode parse(String text) {
        try {
            return FakeOpenAiServer.JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
