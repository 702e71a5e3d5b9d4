package dev.taskagent.testservers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.testservers.FakeOpenAiServer.CannedResponse;
import dev.taskagent.testservers.FakeOpenAiServer.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A local HTTP server that speaks Anthropic's Messages wire format ({@code POST /v1/messages}): it answers each
 * request with the next canned response from its queue and records every request (path, headers, body). The
 * canned responses and recorded requests are {@link FakeOpenAiServer}'s.
 *
 * <p>Listens on 127.0.0.1 on a free port; no network. Without a queued response it answers 500 with {@code
 * x-should-retry: false}, so a test that forgot one fails at once instead of retrying.
 *
 * <pre>{@code
 * try (FakeAnthropicServer server = FakeAnthropicServer.start()) {
 *     server.enqueue(FakeAnthropicServer.json(
 *             200, FakeAnthropicServer.message("end_turn", 3, 1, FakeAnthropicServer.text("Hi"))));
 *     // point the client at server.baseUrl() (no /v1: Anthropic's clients add it)
 *     JsonNode body = server.takeRequest().json();
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class FakeAnthropicServer implements AutoCloseable {
    private final CannedHttpServer server = new CannedHttpServer(
            "fake-anthropic-server",
            number -> new CannedResponse(
                    500,
                    Map.of("Content-Type", "application/json", "x-should-retry", "false"),
                    List.of(error("api_error", "FakeAnthropicServer: no response queued for request #" + number)),
                    null));

    private FakeAnthropicServer() {}

    /** Starts a server on 127.0.0.1 and a free port. */
    public static FakeAnthropicServer start() {
        return new FakeAnthropicServer();
    }

    /** @return the base URL to configure, without {@code /v1} like Anthropic's ({@code https://api.anthropic.com}) */
    public String baseUrl() {
        return server.origin();
    }

    /** Queues the answer to the next request. */
    public FakeAnthropicServer enqueue(CannedResponse response) {
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

    // ---- canned responses ----

    /** A JSON answer with a status; errors say {@code x-should-retry: false}, so clients fail at once. */
    public static CannedResponse json(int status, String body) {
        Map<String, String> headers = status >= 400
                ? Map.of("Content-Type", "application/json", "x-should-retry", "false")
                : Map.of("Content-Type", "application/json");
        return new CannedResponse(status, headers, List.of(body), null);
    }

    /** A streamed answer: each event as one SSE event with its {@code event:} name and {@code data:}. */
    public static CannedResponse stream(String... events) {
        List<String> parts = new ArrayList<>();
        for (String event : events) {
            String type = parse(event).path("type").asText();
            parts.add("event: " + type + "\ndata: " + event + "\n\n");
        }
        return new CannedResponse(200, Map.of("Content-Type", "text/event-stream"), parts, null);
    }

    // ---- wire-format bodies ----

    /** An Anthropic error body, e.g. {@code api_error}, {@code authentication_error}, {@code overloaded_error}. */
    public static String error(String type, String message) {
        ObjectNode error = FakeOpenAiServer.JSON.createObjectNode().put("type", "error");
        error.putObject("error").put("type", type).put("message", message);
        return error.toString();
    }

    /** A {@code text} content block. */
    public static ObjectNode text(String text) {
        return FakeOpenAiServer.JSON
                .createObjectNode()
                .put("type", "text")
                .put("text", text)
                .putNull("citations");
    }

    /** A {@code tool_use} content block; {@code inputJson} is the input object as JSON text. */
    public static ObjectNode toolUse(String id, String name, String inputJson) {
        ObjectNode block = FakeOpenAiServer.JSON
                .createObjectNode()
                .put("type", "tool_use")
                .put("id", id)
                .put("name", name);
        block.set("input", parse(inputJson));
        return block;
    }

    /** A whole message with these content blocks, a stop reason ({@code end_turn}, {@code tool_use}...) and usage. */
    public static String message(String stopReason, long inputTokens, long outputTokens, ObjectNode... content) {
        ObjectNode message = messageStart(inputTokens, outputTokens);
        ArrayNode blocks = message.putArray("content");
        for (ObjectNode block : content) {
            blocks.add(block);
        }
        message.put("stop_reason", stopReason);
        return message.toString();
    }

    private static ObjectNode messageStart(long inputTokens, long outputTokens) {
        ObjectNode message = FakeOpenAiServer.JSON
                .createObjectNode()
                .put("id", "msg_test")
                .put("type", "message")
                .put("role", "assistant")
                .put("model", "claude-test");
        message.putArray("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.putNull("container");
        message.putObject("usage")
                .put("input_tokens", inputTokens)
                .put("output_tokens", outputTokens)
                .put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", 0)
                .putNull("server_tool_use")
                .put("service_tier", "standard");
        return message;
    }

    // ---- stream events ----

    /** {@code message_start}: the message without content, with the input tokens. */
    public static String messageStartEvent(long inputTokens) {
        ObjectNode event = FakeOpenAiServer.JSON.createObjectNode().put("type", "message_start");
        event.set("message", messageStart(inputTokens, 1));
        return event.toString();
    }

    /** {@code content_block_start} of a text block. */
    public static String textBlockStartEvent(int index) {
        ObjectNode event = blockEvent("content_block_start", index);
        event.putObject("content_block").put("type", "text").put("text", "");
        return event.toString();
    }

    /** {@code content_block_start} of a tool_use block, whose input then arrives as {@code input_json_delta}s. */
    public static String toolUseBlockStartEvent(int index, String id, String name) {
        ObjectNode event = blockEvent("content_block_start", index);
        ObjectNode block = event.putObject("content_block")
                .put("type", "tool_use")
                .put("id", id)
                .put("name", name);
        block.putObject("input");
        return event.toString();
    }

    /** {@code content_block_delta} with a {@code text_delta}. */
    public static String textDeltaEvent(int index, String text) {
        ObjectNode event = blockEvent("content_block_delta", index);
        event.putObject("delta").put("type", "text_delta").put("text", text);
        return event.toString();
    }

    /** {@code content_block_delta} with an {@code input_json_delta}: a piece of a tool's input JSON. */
    public static String inputJsonDeltaEvent(int index, String partialJson) {
        ObjectNode event = blockEvent("content_block_delta", index);
        event.putObject("delta").put("type", "input_json_delta").put("partial_json", partialJson);
        return event.toString();
    }

    /** {@code content_block_stop}. */
    public static String blockStopEvent(int index) {
        return blockEvent("content_block_stop", index).toString();
    }

    /** {@code message_delta}: the stop reason and the output tokens. */
    public static String messageDeltaEvent(String stopReason, long outputTokens) {
        ObjectNode event = FakeOpenAiServer.JSON.createObjectNode().put("type", "message_delta");
        event.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
        event.putObject("usage").put("output_tokens", outputTokens);
        return event.toString();
    }

    /** {@code message_stop}. */
    public static String messageStopEvent() {
        return FakeOpenAiServer.JSON
                .createObjectNode()
                .put("type", "message_stop")
                .toString();
    }

    private static ObjectNode blockEvent(String type, int index) {
        return FakeOpenAiServer.JSON.createObjectNode().put("type", type).put("index", index);
    }

    private static com.fasterxml.jackson.databind.JsonNode parse(String json) {
        try {
            return FakeOpenAiServer.JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + json, e);
        }
    }
}
