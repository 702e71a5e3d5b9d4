package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The spans of a server that speaks stdio in this process: a 2026-07-28 call continues the client's trace,
 * and its transport is a pipe.
 */
class McpTelemetryStdioTest {
    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String CLIENT_SPAN_ID = "b7ad6b7169203331";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private OpenTelemetrySdk openTelemetry;
    private InMemoryTaskStore store;
    private TaskMcpServer server;
    private PipedOutputStream toServer;

    @BeforeEach
    void start() throws IOException {
        openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .build();
        store = new InMemoryTaskStore();
        toServer = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(toServer, 64 * 1024);
        server = TaskMcpServer.builder(TaskQueue.builder(store).build())
                .stdio(input, new LineCollector(lines))
                .openTelemetry(openTelemetry)
                .build()
                .start();
    }

    @AfterEach
    void stop() throws IOException {
        toServer.close();
        server.close();
        store.close();
        openTelemetry.close();
    }

    private void send(JsonNode message) {
        try {
            toServer.write((TasksWire.JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            toServer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode exchange(JsonNode request) {
        send(request);
        try {
            String line = lines.poll(20, TimeUnit.SECONDS);
            assertThat(line).as("a line from the server").isNotNull();
            return TasksWire.JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aStdioCallContinuesTheClientsTraceOverAPipe() {
        TasksWire wire = new TasksWire(false, this::exchange);
        ObjectNode request = wire.toolCall("list_dead_letters", Map.of());
        ((ObjectNode) request.path("params").path("_meta"))
                .put("traceparent", "00-" + TRACE_ID + "-" + CLIENT_SPAN_ID + "-01");

        JsonNode response = exchange(request);

        assertThat(response.path("result").isObject()).as(response.toString()).isTrue();
        List<SpanData> finished = spans.getFinishedSpanItems();
        assertThat(finished).extracting(SpanData::getName).containsExactly("tools/call list_dead_letters");
        SpanData span = finished.get(0);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(CLIENT_SPAN_ID);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("network.transport")))
                .isEqualTo("pipe");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mcp.protocol.version")))
                .isEqualTo(StatelessMcp.REVISION);
    }

    @Test
    void aClassicStdioCallNamesTheRevisionInitializeSettledOn() throws IOException {
        JsonNode initialized = exchange(TasksWire.JSON.readTree("""
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
                 "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
                """));
        assertThat(initialized.path("result").path("protocolVersion").asText()).isEqualTo("2025-11-25");
        send(TasksWire.JSON.readTree("""
                {"jsonrpc": "2.0", "method": "notifications/initialized"}
                """));

        JsonNode response = exchange(TasksWire.JSON.readTree("""
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_dead_letters",
                 "arguments": {}, "_meta": {"traceparent": "00-%s-%s-01"}}}
                """.formatted(TRACE_ID, CLIENT_SPAN_ID)));

        assertThat(response.path("result").isObject()).as(response.toString()).isTrue();
        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(CLIENT_SPAN_ID);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mcp.protocol.version")))
                .isEqualTo("2025-11-25");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("network.transport")))
                .isEqualTo("pipe");
    }

    /** The server's output, a line at a time. */
    private static final class LineCollector extends OutputStream {
        private final BlockingQueue<String> lines;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineCollector(BlockingQueue<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                lines.add(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else {
                line.write(b);
            }
        }
    }
}
