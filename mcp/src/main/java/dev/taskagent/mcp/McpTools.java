package dev.taskagent.mcp;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts taskagent {@link Tool}s to MCP tools, once: name, description, input schema, output schema and
 * annotations (the tool's {@link ToolHints}) on the way out; on a call, the arguments go through {@link Toolbox#call(ToolCall)} exactly
 * as a Java model's calls do, so a bad argument is the same soft error ({@code isError}) with the same
 * text. A tool that fails on the server (the store is down) answers with an {@code isError} result that
 * says so; its cause is logged, not sent.
 *
 * <p>Thread-safe.
 */
final class McpTools {
    private static final Logger LOG = LoggerFactory.getLogger(McpTools.class);

    /** Where the classic server's transports put a request's protocol revision in its transport context. */
    static final String PROTOCOL_VERSION_KEY = "mcp.protocol.version";

    private final Toolbox toolbox;
    private final McpJsonMapper jsonMapper;
    private final McpTelemetry telemetry;

    private final AtomicLong callIds = new AtomicLong();

    McpTools(Toolbox toolbox, McpJsonMapper jsonMapper, McpTelemetry telemetry) {
        this.toolbox = toolbox;
        this.jsonMapper = jsonMapper;
        this.telemetry = telemetry;
    }

    /** The spans and metrics of the calls and reads of both revisions. */
    McpTelemetry telemetry() {
        return telemetry;
    }

    /**
     * Returns the MCP specification of every tool of the toolbox.
     *
     * @return the specifications, in the toolbox's order
     * @throws IllegalArgumentException if a tool declares no {@linkplain Tool#hints() hints}: no tool is
     *     served with guessed annotations
     */
    List<SyncToolSpecification> specifications() {
        return toolbox.tools().stream().map(this::specification).toList();
    }

    private SyncToolSpecification specification(Tool tool) {
        McpSchema.ToolAnnotations annotations = tool.hints()
                .map(McpTools::annotations)
                .orElseThrow(() -> new IllegalArgumentException("Tool '" + tool.name()
                        + "' declares no hints, so it has no MCP annotations; give it some with"
                        + " Tool.withHints(ToolHints) before serving it"));
        McpSchema.Tool.Builder definition = McpSchema.Tool.builder(tool.name(), jsonMapper, tool.parametersSchema())
                .title(annotations.title())
                .description(tool.description())
                .annotations(annotations);
        tool.outputSchema().ifPresent(schema -> definition.outputSchema(jsonMapper, schema));
        return SyncToolSpecification.builder()
                .tool(definition.build())
                .callHandler((exchange, request) -> tracedAnswer(tool.name(), exchange, request))
                .build();
    }

    private static McpSchema.ToolAnnotations annotations(ToolHints hints) {
        return McpSchema.ToolAnnotations.builder()
                .title(hints.title())
                .readOnlyHint(hints.readOnlyHint())
                // The protocol reads the destructive and idempotent hints only for tools that write.
                .destructiveHint(hints.readOnlyHint() ? null : hints.destructiveHint())
                .idempotentHint(hints.idempotentHint())
                .openWorldHint(hints.openWorldHint())
                .build();
    }

    private McpSchema.CallToolResult tracedAnswer(
            String toolName, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        McpTelemetry.Operation operation =
                telemetry.toolCall(toolName, protocolVersion(exchange), null, exchange.sessionId(), request.meta());
        McpSchema.CallToolResult answer = operation.within(() -> answer(toolName, request.arguments()));
        operation.toolResult(Boolean.TRUE.equals(answer.isError()));
        return answer;
    }

    /**
     * The revision of a classic request, as its transport put it in the context (see {@link
     * #PROTOCOL_VERSION_KEY}): the {@code MCP-Protocol-Version} header over HTTP, the revision {@code
     * initialize} settled on over stdio; null if the transport did not say.
     */
    static String protocolVersion(McpSyncServerExchange exchange) {
        return exchange.transportContext() != null
                        && exchange.transportContext().get(PROTOCOL_VERSION_KEY) instanceof String version
                ? version
                : null;
    }

    private McpSchema.CallToolResult answer(String toolName, Map<String, Object> arguments) {
        ToolResult result = call(toolName, arguments);
        McpSchema.CallToolResult.Builder answer =
                McpSchema.CallToolResult.builder().addTextContent(result.text()).isError(result.isError());
        if (result.hasStructuredContent() && !result.isError()) {
            answer.structuredContent(jsonMapper, result.structuredContent());
        }
        return answer.build();
    }

    /**
     * Runs one call of a tool, as every protocol revision's server does.
     *
     * @param toolName the tool
     * @param arguments the call's arguments, or null for none
     * @return the tool's result, or the server-failure result when the tool failed on the server
     */
    ToolResult call(String toolName, Map<String, Object> arguments) {
        try {
            return callOrThrow(toolName, arguments);
        } catch (ToolExecutionException e) {
            LOG.error("Tool {} failed", toolName, e.getCause());
            return ToolResult.error(serverFailure(toolName));
        }
    }

    /**
     * Runs one call of a tool and lets a failure on the server through: a call run as an MCP task ends as
     * failed then, not with a result.
     *
     * @param toolName the tool
     * @param arguments the call's arguments, or null for none
     * @return the tool's result; a soft error (a bad argument) among them
     * @throws ToolExecutionException if the tool failed on the server (the store is down)
     */
    ToolResult callOrThrow(String toolName, Map<String, Object> arguments) {
        String argumentsJson;
        try {
            argumentsJson = jsonMapper.writeValueAsString(arguments == null ? Map.of() : arguments);
        } catch (IOException e) {
            // Cannot happen for what a JSON parser produced; a failure on the server like any other.
            throw new ToolExecutionException(toolName, e);
        }
        return toolbox.call(new ToolCall("mcp-" + callIds.incrementAndGet(), toolName, argumentsJson));
    }

    /**
     * Says that a tool failed on the server.
     *
     * @param toolName the tool
     * @return the text for the client
     */
    static String serverFailure(String toolName) {
        return "The server failed to run " + toolName
                + " (its task store may be unreachable) and did not complete the call. Try again later.";
    }
}
