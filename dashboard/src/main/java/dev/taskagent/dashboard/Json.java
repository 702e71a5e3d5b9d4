package dev.taskagent.dashboard;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes the API's JSON with Jackson's streaming generator, and reads request bodies.
 *
 * <p>Thread-safe.
 */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private Json() {}

    /** Writes one JSON document. */
    @FunctionalInterface
    interface Writer {
        void write(JsonGenerator json) throws IOException;
    }

    static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
            writer.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Writing JSON to memory failed", e);
        }
        return bytes.toByteArray();
    }

    static byte[] error(int status, String parameter, String message) {
        return write(json -> {
            json.writeStartObject();
            json.writeNumberField("status", status);
            json.writeStringField("error", message);
            if (parameter != null) {
                json.writeStringField("parameter", parameter);
            }
            json.writeEndObject();
        });
    }
}
