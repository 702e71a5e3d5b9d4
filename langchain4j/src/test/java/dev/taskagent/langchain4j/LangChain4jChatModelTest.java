package dev.taskagent.langchain4j;

import static dev.taskagent.testservers.FakeOpenAiServer.finishChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.json;
import static dev.taskagent.testservers.FakeOpenAiServer.stream;
import static dev.taskagent.testservers.FakeOpenAiServer.textChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.textCompletion;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallChunk;
import static dev.taskagent.testservers.FakeOpenAiServer.toolCallCompletion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.taskagent.llm.AssistantMessage;
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
import org.junit.jupiter.api.Test;

/**
 * The bridge over LangChain4j's own OpenAI model classes, against a local server that speaks the Chat
 * Completions wire format: what taskagent asks for is what goes over the wire, and what comes back is what
 * taskagent gets.
 */
class LangChain4jChatModelTest {
    private static final String KEY = "sk-test-4711-secret";
    private static final ToolDefinition CLAIM = new ToolDefinition(
            "signup_for_task",
            "Claim your next task",
            JsonSchema.object()
                    .requiredString("agent_name", "Your agent name")
                    .optionalStringEnum("status", "How it ended", List.of("success", "failed"))
                    .optionalStringArray("labels", "Labels")
                    .toJson());

    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void stopServer() {
        server.close();
    }

    private LangChain4jChatModel model() {
        return LangChain4jChatModel.of(
                OpenAiChatModel.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey(KEY)
                        .modelName("gpt-test")
                        .maxRetries(0)
                        .build(),
                OpenAiStreamingChatModel.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey(KEY)
                        .modelName("gpt-test")
                        .build());
    }

    @Test
    void aRequestGoesOverTheWireAsTaskagentAskedAndItsAnswerComesBack() {
        server.enqueue(json(200, textCompletion("Hello, Hanan", 12, 3)));

        ChatResponse response = model().chat(new ChatRequest(
                "You keep a task list.",
                List.of(new UserMessage("Hi")),
                List.of(CLAIM),
                ChatOptions.defaults().withTemperature(0.2).withMaxOutputTokens(200)));

        assertThat(response)
                .isEqualTo(new ChatResponse("Hello, Hanan", List.of(), FinishReason.STOP, new TokenUsage(12, 3)));
        JsonNode body = server.takeRequest().json();
        assertThat(body.path("model").asText()).isEqualTo("gpt-test");
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("messages").toString())
                .isEqualTo("[{\"role\":\"system\",\"content\":\"You keep a task list.\"},"
                        + "{\"role\":\"user\",\"content\":\"Hi\"}]");
        JsonNode function = body.path("tools").get(0).path("function");
        assertThat(function.path("name").asText()).isEqualTo("signup_for_task");
        assertThat(function.path("description").asText()).isEqualTo("Claim your next task");
        JsonNode parameters = function.path("parameters");
        assertThat(parameters.path("properties").path("agent_name").toString())
                .isEqualTo("{\"type\":\"string\",\"description\":\"Your agent name\"}");
        assertThat(parameters.path("properties").path("status").path("enum").toString())
                .isEqualTo("[\"success\",\"failed\"]");
        assertThat(parameters
                        .path("properties")
                        .path("labels")
                        .path("items")
                        .path("type")
                        .asText())
                .isEqualTo("string");
        assertThat(parameters.path("required").toString()).isEqualTo("[\"agent_name\"]");
        assertThat(parameters.has("additionalProperties"))
                .as("LangChain4j's OpenAI classes send additionalProperties for strict tools only")
                .isFalse();
    }

    @Test
    void toolCallsComeBackWithTheirIdsAndArgumentsVerbatimAndGoBackWithTheirResults() {
        server.enqueue(json(
                200,
                toolCallCompletion(30, 9, new String[] {"call_7", "signup_for_task", "{\"agent_name\": \"alice\"}"})));
        server.enqueue(json(200, textCompletion("Claimed.", 50, 2)));
        LangChain4jChatModel model = model();

        ChatResponse first = model.chat(ChatRequest.of("", List.of(new UserMessage("Work")), List.of(CLAIM)));

        assertThat(first.toolCalls())
                .containsExactly(new ToolCall("call_7", "signup_for_task", "{\"agent_name\": \"alice\"}"));
        assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);

        model.chat(ChatRequest.of(
                "",
                List.of(
                        new UserMessage("Work"),
                        AssistantMessage.of(first),
                        new ToolResultMessage("call_7", "signup_for_task", "Task #3 claimed", false)),
                List.of(CLAIM)));

        server.takeRequest();
        JsonNode messages = server.takeRequest().json().path("messages");
        assertThat(messages.get(1).path("tool_calls").get(0).path("id").asText())
                .isEqualTo("call_7");
        assertThat(messages.get(1)
                        .path("tool_calls")
                        .get(0)
                        .path("function")
                        .path("arguments")
                        .asText())
                .isEqualTo("{\"agent_name\": \"alice\"}");
        assertThat(messages.get(2).toString())
                .isEqualTo("{\"role\":\"tool\",\"tool_call_id\":\"call_7\",\"content\":\"Task #3 claimed\"}");
    }

    @Test
    void aStreamedAnswerReachesTheListenerInOrderOnTheCallingThread() {
        server.enqueue(stream(
                textChunk("✓ STEP 1: "),
                textChunk("found three places\n"),
                textChunk("✓ STEP 2: sent"),
                finishChunk("stop", 40, 12)));
        List<String> deltas = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();

        ChatResponse response = model().chatStreaming(
                        ChatRequest.of("", List.of(new UserMessage("Go")), List.of()), delta -> {
                            deltas.add(delta);
                            threads.add(Thread.currentThread());
                        });

        assertThat(deltas).containsExactly("✓ STEP 1: ", "found three places\n", "✓ STEP 2: sent");
        assertThat(threads).containsOnly(Thread.currentThread());
        assertThat(response.text()).isEqualTo("✓ STEP 1: found three places\n✓ STEP 2: sent");
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(response.usage()).isEqualTo(new TokenUsage(40, 12));
    }

    @Test
    void aStreamedToolCallIsAssembledFromItsPieces() {
        server.enqueue(stream(
                toolCallChunk(0, "call_9", "signup_for_task", "{\"agent_"),
                toolCallChunk(0, null, null, "name\": \"bob\"}"),
                finishChunk("tool_calls", 20, 8)));

        ChatResponse response =
                model().chatStreaming(ChatRequest.of("", List.of(new UserMessage("Go")), List.of(CLAIM)), delta -> {});

        assertThat(response.toolCalls())
                .containsExactly(new ToolCall("call_9", "signup_for_task", "{\"agent_name\": \"bob\"}"));
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void aRefusedKeyIsReportedWithoutTheProvidersTextWhichQuotesTheKey() {
        server.enqueue(json(401, FakeOpenAiServer.error("Incorrect API key provided: " + KEY)));

        assertThatThrownBy(() -> model().chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of())))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The LangChain4j model openai/gpt-test was refused its credentials: check the API key it"
                        + " was built with.")
                .hasNoCause();
    }

    @Test
    void aServerFailureNamesTheModelAndTheStatusAndMasksKeys() {
        server.enqueue(json(500, FakeOpenAiServer.error("upstream broke for sk-abcdef123456")));

        assertThatThrownBy(() -> model().chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of())))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("The LangChain4j model openai/gpt-test failed")
                .hasMessageContaining("sk-***")
                .hasMessageNotContaining("abcdef123456");
    }

    @Test
    void aStreamThatFailsIsAChatModelException() {
        server.enqueue(json(500, FakeOpenAiServer.error("stream broke")));

        assertThatThrownBy(() -> model().chatStreaming(
                                ChatRequest.of("", List.of(new UserMessage("Hi")), List.of()), delta -> {}))
                .isInstanceOf(ChatModelException.class)
                .hasMessageStartingWith("The LangChain4j model openai/gpt-test failed");
    }

    @Test
    void theProviderAndModelNamesComeFromTheLangChain4jModel() {
        LangChain4jChatModel model = model();

        assertThat(model.providerName()).isEqualTo("openai");
        assertThat(model.modelName()).isEqualTo("gpt-test");
    }

    @Test
    void aSchemaLangChain4jCannotCarryIsRefusedNamingTheToolAndThePlace() {
        ToolDefinition odd =
                new ToolDefinition("odd", "Odd", "{\"type\":\"object\",\"properties\":{\"when\":{\"type\":\"date\"}}}");

        assertThatThrownBy(() -> model().chat(ChatRequest.of("", List.of(new UserMessage("Hi")), List.of(odd))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The parameters schema of tool 'odd' cannot be given to LangChain4j:"
                        + " $.properties.when has the type 'date', which is not supported");
        assertThat(server.requests()).isEmpty();
    }
}
