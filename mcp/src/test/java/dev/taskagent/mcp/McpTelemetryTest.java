package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server's spans and metric in the OpenTelemetry MCP conventions, on both revisions over HTTP, driven by
 * the SDK's own clients (and a hand-made 2026-07-28 request for the Tasks extension), with an SDK that keeps
 * what it records in memory.
 */
class McpTelemetryTest {
    private static final McpJsonMapper JSON = WireJson.mapper();
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN_ID = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CLIENT_SPAN_ID + "-01";

    private static final Tool ECHO = Tool.of(
                    "echo", "Echoes.", JsonSchema.object(), arguments -> ToolResult.ok("echoed"))
            .withHints(ToolHints.readOnly("Echo"));
    private static final Tool REFUSE = Tool.of(
                    "refuse", "Refuses.", JsonSchema.object(), arguments -> ToolResult.error("Not today; try later."))
            .withHints(ToolHints.readOnly("Refuse"));

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private OpenTelemetrySdk openTelemetry;
    private InMemoryTaskStore store;
    private TaskQueue queue;
    private TaskMcpServer server;

    @BeforeEach
    void start() {
        openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .setMeterProvider(
                        SdkMeterProvider.builder().registerMetricReader(metrics).build())
                .build();
        store = new InMemoryTaskStore();
        queue = TaskQueue.builder(store).build();
        server = TaskMcpServer.builder(queue)
                .extraTools(Toolbox.of(List.of(ECHO, REFUSE)), Set.of("echo"))
                .openTelemetry(openTelemetry)
                .bind("127.0.0.1", 0)
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
        openTelemetry.close();
    }

    private SpanData onlySpan() {
        List<SpanData> finished = spans.getFinishedSpanItems();
        assertThat(finished).hasSize(1);
        return finished.get(0);
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    @Test
    void aClassicToolCallIsAServerSpanThatContinuesTheClientsTrace() {
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            McpSchema.CallToolResult result = client.callTool(McpSchema.CallToolRequest.builder("echo")
                    .arguments(Map.of())
                    .meta(Map.of("traceparent", TRACEPARENT))
                    .build());
            assertThat(McpClients.text(result)).isEqualTo("echoed");
        }

        SpanData span = onlySpan();
        assertThat(span.getName()).isEqualTo("tools/call echo");
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(CLIENT_SPAN_ID);
        assertThat(span.getParentSpanContext().isRemote()).isTrue();
        assertThat(attribute(span, "mcp.method.name")).isEqualTo("tools/call");
        assertThat(attribute(span, "gen_ai.tool.name")).isEqualTo("echo");
        assertThat(attribute(span, "gen_ai.operation.name")).isEqualTo("execute_tool");
        assertThat(attribute(span, "mcp.protocol.version")).isEqualTo("2025-11-25");
        assertThat(attribute(span, "mcp.session.id")).isNotBlank();
        assertThat(attribute(span, "network.transport")).isEqualTo("tcp");
        assertThat(attribute(span, "error.type")).isNull();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void aProtocolVersionHeaderOfNoKnownRevisionIsLeftOut() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(
                        "http://" + server.endpoint().getAuthority())
                .endpoint(server.endpoint().getPath())
                .addHttpRequestCustomizer((request, method, uri, body, context) ->
                        request.setHeader("MCP-Protocol-Version", "1999-01-01"))
                .build();
        try (McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(transport)
                .requestTimeout(McpClients.TIMEOUT)
                .build()) {
            client.initialize();
            McpClients.call(client, "echo", Map.of());
        }

        assertThat(attribute(onlySpan(), "mcp.protocol.version")).isNull();
        assertThat(durationPoint().getAttributes().get(AttributeKey.stringKey("mcp.protocol.version")))
                .isNull();
    }

    @Test
    void aCallWithoutTraceparentStartsANewTrace() {
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            McpClients.call(client, "echo", Map.of());
        }

        SpanData span = onlySpan();
        assertThat(span.getParentSpanContext().isValid()).isFalse();
        assertThat(span.getTraceId()).isNotEqualTo(TRACE_ID);
    }

    @Test
    void aToolResultWithIsErrorIsAToolErrorOnTheSpanAndTheMetric() {
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            assertThat(McpClients.call(client, "refuse", Map.of()).isError()).isTrue();
        }

        SpanData span = onlySpan();
        assertThat(attribute(span, "error.type")).isEqualTo("tool_error");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(durationPoint().getAttributes().get(AttributeKey.stringKey("error.type")))
                .isEqualTo("tool_error");
    }

    @Test
    void theDurationMetricHasTheConventionsBucketsAndOnlyLowCardinalityAttributes() {
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            McpClients.call(client, "echo", Map.of());
        }

        MetricData metric = durationMetric();
        assertThat(metric.getUnit()).isEqualTo("s");
        HistogramPointData point = durationPoint();
        assertThat(point.getCount()).isEqualTo(1);
        assertThat(point.getBoundaries()).isEqualTo(McpTelemetry.DURATION_BUCKETS);
        assertThat(point.getAttributes())
                .isEqualTo(Attributes.builder()
                        .put("mcp.method.name", "tools/call")
                        .put("gen_ai.tool.name", "echo")
                        .put("gen_ai.operation.name", "execute_tool")
                        .put("mcp.protocol.version", "2025-11-25")
                        .put("network.transport", "tcp")
                        .build());
    }

    @Test
    void a2026ToolCallIsAServerSpanWithItsRequestIdInTheClientsTrace() {
        io.modelcontextprotocol.modern.McpSchema.CallToolResult result = modernClient()
                .tool("refuse")
                .arguments(Map.of())
                .meta(Map.of("traceparent", TRACEPARENT))
                .call();
        assertThat(result.isError()).isTrue();

        SpanData span = onlySpan();
        assertThat(span.getName()).isEqualTo("tools/call refuse");
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(CLIENT_SPAN_ID);
        assertThat(attribute(span, "mcp.protocol.version")).isEqualTo(StatelessMcp.REVISION);
        assertThat(attribute(span, "jsonrpc.request.id")).isNotBlank();
        assertThat(attribute(span, "mcp.session.id")).isNull();
        assertThat(attribute(span, "error.type")).isEqualTo("tool_error");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(durationPoint().getAttributes().get(AttributeKey.stringKey("mcp.protocol.version")))
                .isEqualTo(StatelessMcp.REVISION);
    }

    @Test
    void aCallAnsweredWithATaskIsASpanOfTheTasksCreation() {
        TasksWire declaring = new TasksWire(server.endpoint(), true);
        ObjectNode request = declaring.toolCall("echo", Map.of());
        ((ObjectNode) request.path("params").path("_meta")).put("traceparent", TRACEPARENT);

        JsonNode created = TasksWire.response(declaring.send(request, "echo"));

        String taskId = created.path("result").path("taskId").asText();
        assertThat(taskId).as(created.toString()).isNotBlank();
        SpanData span = spans.getFinishedSpanItems().stream()
                .filter(finished -> finished.getName().equals("tools/call echo"))
                .findFirst()
                .orElseThrow();
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(attribute(span, "taskagent.mcp.task.id")).isEqualTo(taskId);
        assertThat(span.getEvents()).extracting(event -> event.getName()).containsExactly("mcp.task.created");
        assertThat(attribute(span, "error.type")).isNull();
    }

    @Test
    void resourceReadsAreServerSpansWithTheUriOnTheSpanOnly() {
        String uri = TaskResources.sessionUri(queue.sessionId(), false);
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            client.readResource(McpSchema.ReadResourceRequest.builder(uri)
                    .meta(Map.of("traceparent", TRACEPARENT))
                    .build());
        }
        modernClient().resource(uri).read();

        List<SpanData> finished = spans.getFinishedSpanItems();
        assertThat(finished).extracting(SpanData::getName).containsExactly("resources/read", "resources/read");
        assertThat(finished).allSatisfy(span -> {
            assertThat(attribute(span, "mcp.method.name")).isEqualTo("resources/read");
            assertThat(attribute(span, "mcp.resource.uri")).isEqualTo(uri);
            assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        });
        assertThat(finished.get(0).getTraceId()).isEqualTo(TRACE_ID);
        assertThat(durationMetric().getHistogramData().getPoints())
                .allSatisfy(point -> assertThat(point.getAttributes().get(AttributeKey.stringKey("mcp.resource.uri")))
                        .isNull());
    }

    @Test
    void aFailedReadRecordsTheJsonRpcErrorCodeAsErrorType() {
        try (McpSyncClient client = McpClients.http(server.endpoint())) {
            assertThatThrownBy(
                            () -> client.readResource(McpSchema.ReadResourceRequest.builder("taskagent://tasks/999999")
                                    .build()))
                    .isInstanceOf(RuntimeException.class);
        }

        SpanData span = onlySpan();
        String code = String.valueOf(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND);
        assertThat(attribute(span, "error.type")).isEqualTo(code);
        assertThat(attribute(span, "rpc.response.status_code")).isEqualTo(code);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getEvents()).extracting(event -> event.getName()).containsExactly("exception");
        assertThat(durationPoint().getAttributes().get(AttributeKey.stringKey("error.type")))
                .isEqualTo(code);
    }

    private io.modelcontextprotocol.modern.client.McpSyncClient modernClient() {
        return McpClient.sync(HttpClientMcpTransport.builder(server.endpoint())
                        .jsonMapper(JSON)
                        .build())
                .jsonMapper(JSON)
                .callTimeout(McpClients.TIMEOUT)
                .build();
    }

    private MetricData durationMetric() {
        return metrics.collectAllMetrics().stream()
                .filter(metric -> metric.getName().equals(McpTelemetry.OPERATION_DURATION))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No " + McpTelemetry.OPERATION_DURATION + " recorded"));
    }

    private HistogramPointData durationPoint() {
        List<HistogramPointData> points =
                List.copyOf(durationMetric().getHistogramData().getPoints());
        assertThat(points).hasSize(1);
        return points.get(0);
    }
}
