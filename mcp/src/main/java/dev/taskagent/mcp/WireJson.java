package dev.taskagent.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.taskagent.internal.Texts;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON mapper of the server's protocol messages, on stdio and HTTP alike.
 *
 * <p>It refuses a message that names a key twice in one object ({@code {"method":"ping","method":
 * "tools/call"}}): parsers disagree on which value wins, so a proxy that checks the first and a server that
 * runs the last would see two different requests. The refusal says which key, for the sender: {@code the
 * JSON names the key 'method' twice in one object; send each key once}. The tools' own argument parser
 * refuses the same.
 *
 * <p>And the SDK's HTTP transport answers a request it refuses (not
 * JSON, no session id, an unknown session) by serialising an {@link McpError}, which is an exception; a
 * plain mapper writes its stack trace to the client. Here it is written as the JSON-RPC error response it
 * stands for, {@code {"jsonrpc":"2.0","id":null,"error":{"code":…,"message":…}}}, and nothing else.
 */
final class WireJson {
    private WireJson() {}

    static McpJsonMapper mapper() {
        SimpleModule errors = new SimpleModule("taskagent-mcp-errors");
        errors.addSerializer(McpError.class, new McpErrorSerializer());
        ObjectMapper mapper =
                new ObjectMapper().registerModule(errors).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return new StrictJsonMapper(new JacksonMcpJsonMapper(mapper));
    }

    /** Gives a duplicate key's refusal a message for the sender, without Jackson's source location. */
    private static final class StrictJsonMapper implements McpJsonMapper {
        private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'", Pattern.DOTALL);

        private final McpJsonMapper mapper;

        StrictJsonMapper(McpJsonMapper mapper) {
            this.mapper = mapper;
        }

        @Override
        public <T> T readValue(String content, Class<T> type) throws IOException {
            return explainingDuplicates(() -> mapper.readValue(content, type));
        }

        @Override
        public <T> T readValue(byte[] content, Class<T> type) throws IOException {
            return explainingDuplicates(() -> mapper.readValue(content, type));
        }

        @Override
        public <T> T readValue(String content, TypeRef<T> type) throws IOException {
            return explainingDuplicates(() -> mapper.readValue(content, type));
        }

        @Override
        public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
            return explainingDuplicates(() -> mapper.readValue(content, type));
        }

        @Override
        public <T> T convertValue(Object value, Class<T> type) {
            return mapper.convertValue(value, type);
        }

        @Override
        public <T> T convertValue(Object value, TypeRef<T> type) {
            return mapper.convertValue(value, type);
        }

        @Override
        public String writeValueAsString(Object value) throws IOException {
            return mapper.writeValueAsString(value);
        }

        @Override
        public byte[] writeValueAsBytes(Object value) throws IOException {
            return mapper.writeValueAsBytes(value);
        }

        private interface Read<T> {
            T read() throws IOException;
        }

        private static <T> T explainingDuplicates(Read<T> read) throws IOException {
            try {
                return read.read();
            } catch (JsonParseException e) {
                throw explained(e);
            }
        }

        private static IOException explained(JsonParseException e) {
            Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            if (!duplicate.matches()) {
                return e;
            }
            return new DuplicateKeyException(
                    "the JSON names the key '" + Texts.forLog(duplicate.group(1))
                            + "' twice in one object; send each key once",
                    e);
        }
    }

    /** A message that names a key twice in one object. */
    static final class DuplicateKeyException extends IOException {
        private static final long serialVersionUID = 1L;

        DuplicateKeyException(String message, Throwable cause) {
            super(message, cause);
        }
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
