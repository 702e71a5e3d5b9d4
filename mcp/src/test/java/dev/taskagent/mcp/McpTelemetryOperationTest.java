package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an operation records when the handling fails, with an ambient span, and with a no-op OpenTelemetry. */
class McpTelemetryOperationTest {
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .build();
    private final McpTelemetry telemetry = new McpTelemetry(openTelemetry, "test", McpTelemetry.TCP);

    @AfterEach
    void close() {
        openTelemetry.close();
    }

    @Test
    void aHandlerThatThrowsEndsTheSpanWithTheExceptionsClassAsErrorType() {
        McpTelemetry.Operation operation = telemetry.toolCall("echo", "2025-11-25", 7, "session-1", null);

        assertThatThrownBy(() -> operation.within(() -> {
                    throw new IllegalStateException("the store is down");
                }))
                .hasMessage("the store is down");

        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type")))
                .isEqualTo("java.lang.IllegalStateException");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("jsonrpc.request.id")))
                .isEqualTo("7");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mcp.session.id")))
                .isEqualTo("session-1");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getStatus().getDescription()).isEqualTo("the store is down");
        assertThat(span.getEvents()).extracting(event -> event.getName()).containsExactly("exception");
    }

    @Test
    void theSpanCurrentOnTheHandlingThreadIsLinkedNotItsParent() {
        Span transport =
                openTelemetry.getTracer("test").spanBuilder("POST /mcp").startSpan();
        Scope scope = transport.makeCurrent();
        try {
            telemetry.toolCall("echo", null, null, null, Map.of()).succeeded();
        } finally {
            scope.close();
            transport.end();
        }

        SpanData span = spans.getFinishedSpanItems().stream()
                .filter(finished -> finished.getName().equals("tools/call echo"))
                .findFirst()
                .orElseThrow();
        assertThat(span.getParentSpanContext().isValid()).isFalse();
        assertThat(span.getLinks())
                .extracting(link -> link.getSpanContext())
                .containsExactly(transport.getSpanContext());
    }

    @Test
    void aMalformedTraceparentStartsANewTrace() {
        telemetry
                .toolCall("echo", null, null, null, Map.of("traceparent", "not-a-traceparent"))
                .succeeded();

        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getParentSpanContext().isValid()).isFalse();
        assertThat(span.getSpanContext().isValid()).isTrue();
    }

    @Test
    void aNoopOpenTelemetryGivesTheSharedOperationThatRecordsNothing() {
        McpTelemetry noop = new McpTelemetry(OpenTelemetry.noop(), "test", McpTelemetry.PIPE);

        McpTelemetry.Operation operation = noop.toolCall("echo", null, null, null, Map.of());

        assertThat(operation).isSameAs(McpTelemetry.Operation.NONE);
        assertThat(operation.within(() -> "answered")).isEqualTo("answered");
        operation.toolResult(true);
        assertThat(noop.resourceRead("taskagent://tasks/1", null, null, null, null))
                .isSameAs(McpTelemetry.Operation.NONE);
    }

    @Test
    void withoutOpenTelemetryTheServerTakesTheGlobalOneAndDoesNotRegisterANoop() {
        try (InMemoryTaskStore store = new InMemoryTaskStore()) {
            TaskMcpServer.builder(store).bind("127.0.0.1", 0).build().close();
            assertThat(GlobalOpenTelemetry.isSet())
                    .as("a server registered a global OpenTelemetry")
                    .isFalse();

            GlobalOpenTelemetry.set(openTelemetry);
            try (TaskMcpServer server = TaskMcpServer.builder(store)
                            .bind("127.0.0.1", 0)
                            .build()
                            .start();
                    McpSyncClient client = McpClients.http(server.endpoint())) {
                McpClients.call(client, "list_dead_letters", Map.of());
            } finally {
                GlobalOpenTelemetry.resetForTest();
            }
        }

        assertThat(spans.getFinishedSpanItems())
                .extracting(SpanData::getName)
                .containsExactly("tools/call list_dead_letters");
    }

    @Test
    void theBuilderRefusesANullOpenTelemetry() {
        try (InMemoryTaskStore store = new InMemoryTaskStore()) {
            assertThatThrownBy(() -> TaskMcpServer.builder(store).openTelemetry(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("openTelemetry");
        }
    }
}
