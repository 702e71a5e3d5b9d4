package dev.taskagent.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The library's one Jackson mapper. Thread-safe once configured (it is never reconfigured). */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Json() {}

    /** @return the shared mapper; do not reconfigure it */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Writes a value as compact JSON.
     *
     * @param value a Jackson-serialisable value
     * @return the JSON text
     * @throws IllegalStateException if Jackson cannot serialise the value (a bug)
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write " + value.getClass().getName() + " as JSON", e);
        }
    }
}
