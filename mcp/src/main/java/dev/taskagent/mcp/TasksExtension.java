package dev.taskagent.mcp;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.taskagent.task.Task;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpHeader;
import io.modelcontextprotocol.modern.server.McpHeaders;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The MCP Tasks extension ({@value #ID}) of revision 2026-07-28 on the stateless server: {@code tasks/get},
 * {@code tasks/update} and {@code tasks/cancel} over the {@link StoredToolTasks}, and the {@code
 * CreateTaskResult} a task-supporting tool answers with.
 *
 * <p>The extension is served only to a client that declares it in the request's client capabilities
 * ({@code _meta["io.modelcontextprotocol/clientCapabilities"].extensions}); a {@code tasks/*} request
 * without it is refused with {@code -32021} (a missing required client capability) naming the extension,
 * and a task-supporting tool called without it answers synchronously, as on 2025-11-25.
 *
 * <p>Thread-safe.
 */
final class TasksExtension implements McpFeature {
    /** The extension's identifier. */
    static final String ID = "io.modelcontextprotocol/tasks";

    /** The result type of a call answered with a task. */
    static final String RESULT_TYPE_TASK = "task";

    private static final Set<String> METHODS = Set.of("tasks/get", "tasks/update", "tasks/cancel");

    private final StoredToolTasks tasks;

    TasksExtension(StoredToolTasks tasks) {
        this.tasks = tasks;
    }

    /**
     * Tells whether a request's client declared the extension.
     *
     * @param context the request
     * @return true when its client capabilities name {@value #ID}
     */
    static boolean isDeclared(McpRequestContext context) {
        McpSchema.ClientCapabilities capabilities = context.clientCapabilities();
        return capabilities != null
                && capabilities.extensions() != null
                && capabilities.extensions().containsKey(ID);
    }

    /** @return the capabilities a client must declare to use the extension */
    static McpSchema.ClientCapabilities required() {
        return McpSchema.ClientCapabilities.builder()
                .extensions(Map.of(ID, Map.of()))
                .build();
    }

    @Override
    public Set<String> methods() {
        return METHODS;
    }

    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.extension(ID, Map.of());
    }

    @Override
    public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(
            McpRequestContext context, Object params) {
        // The store is blocking (JDBC): off the transport's threads.
        return Mono.fromCallable(() -> McpAsyncResponse.result(answer(context, params)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private McpSchema.Result answer(McpRequestContext context, Object params) {
        if (!isDeclared(context)) {
            throw McpException.missingClientCapability(required());
        }
        String taskId = taskId(context.method(), params);
        checkNameHeader(context, taskId);
        return switch (context.method()) {
            case "tasks/get" -> get(taskId);
            case "tasks/cancel" -> cancel(taskId);
            default -> update(taskId);
        };
    }

    private static String taskId(String method, Object params) {
        if (!(params instanceof Map<?, ?> map) || !(map.get("taskId") instanceof String taskId) || taskId.isBlank()) {
            throw McpException.invalidParams(
                    method + " needs params.taskId, the task id a tools/call answered with (a string)");
        }
        return taskId;
    }

    /**
     * Over HTTP a {@code tasks/*} request names its task in the {@code Mcp-Name} header too, so that a proxy
     * can route it without reading the body; a header that is missing or names another task is refused
     * with {@code -32020}, as the transport refuses a {@code tools/call} whose header names another tool.
     */
    private static void checkNameHeader(McpRequestContext context, String taskId) {
        if (!(context.transportContext().get(McpHeaders.TRANSPORT_CONTEXT_KEY) instanceof McpHeaders headers)
                || headers == McpHeaders.NOT_MIRRORED) {
            return;
        }
        McpHeader name = headers.get("Mcp-Name");
        if (name == null || name.isMalformed() || !taskId.equals(name.value())) {
            throw new McpException(
                    McpSchema.ErrorCodes.HEADER_MISMATCH,
                    "The Mcp-Name header must name the task of params.taskId ('" + taskId + "'); it was "
                            + (name == null ? "missing" : "'" + name.value() + "'"));
        }
    }

    private WireResult get(String taskId) {
        StoredToolTasks.View view = tasks.find(taskId).orElseThrow(() -> unknown(taskId));
        Map<String, Object> body = taskFields(view.task(), view.status(), view.statusMessage());
        body.put("resultType", McpSchema.ResultType.COMPLETE);
        if (view.result() != null) {
            body.put("result", view.result());
        }
        if (view.error() != null) {
            body.put("error", view.error());
        }
        return new WireResult(body);
    }

    private WireResult cancel(String taskId) {
        if (tasks.cancel(taskId) == StoredToolTasks.CancelOutcome.NOT_FOUND) {
            throw unknown(taskId);
        }
        return new WireResult(Map.of("resultType", McpSchema.ResultType.COMPLETE));
    }

    /** No taskagent tool asks its client for input, so no task is ever {@code input_required}. */
    private WireResult update(String taskId) {
        StoredToolTasks.View view = tasks.find(taskId).orElseThrow(() -> unknown(taskId));
        throw McpException.invalidParams("Task " + taskId + " is " + view.status()
                + ", not input_required: it asked for no input, so tasks/update has nothing to answer");
    }

    private static McpException unknown(String taskId) {
        return McpException.invalidParams("Unknown task '" + taskId
                + "': no task of this server's store has that id. Use the taskId a tools/call answered with.");
    }

    /**
     * The answer to a call that became a task: the task's fields at the top level and {@code resultType}
     * {@value #RESULT_TYPE_TASK}.
     *
     * @param task the task, as created
     * @return the {@code CreateTaskResult}
     */
    static WireResult created(Task task) {
        Map<String, Object> body = taskFields(task, "working", "The call is running.");
        body.put("resultType", RESULT_TYPE_TASK);
        return new WireResult(body);
    }

    private static Map<String, Object> taskFields(Task task, String status, String statusMessage) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("taskId", Long.toString(task.id()));
        body.put("status", status);
        if (statusMessage != null) {
            body.put("statusMessage", statusMessage);
        }
        body.put("createdAt", StoredToolTasks.wireTime(task.createdAt()));
        body.put("lastUpdatedAt", StoredToolTasks.wireTime(task.updatedAt()));
        // The store keeps the task until someone deletes it: no time to live.
        body.put("ttlMs", null);
        body.put("pollIntervalMs", StoredToolTasks.POLL_INTERVAL_MS);
        return body;
    }

    /**
     * A result the SDK has no type for, written as its fields.
     *
     * @param body the result's fields, {@code resultType} among them
     */
    record WireResult(Map<String, Object> body) implements McpSchema.CallToolOutcome {
        /** @return the fields, as the wire writes them */
        @JsonValue
        Map<String, Object> json() {
            return body;
        }

        @Override
        public String resultType() {
            return (String) body.get("resultType");
        }

        @Override
        public Map<String, Object> meta() {
            return null;
        }
    }
}
