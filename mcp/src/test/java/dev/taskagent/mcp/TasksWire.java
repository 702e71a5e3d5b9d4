package dev.taskagent.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A 2026-07-28 client of the Tasks extension written by hand, as the extension's wire shapes are: the SDK's
 * clients do not speak the extension. Each request names the revision in its {@code _meta} (and, over HTTP,
 * its headers), and declares the extension or not.
 */
final class TasksWire {
    static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final boolean declaresTasks;
    private final UnaryOperator<JsonNode> exchange;
    private final AtomicInteger ids = new AtomicInteger();

    /** A client over HTTP; each request's {@code Mcp-Name} header names its tool or task. */
    TasksWire(URI endpoint, boolean declaresTasks) {
        this.endpoint = endpoint;
        this.declaresTasks = declaresTasks;
        this.exchange = request -> response(send((ObjectNode) request, mcpName(request)));
    }

    /** A client over another transport: {@code exchange} sends a request and answers with its response. */
    TasksWire(boolean declaresTasks, UnaryOperator<JsonNode> exchange) {
        this.endpoint = null;
        this.declaresTasks = declaresTasks;
        this.exchange = exchange;
    }

    private static String mcpName(JsonNode request) {
        JsonNode params = request.path("params");
        return params.has("taskId")
                ? params.path("taskId").asText()
                : params.path("name").asText(null);
    }

    /** The body of a request. */
    ObjectNode request(String method, ObjectNode params) {
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
        if (declaresTasks) {
            capabilities.putObject("extensions").putObject(TasksExtension.ID);
        }
        meta.putObject("io.modelcontextprotocol/clientInfo")
                .put("name", "tasks-wire")
                .put("version", "1");
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
        request.set("params", params);
        return request;
    }

    /** Sends a request with the headers a 2026-07-28 client sends; {@code name} is the Mcp-Name, or null. */
    HttpResponse<String> send(ObjectNode request, String name) {
        Map<String, String> headers = new HashMap<>(Map.of(
                "MCP-Protocol-Version",
                "2026-07-28",
                "Mcp-Method",
                request.path("method").asText()));
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        try {
            return RawHttp.post(endpoint, JSON.writeValueAsString(request), headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The JSON-RPC response of a request: the JSON body, or the data of an event stream. */
    static JsonNode response(HttpResponse<String> response) {
        String body = response.body();
        String json = body.strip().startsWith("{")
                ? body
                : body.lines()
                        .filter(line -> line.startsWith("data:"))
                        .map(line -> line.substring("data:".length()).strip())
                        .reduce((first, last) -> last)
                        .orElseThrow(() -> new AssertionError("No JSON in the response: " + body));
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body of a {@code tools/call}. */
    ObjectNode toolCall(String tool, Map<String, Object> arguments) {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return request("tools/call", params);
    }

    /** The body of a {@code tasks/get}, {@code tasks/cancel} or {@code tasks/update} of a task. */
    ObjectNode taskRequest(String method, String taskId) {
        ObjectNode params = JSON.createObjectNode().put("taskId", taskId);
        if (method.equals("tasks/update")) {
            params.putObject("inputResponses");
        }
        return request(method, params);
    }

    /** Calls a tool; returns the whole JSON-RPC response. */
    JsonNode callTool(String tool, Map<String, Object> arguments) {
        return exchange.apply(toolCall(tool, arguments));
    }

    /** Sends {@code tasks/get}, {@code tasks/cancel} or {@code tasks/update} of a task; the whole response. */
    JsonNode tasks(String method, String taskId) {
        return exchange.apply(taskRequest(method, taskId));
    }

    /**
     * Runs a Taskfile task with {@code run_user_task}, answered with an MCP task.
     *
     * @return the MCP task id
     * @throws AssertionError if the call was not answered with a task
     */
    String startRun(String taskName) {
        JsonNode created = callTool("run_user_task", Map.of("task_name", taskName));
        if (!created.path("result").path("resultType").asText().equals("task")) {
            throw new AssertionError("run_user_task of " + taskName + " was not answered with a task: " + created);
        }
        return created.path("result").path("taskId").asText();
    }

    /** Polls {@code tasks/get} until the task has ended; returns its last result. */
    JsonNode awaitEnd(String taskId, Duration timeout) {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        McpClients.await("task " + taskId + " to end (last: " + last + ")", timeout, () -> {
            JsonNode got = tasks("tasks/get", taskId);
            last.set(got);
            String status = got.path("result").path("status").asText();
            return status.equals("completed") || status.equals("failed") || status.equals("cancelled");
        });
        return last.get().path("result");
    }
}
