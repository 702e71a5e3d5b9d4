package dev.taskagent.mcp;

import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stateless MCP server of protocol revision {@value #REVISION}, on the SDK's {@code modern} server: the
 * same tools as the 2025-11-25 server, called through the same {@link McpTools#call(String, Map)}, so a call
 * has the same result, the same soft errors and the same server-failure text on both revisions.
 *
 * <p>A 2026-07-28 request names its revision in its {@code _meta} (and, over HTTP, in the {@code
 * MCP-Protocol-Version} header); this server needs no {@code initialize} and keeps no session. The
 * transports decide, per request, which of the two servers answers: see {@link HttpGate} and {@link
 * StdioTransport}.
 *
 * <p>Thread-safe.
 */
final class StatelessMcp {
    /** The protocol revision this server speaks. */
    static final String REVISION = McpSchema.LATEST_PROTOCOL_VERSION;

    private StatelessMcp() {}

    /**
     * Builds the stateless server over the tools.
     *
     * @param toolbox the tools, in the order clients list them
     * @param tools the adapter that runs a call, shared with the 2025-11-25 server
     * @param jsonMapper the server's JSON mapper
     * @param version the server's version, as its implementation info says
     * @param tasks where the calls answered with a task are kept and run (the Tasks extension)
     * @param taskTools the tools that answer a client that declared the Tasks extension with a task
     * @param resources the task resources, and the changes that {@code subscriptions/listen} streams carry
     * @return the server
     * @throws IllegalArgumentException if a tool declares no hints
     */
    static McpServer build(
            Toolbox toolbox,
            McpTools tools,
            McpJsonMapper jsonMapper,
            String version,
            StoredToolTasks tasks,
            Set<String> taskTools,
            McpResources resources) {
        Map<String, McpSyncTool> byName = new LinkedHashMap<>();
        for (Tool tool : toolbox.tools()) {
            boolean asTask = taskTools.contains(tool.name());
            byName.put(
                    tool.name(),
                    McpSyncTool.of(
                            definition(tool, jsonMapper),
                            (context, request) -> asTask && TasksExtension.isDeclared(context)
                                    ? createTask(context, tasks, tool.name(), request.arguments(), tools.telemetry())
                                    : call(context, tools, tool.name(), request.arguments(), jsonMapper)));
        }
        List<McpSchema.Tool> definitions =
                byName.values().stream().map(McpSyncTool::definition).toList();
        McpSyncToolRepository repository = new McpSyncToolRepository() {
            @Override
            public ToolsPage list(io.modelcontextprotocol.modern.server.McpRequestContext context, String cursor) {
                return ToolsPage.of(definitions);
            }

            @Override
            public McpSyncTool find(io.modelcontextprotocol.modern.server.McpRequestContext context, String name) {
                return byName.get(name);
            }
        };
        McpServer.Builder server = McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder("taskagent", version)
                        .title("taskagent task queue")
                        .build())
                .instructions(TaskMcpServer.INSTRUCTIONS)
                .supportedVersions(List.of(REVISION))
                .jsonMapper(jsonMapper)
                .feature(ToolsFeature.ofSync(
                        repository, jsonMapper, outputsOnly(definitions, jsonMapper), 0, McpSchema.CacheScope.PRIVATE))
                .feature(new TasksExtension(tasks))
                .feature(resources.modernFeature(jsonMapper))
                .requestStateCodec(requestStateCodec(jsonMapper));
        if (resources.subscribable()) {
            server.subscriptions(resources.modernChanges());
        }
        return server.build();
    }

    /** Runs a call, in its span. */
    private static McpSyncResponse<McpSchema.CallToolOutcome> call(
            McpRequestContext context,
            McpTools tools,
            String toolName,
            Map<String, Object> arguments,
            McpJsonMapper jsonMapper) {
        McpTelemetry.Operation operation = tools.telemetry()
                .toolCall(toolName, context.protocolVersion(), context.requestId(), null, context.meta());
        McpSchema.CallToolResult answer = operation.within(() -> result(tools.call(toolName, arguments), jsonMapper));
        operation.toolResult(Boolean.TRUE.equals(answer.isError()));
        return McpSyncResponse.result(answer);
    }

    /** Answers a call with a task, in a span that covers the task's creation (not its run). */
    private static McpSyncResponse<McpSchema.CallToolOutcome> createTask(
            McpRequestContext context,
            StoredToolTasks tasks,
            String toolName,
            Map<String, Object> arguments,
            McpTelemetry telemetry) {
        McpTelemetry.Operation operation =
                telemetry.toolCall(toolName, context.protocolVersion(), context.requestId(), null, context.meta());
        dev.taskagent.task.Task task = operation.within(() -> start(tasks, toolName, arguments));
        operation.taskCreated(Long.toString(task.id()));
        operation.succeeded();
        return McpSyncResponse.result(TasksExtension.created(task));
    }

    /** Starts a call as a task; arguments too large to keep are the client's to fix. */
    private static dev.taskagent.task.Task start(
            StoredToolTasks tasks, String toolName, Map<String, Object> arguments) {
        try {
            return tasks.start(toolName, arguments);
        } catch (IllegalArgumentException e) {
            throw io.modelcontextprotocol.modern.McpException.invalidParams(
                    "The call cannot be kept as a task: " + e.getMessage());
        }
    }

    /**
     * The SDK checks a call's arguments against the tool's input schema and answers a mismatch with a text of
     * its own; the 2025-11-25 server does not (the tools check their arguments and say, for the model, what
     * to send instead), and neither does this one, so that a bad argument gets the same answer on both
     * revisions. Structured results are still checked against the output schemas.
     */
    private static JsonSchemaValidator outputsOnly(List<McpSchema.Tool> definitions, McpJsonMapper jsonMapper) {
        Set<Map<String, Object>> inputSchemas = Collections.newSetFromMap(new IdentityHashMap<>());
        definitions.forEach(definition -> inputSchemas.add(definition.inputSchema()));
        JsonSchemaValidator outputs = new SchemaValidator(jsonMapper);
        return (schema, content) -> inputSchemas.contains(schema)
                ? JsonSchemaValidator.ValidationResponse.asValid(null)
                : outputs.validate(schema, content);
    }

    /**
     * Seals the state a server hands a client between the rounds of an input-required call. No tool asks
     * the client for input, so no state is ever sealed; a key of the process's own is enough, and naming
     * it keeps the SDK from warning, at every start, that it made one up.
     */
    private static HmacRequestStateCodec requestStateCodec(McpJsonMapper jsonMapper) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HmacRequestStateCodec.builder().key(key).jsonMapper(jsonMapper).build();
    }

    private static McpSchema.Tool definition(Tool tool, McpJsonMapper jsonMapper) {
        McpSchema.ToolAnnotations annotations = tool.hints()
                .map(StatelessMcp::annotations)
                .orElseThrow(() -> new IllegalArgumentException("Tool '" + tool.name()
                        + "' declares no hints, so it has no MCP annotations; give it some with"
                        + " Tool.withHints(ToolHints) before serving it"));
        McpSchema.Tool.Builder definition = McpSchema.Tool.builder(tool.name(), jsonMapper, tool.parametersSchema())
                .title(annotations.title())
                .description(tool.description())
                .annotations(annotations);
        tool.outputSchema().ifPresent(schema -> definition.outputSchema(jsonMapper, schema));
        return definition.build();
    }

    private static McpSchema.ToolAnnotations annotations(ToolHints hints) {
        return new McpSchema.ToolAnnotations.Builder()
                .title(hints.title())
                .readOnlyHint(hints.readOnlyHint())
                // The protocol reads the destructive and idempotent hints only for tools that write.
                .destructiveHint(hints.readOnlyHint() ? null : hints.destructiveHint())
                .idempotentHint(hints.idempotentHint())
                .openWorldHint(hints.openWorldHint())
                .build();
    }

    private static McpSchema.CallToolResult result(ToolResult result, McpJsonMapper jsonMapper) {
        McpSchema.CallToolResult.Builder answer = McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(result.text()).build())
                .isError(result.isError());
        if (result.hasStructuredContent() && !result.isError()) {
            try {
                answer.structuredContent(jsonMapper.readValue(result.structuredContent(), Object.class));
            } catch (IOException e) {
                // The tool's own JSON: cannot happen; the text alone still answers the call.
                throw new UncheckedIOException(e);
            }
        }
        return answer.build();
    }
}
