package dev.taskagent.mcp;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server's spans and its {@code mcp.server.operation.duration} histogram, in the OpenTelemetry semantic
 * conventions for MCP: a SERVER span per {@code tools/call} and {@code resources/read} of either revision,
 * named {@code tools/call {tool}} and {@code resources/read}, a child of the client's span when the request's
 * {@code _meta} carries a W3C {@code traceparent}, else the root of a new trace linked to the span current on
 * the handling thread (an HTTP server span of the Java agent), as the conventions ask: MCP and transport
 * contexts are independent.
 *
 * <p>The metric carries only the low-cardinality attributes (method, tool, protocol version, transport,
 * error type); the span also the session, the request id and the resource URI.
 *
 * <p>With a no-op {@link OpenTelemetry} (the default when neither the application nor the Java agent set
 * one), {@link #toolCall} and {@link #resourceRead} return a shared operation that does nothing, after two
 * {@code isEnabled()} checks: no span, no attributes, no parsing of {@code _meta}.
 *
 * <p>Thread-safe; an {@link Operation} belongs to the thread that handles its request.
 */
final class McpTelemetry {
    /** The instrumentation scope of the spans and the metric. */
    static final String SCOPE = "dev.taskagent.mcp";

    /** The metric's name, as the conventions give it. */
    static final String OPERATION_DURATION = "mcp.server.operation.duration";

    /** The conventions' bucket advice for {@value #OPERATION_DURATION}, in seconds. */
    static final List<Double> DURATION_BUCKETS =
            List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0);

    static final AttributeKey<String> METHOD_NAME = AttributeKey.stringKey("mcp.method.name");
    static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("mcp.protocol.version");
    static final AttributeKey<String> SESSION_ID = AttributeKey.stringKey("mcp.session.id");
    static final AttributeKey<String> RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> RESPONSE_STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");
    static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");

    /**
     * The task a call was answered with (the Tasks extension): taskagent's own attribute, on the span only.
     * The span then covers the task's creation, not its run.
     */
    static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("taskagent.mcp.task.id");

    static final String TOOLS_CALL = "tools/call";
    static final String RESOURCES_READ = "resources/read";
    static final String EXECUTE_TOOL = "execute_tool";

    /** The {@code error.type} of a tool result with {@code isError}, as the conventions name it. */
    static final String TOOL_ERROR = "tool_error";

    /** The {@code network.transport} of HTTP. */
    static final String TCP = "tcp";

    /** The {@code network.transport} of stdio. */
    static final String PIPE = "pipe";

    private static final TextMapGetter<Map<String, Object>> META = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, Object> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, Object> carrier, String key) {
            return carrier != null && carrier.get(key) instanceof String value ? value : null;
        }
    };

    private final Tracer tracer;
    private final DoubleHistogram duration;
    private final String transport;

    /**
     * Creates the instruments.
     *
     * @param openTelemetry where the spans and the metric go
     * @param version the server's version, the instrumentation scope's
     * @param transport {@value #TCP} or {@value #PIPE}
     */
    McpTelemetry(OpenTelemetry openTelemetry, String version, String transport) {
        this.tracer = openTelemetry
                .tracerBuilder(SCOPE)
                .setInstrumentationVersion(version)
                .build();
        this.duration = openTelemetry
                .meterBuilder(SCOPE)
                .setInstrumentationVersion(version)
                .build()
                .histogramBuilder(OPERATION_DURATION)
                .setDescription("MCP request duration as observed on the receiver from the time it was received"
                        + " until the result is sent.")
                .setUnit("s")
                .setExplicitBucketBoundariesAdvice(DURATION_BUCKETS)
                .build();
        this.transport = transport;
    }

    /**
     * Starts the operation of a {@code tools/call}.
     *
     * @param toolName the tool called
     * @param protocolVersion the request's protocol revision, or null if unknown
     * @param requestId the JSON-RPC id, or null if unknown
     * @param sessionId the MCP session, or null for none
     * @param meta the request's {@code _meta}, or null
     * @return the operation; end it once
     */
    Operation toolCall(
            String toolName, String protocolVersion, Object requestId, String sessionId, Map<String, Object> meta) {
        if (!tracer.isEnabled() && !duration.isEnabled()) {
            return Operation.NONE;
        }
        SpanBuilder span = spanBuilder(TOOLS_CALL + " " + toolName, meta)
                .setAttribute(TOOL_NAME, toolName)
                .setAttribute(OPERATION_NAME, EXECUTE_TOOL);
        AttributesBuilder metric = metricAttributes(TOOLS_CALL, protocolVersion)
                .put(TOOL_NAME, toolName)
                .put(OPERATION_NAME, EXECUTE_TOOL);
        return start(span, TOOLS_CALL, protocolVersion, requestId, sessionId, metric);
    }

    /**
     * Starts the operation of a {@code resources/read}; the URI names a task or a session, so it goes on the
     * span only, not in its name nor in the metric.
     *
     * @param uri the resource read
     * @param protocolVersion the request's protocol revision, or null if unknown
     * @param requestId the JSON-RPC id, or null if unknown
     * @param sessionId the MCP session, or null for none
     * @param meta the request's {@code _meta}, or null
     * @return the operation; end it once
     */
    Operation resourceRead(
            String uri, String protocolVersion, Object requestId, String sessionId, Map<String, Object> meta) {
        if (!tracer.isEnabled() && !duration.isEnabled()) {
            return Operation.NONE;
        }
        SpanBuilder span = spanBuilder(RESOURCES_READ, meta);
        if (uri != null) {
            span.setAttribute(RESOURCE_URI, uri);
        }
        return start(
                span,
                RESOURCES_READ,
                protocolVersion,
                requestId,
                sessionId,
                metricAttributes(RESOURCES_READ, protocolVersion));
    }

    private SpanBuilder spanBuilder(String name, Map<String, Object> meta) {
        SpanBuilder span = tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER);
        Span ambient = Span.current();
        Context parent = meta == null || !meta.containsKey("traceparent")
                ? Context.root()
                : W3CTraceContextPropagator.getInstance().extract(Context.root(), meta, META);
        span.setParent(parent);
        if (ambient.getSpanContext().isValid()) {
            span.addLink(ambient.getSpanContext());
        }
        return span;
    }

    private AttributesBuilder metricAttributes(String method, String protocolVersion) {
        AttributesBuilder metric = Attributes.builder().put(METHOD_NAME, method).put(NETWORK_TRANSPORT, transport);
        if (protocolVersion != null) {
            metric.put(PROTOCOL_VERSION, protocolVersion);
        }
        return metric;
    }

    private Operation start(
            SpanBuilder span,
            String method,
            String protocolVersion,
            Object requestId,
            String sessionId,
            AttributesBuilder metric) {
        span.setAttribute(METHOD_NAME, method).setAttribute(NETWORK_TRANSPORT, transport);
        if (protocolVersion != null) {
            span.setAttribute(PROTOCOL_VERSION, protocolVersion);
        }
        if (requestId != null) {
            span.setAttribute(REQUEST_ID, String.valueOf(requestId));
        }
        if (sessionId != null) {
            span.setAttribute(SESSION_ID, sessionId);
        }
        return new Operation(span.startSpan(), duration, metric, System.nanoTime());
    }

    /**
     * One request's span and measurement: made current while the request is handled, then ended once, by
     * {@link #succeeded()}, {@link #toolResult(boolean)} or {@link #failed(Throwable)}.
     */
    static class Operation {
        /** The operation of a no-op {@link OpenTelemetry}: does nothing. */
        static final Operation NONE = new Operation(Span.getInvalid(), null, null, 0);

        private final Span span;
        private final DoubleHistogram duration;
        private final AttributesBuilder metric;
        private final long startNanos;

        private Operation(Span span, DoubleHistogram duration, AttributesBuilder metric, long startNanos) {
            this.span = span;
            this.duration = duration;
            this.metric = metric;
            this.startNanos = startNanos;
        }

        /**
         * Runs the request's handling with the span current on this thread, so that the store's own spans (a
         * JDBC agent's) are its children; ends the operation as {@linkplain #failed(Throwable) failed} if the
         * handling throws. The caller ends it otherwise.
         *
         * @param handling what answers the request
         * @param <T> the answer's type
         * @return the answer
         */
        <T> T within(Supplier<T> handling) {
            if (this == NONE) {
                return handling.get();
            }
            Scope scope = span.makeCurrent();
            try {
                return handling.get();
            } catch (RuntimeException | Error e) {
                failed(e);
                throw e;
            } finally {
                scope.close();
            }
        }

        /**
         * Says that the call was answered with an MCP task (the Tasks extension); the span ends with its
         * creation.
         *
         * @param taskId the task's id
         */
        void taskCreated(String taskId) {
            if (this != NONE) {
                span.setAttribute(TASK_ID, taskId);
                span.addEvent("mcp.task.created");
            }
        }

        /** Ends the operation of a request that succeeded. */
        void succeeded() {
            end(null);
        }

        /**
         * Ends the operation of a tool call that produced a result.
         *
         * @param isError whether the result is an error for the model ({@code isError}): {@code error.type}
         *     is {@value #TOOL_ERROR} then and the span's status ERROR
         */
        void toolResult(boolean isError) {
            if (isError && this != NONE) {
                span.setStatus(StatusCode.ERROR);
                end(TOOL_ERROR);
            } else {
                end(null);
            }
        }

        /**
         * Ends the operation of a request that failed with an exception: a JSON-RPC error's code is its
         * {@code error.type} (and {@code rpc.response.status_code}), any other exception's class name.
         *
         * @param failure what the handler threw
         */
        void failed(Throwable failure) {
            if (this == NONE) {
                return;
            }
            Integer code = jsonRpcCode(failure);
            String errorType = code == null ? failure.getClass().getName() : String.valueOf(code);
            if (code != null) {
                span.setAttribute(RESPONSE_STATUS_CODE, errorType);
                metric.put(RESPONSE_STATUS_CODE, errorType);
            }
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
            end(errorType);
        }

        private static Integer jsonRpcCode(Throwable failure) {
            if (failure instanceof io.modelcontextprotocol.spec.McpError error && error.getJsonRpcError() != null) {
                return error.getJsonRpcError().code();
            }
            if (failure instanceof io.modelcontextprotocol.modern.McpException error && error.error() != null) {
                return error.error().code();
            }
            return null;
        }

        private void end(String errorType) {
            if (this == NONE) {
                return;
            }
            if (errorType != null) {
                span.setAttribute(ERROR_TYPE, errorType);
                metric.put(ERROR_TYPE, errorType);
            }
            span.end();
            duration.record((System.nanoTime() - startNanos) / 1e9, metric.build());
        }
    }
}
