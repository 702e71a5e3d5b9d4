package dev.taskagent.testservers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP server that speaks the Chat Completions wire format: it answers each request with the
 * next canned response from its queue and records every request (path, headers, body).
 *
 * <p>Listens on 127.0.0.1 on a free port; no network. Without a queued response it answers 500 with
 * {@code X-Should-Retry: false}, so a test that forgot one fails at once instead of retrying.
 *
 * <pre>{@code
 * try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
 *     server.enqueue(FakeOpenAiServer.json(200, FakeOpenAiServer.textCompletion("Hi", 3, 1)));
 *     OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("k").build();
 *     ...
 *     JsonNode body = server.takeRequest().json();
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class FakeOpenAiServer implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();

    private final CannedHttpServer server = new CannedHttpServer(
            "fake-openai-server",
            number -> new CannedResponse(
                    500,
                    Map.of("Content-Type", "application/json", "X-Should-Retry", "false"),
                    List.of(error("FakeOpenAiServer: no response queued for request #" + number)),
                    null));

    private FakeOpenAiServer() {}

    /** Starts a server on 127.0.0.1 and a free port. */
    public static FakeOpenAiServer start() {
        return new FakeOpenAiServer();
    }

    /** @return the base URL to configure, ending in {@code /v1} like OpenAI's */
    public String baseUrl() {
        return server.origin() + "/v1";
    }

    /** Queues the answer to the next request. */
    public FakeOpenAiServer enqueue(CannedResponse response) {
        server.enqueue(response);
        return this;
    }

    /** @return every request received so far, oldest first */
    public List<RecordedRequest> requests() {
        return server.requests();
    }

    /** Waits (up to 10 s) for the next request not taken yet. */
    public RecordedRequest takeRequest() {
        return server.takeRequest();
    }

    @Override
    public void close() {
        server.close();
    }

    /** One canned answer: status, headers and the body, written in parts (SSE events) or whole. */
    public record CannedResponse(int status, Map<String, String> headers, List<String> bodyParts, CountDownLatch hold) {
        void writeTo(HttpExchange exchange) throws IOException {
            if (hold != null) {
                try {
                    // Holds the answer until the test releases it (or 30 s pass), to provoke a timeout.
                    hold.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (String part : bodyParts) {
                    out.write(part.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                // The client gave up (a timeout test): nothing left to do.
            }
        }

        /** The same answer, held back until {@code latch} is counted down. */
        public CannedResponse heldUntil(CountDownLatch latch) {
            return new CannedResponse(status, headers, bodyParts, latch);
        }
    }

    /** A request as the server received it. */
    public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body) {
        /** @return the body parsed as JSON */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (JsonProcessingException e) {
                throw new AssertionError("The request body is not JSON: " + body, e);
            }
        }

        /** @return the first value of a header (case-insensitive name), or null */
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    // ---- canned responses ----

    /** A JSON answer with a status. */
    public static CannedResponse json(int status, String body) {
        return raw(status, "application/json", body);
    }

    /** An answer with any content type and body, for malformed responses. */
    public static CannedResponse raw(int status, String contentType, String body) {
        return new CannedResponse(status, Map.of("Content-Type", contentType), List.of(body), null);
    }

    /** A 429 that asks for a 1 ms wait before the retry, so the test does not wait for the backoff. */
    public static CannedResponse rateLimited() {
        return new CannedResponse(
                429,
                Map.of("Content-Type", "application/json", "Retry-After-Ms", "1"),
                List.of(error("Rate limit reached for requests")),
                null);
    }

    /** A streamed answer: each chunk as one SSE {@code data:} event, then {@code data: [DONE]}. */
    public static CannedResponse stream(String... chunks) {
        List<String> events = new ArrayList<>();
        for (String chunk : chunks) {
            events.add("data: " + chunk + "\n\n");
        }
        events.add("data: [DONE]\n\n");
        return new CannedResponse(200, Map.of("Content-Type", "text/event-stream"), events, null);
    }

    /** A streamed answer that stops without {@code [DONE]}, as when the connection is cut. */
    public static CannedResponse cutStream(String... chunks) {
        List<String> events = new ArrayList<>();
        for (String chunk : chunks) {
            events.add("data: " + chunk + "\n\n");
        }
        return new CannedResponse(200, Map.of("Content-Type", "text/event-stream"), events, null);
    }

    // ---- wire-format bodies ----

    /** An OpenAI error body. */
    public static String error(String message) {
        ObjectNode error = JSON.createObjectNode();
        error.putObject("error")
                .put("message", message)
                .put("type", "server_error")
                .putNull("param")
                .putNull("code");
        return error.toString();
    }

    /** A chat completion with text only. */
    public static String textCompletion(String text, long promptTokens, long completionTokens) {
        ObjectNode completion = completion("stop", promptTokens, completionTokens);
        ((ObjectNode) completion.get("choices").get(0).get("message")).put("content", text);
        return completion.toString();
    }

    /** A chat completion that calls tools; each call is {id, name, raw arguments}. */
    public static String toolCallCompletion(long promptTokens, long completionTokens, String[]... calls) {
        ObjectNode completion = completion("tool_calls", promptTokens, completionTokens);
        ObjectNode message = (ObjectNode) completion.get("choices").get(0).get("message");
        message.putNull("content");
        ArrayNode toolCalls = message.putArray("tool_calls");
        for (String[] call : calls) {
            ObjectNode toolCall = toolCalls.addObject().put("id", call[0]).put("type", "function");
            toolCall.putObject("function").put("name", call[1]).put("arguments", call[2]);
        }
        return completion.toString();
    }

    private static ObjectNode completion(String finishReason, long promptTokens, long completionTokens) {
        ObjectNode completion = JSON.createObjectNode()
                .put("id", "chatcmpl-test")
                .put("object", "chat.completion")
                .put("created", 1_700_000_000L)
                .put("model", "gpt-test");
        ObjectNode choice = completion.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("refusal", (String) null);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        completion
                .putObject("usage")
                .put("prompt_tokens", promptTokens)
                .put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return completion;
    }

    /** A stream chunk whose delta carries text. */
    public static String textChunk(String text) {
        ObjectNode chunk = chunk();
        ((ArrayNode) chunk.get("choices"))
                .addObject()
                .put("index", 0)
                .putNull("finish_reason")
                .putObject("delta")
                .put("content", text);
        return chunk.toString();
    }

    /**
     * A stream chunk whose delta carries one fragment of a tool call: the first fragment of a call has
     * its id and name, later ones only a piece of the arguments (pass null for id and name).
     */
    public static String toolCallChunk(int index, String id, String name, String argumentsPiece) {
        ObjectNode chunk = chunk();
        ObjectNode choice =
                ((ArrayNode) chunk.get("choices")).addObject().put("index", 0).putNull("finish_reason");
        ObjectNode toolCall =
                choice.putObject("delta").putArray("tool_calls").addObject().put("index", index);
        ObjectNode function = toolCall.putObject("function");
        if (id != null) {
            toolCall.put("id", id).put("type", "function");
            function.put("name", name);
        }
        function.put("arguments", argumentsPiece);
        return chunk.toString();
    }

    /** The chunk that ends a choice; with usage when {@code promptTokens} is not negative. */
    public static String finishChunk(String finishReason, long promptTokens, long completionTokens) {
        ObjectNode chunk = chunk();
        ((ArrayNode) chunk.get("choices"))
                .addObject()
                .put("index", 0)
                .put("finish_reason", finishReason)
                .putObject("delta");
        if (promptTokens >= 0) {
            addUsage(chunk, promptTokens, completionTokens);
        }
        return chunk.toString();
    }

    /** The usage chunk OpenAI sends last when asked to ({@code stream_options.include_usage}). */
    public static String usageChunk(long promptTokens, long completionTokens) {
        ObjectNode chunk = chunk();
        chunk.putArray("choices");
        addUsage(chunk, promptTokens, completionTokens);
        return chunk.toString();
    }

    private static void addUsage(ObjectNode chunk, long promptTokens, long completionTokens) {
        chunk.putObject("usage")
                .put("prompt_tokens", promptTokens)
                .put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
    }

    private static ObjectNode chunk() {
        ObjectNode chunk = JSON.createObjectNode()
                .put("id", "chatcmpl-test")
                .put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L)
                .put("model", "gpt-test");
        chunk.putNull("usage");
        chunk.putArray("choices");
        return chunk;
    }
}
