package dev.taskagent.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;

/**
 * The JSON mapper of the server's protocol messages.
 *
 * <p>One addition to a plain Jackson mapper: the SDK's HTTP transport answers a request it refuses (not
 * JSON, no session id, an unknown session) by serialising an {@link McpError}, which is an exception; a
 * plain mapper writes its stack trace to the client. Here it is written as the JSON-RPC error response it
 * stands for, {@code {"jsonrpc":"2.0","id":null,"error":{"code":…,"message":…}}}, and nothing else.
 */
final class WireJson {
    private WireJson() {}

    static McpJsonMapper mapper() {
        SimpleModule errors = new SimpleModule("taskagent-mcp-errors");
        errors.addSerializer(McpError.class, new McpErrorSerializer());
        return new JacksonMcpJsonMapper(new ObjectMapper().registerModule(errors));
    }

    private static final class McpErrorSerializer extends StdSerializer<McpError> {
        private static final long serialVersionUID = 1L;

        McpErrorSerializer() {
            super(McpError.class);
        }

        @Override
        public void serialize(McpError error, JsonGenerator json, SerializerProvider provider) throws IOException {
            McpSchema.JSONRPCResponse.JSONRPCError detail = error.getJsonRpcError();
            json.writeStartObject();
            json.writeStringField("jsonrpc", McpSchema.JSONRPC_VERSION);
            json.writeNullField("id");
            json.writeObjectFieldStart("error");
            json.writeNumberField("code", detail == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : detail.code());
            json.writeStringField("message", detail == null ? String.valueOf(error.getMessage()) : detail.message());
            json.writeEndObject();
            json.writeEndObject();
        }
    }
}
