package dev.taskagent.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a tool's JSON schema text (as taskagent's {@code JsonSchema} writes it, or any schema of the same
 * subset) into LangChain4j's schema objects, which its model classes turn back into each provider's wire
 * format. The subset: {@code type} object, string (with {@code enum}), integer, number, boolean, array
 * ({@code items}), null; {@code properties}, {@code required}, {@code additionalProperties}, {@code
 * description}, {@code anyOf}. Anything else is refused with the path where it was found, rather than
 * dropped: a schema that loses a constraint on the way would let a model send what the tool refuses.
 *
 * <p>Thread-safe: conversions are cached by schema text (a toolbox's few schemas are converted once).
 */
final class SchemaMapping {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CACHE_LIMIT = 1_024;

    private final Map<String, JsonObjectSchema> cache = new ConcurrentHashMap<>();

    /** The parameters of a tool, as LangChain4j's object schema. */
    JsonObjectSchema parameters(String toolName, String schemaJson) {
        JsonObjectSchema cached = cache.get(schemaJson);
        if (cached != null) {
            return cached;
        }
        JsonObjectSchema converted = convert(toolName, schemaJson);
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear(); // schemas made anew per request: keep the cache bounded rather than exact
        }
        cache.put(schemaJson, converted);
        return converted;
    }

    private static JsonObjectSchema convert(String toolName, String schemaJson) {
        JsonNode root;
        try {
            root = JSON.readTree(schemaJson);
        } catch (JsonProcessingException e) {
            throw refused(toolName, "$", "is not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null
                || !root.isObject()
                || !"object".equals(root.path("type").asText(null))) {
            throw refused(toolName, "$", "must be an object schema ({\"type\": \"object\", ...})");
        }
        return object(toolName, "$", root);
    }

    private static JsonSchemaElement element(String toolName, String path, JsonNode node) {
        if (!node.isObject()) {
            throw refused(toolName, path, "must be a schema object, was " + node.getNodeType());
        }
        if (node.has("anyOf")) {
            List<JsonSchemaElement> options = new ArrayList<>();
            int index = 0;
            for (JsonNode option : node.get("anyOf")) {
                options.add(element(toolName, path + ".anyOf[" + index++ + "]", option));
            }
            return JsonAnyOfSchema.builder()
                    .description(description(node))
                    .anyOf(options)
                    .build();
        }
        String type = node.path("type").asText("");
        return switch (type) {
            case "object" -> object(toolName, path, node);
            case "string" -> node.has("enum") ? enumeration(toolName, path, node) : string(node);
            case "integer" ->
                JsonIntegerSchema.builder().description(description(node)).build();
            case "number" ->
                JsonNumberSchema.builder().description(description(node)).build();
            case "boolean" ->
                JsonBooleanSchema.builder().description(description(node)).build();
            case "null" -> new JsonNullSchema();
            case "array" -> {
                if (!node.has("items")) {
                    throw refused(toolName, path, "is an array without 'items'");
                }
                yield JsonArraySchema.builder()
                        .description(description(node))
                        .items(element(toolName, path + ".items", node.get("items")))
                        .build();
            }
            default ->
                throw refused(
                        toolName,
                        path,
                        type.isEmpty()
                                ? "has no 'type' (and no 'anyOf')"
                                : "has the type '" + type + "', which is not supported");
        };
    }

    private static JsonObjectSchema object(String toolName, String path, JsonNode node) {
        Map<String, JsonSchemaElement> properties = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
            properties.put(
                    property.getKey(),
                    element(toolName, path + ".properties." + property.getKey(), property.getValue()));
        }
        List<String> required = new ArrayList<>();
        node.path("required").forEach(name -> required.add(name.asText()));
        JsonObjectSchema.Builder builder = JsonObjectSchema.builder()
                .description(description(node))
                .addProperties(properties)
                .required(required);
        if (node.has("additionalProperties")) {
            builder.additionalProperties(node.get("additionalProperties").asBoolean());
        }
        return builder.build();
    }

    private static JsonSchemaElement enumeration(String toolName, String path, JsonNode node) {
        List<String> values = new ArrayList<>();
        for (JsonNode value : node.get("enum")) {
            if (!value.isTextual()) {
                throw refused(toolName, path, "has an enum value that is not a string: " + value);
            }
            values.add(value.asText());
        }
        return JsonEnumSchema.builder()
                .description(description(node))
                .enumValues(values)
                .build();
    }

    private static JsonSchemaElement string(JsonNode node) {
        return JsonStringSchema.builder().description(description(node)).build();
    }

    private static String description(JsonNode node) {
        JsonNode description = node.get("description");
        return description == null || description.isNull() ? null : description.asText();
    }

    private static IllegalArgumentException refused(String toolName, String path, String problem) {
        return new IllegalArgumentException("The parameters schema of tool '" + toolName + "' cannot be given to"
                + " LangChain4j: " + path + " " + problem);
    }
}
