package dev.taskagent.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskagent.internal.Json;
import java.util.List;
import java.util.Objects;

/**
 * Builds the JSON schema of a tool's parameters: an object with typed, described properties.
 *
 * <pre>{@code
 * String schema = JsonSchema.object()
 *         .requiredInteger("task_order", "1-based position in the task list")
 *         .optionalString("task_description", "The user's request in their words")
 *         .toJson();
 * }</pre>
 *
 * <p>The schema forbids properties it does not declare ({@code additionalProperties: false}), at every
 * level. Not thread-safe while building; the JSON text it produces is a plain string.
 */
public final class JsonSchema {
    private final ObjectNode root = Json.mapper().createObjectNode();
    private final ObjectNode properties = Json.mapper().createObjectNode();
    private final ArrayNode required = Json.mapper().createArrayNode();

    private JsonSchema() {
        root.put("type", "object");
        root.set("properties", properties);
        root.set("required", required);
        root.put("additionalProperties", false);
    }

    /**
     * Starts an object schema with no properties.
     *
     * @return a builder
     */
    public static JsonSchema object() {
        return new JsonSchema();
    }

    /**
     * Adds a required integer property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredInteger(String name, String description) {
        return typed(name, description, true, "integer");
    }

    /**
     * Adds an optional integer property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalInteger(String name, String description) {
        return typed(name, description, false, "integer");
    }

    /**
     * Adds a required number property (integer or decimal).
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredNumber(String name, String description) {
        return typed(name, description, true, "number");
    }

    /**
     * Adds an optional number property (integer or decimal).
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalNumber(String name, String description) {
        return typed(name, description, false, "number");
    }

    /**
     * Adds a required boolean property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredBoolean(String name, String description) {
        return typed(name, description, true, "boolean");
    }

    /**
     * Adds an optional boolean property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalBoolean(String name, String description) {
        return typed(name, description, false, "boolean");
    }

    /**
     * Adds a required string property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredString(String name, String description) {
        return typed(name, description, true, "string");
    }

    /**
     * Adds an optional string property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalString(String name, String description) {
        return typed(name, description, false, "string");
    }

    /**
     * Adds a required string property restricted to some values.
     *
     * @param name the property
     * @param description for the model
     * @param values the allowed values; at least one
     * @return this builder
     */
    public JsonSchema requiredStringEnum(String name, String description, List<String> values) {
        return stringEnum(name, description, values, true);
    }

    /**
     * Adds an optional string property restricted to some values.
     *
     * @param name the property
     * @param description for the model
     * @param values the allowed values; at least one
     * @return this builder
     */
    public JsonSchema optionalStringEnum(String name, String description, List<String> values) {
        return stringEnum(name, description, values, false);
    }

    /**
     * Adds a required array-of-integers property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredIntegerArray(String name, String description) {
        return array(name, description, true, "integer");
    }

    /**
     * Adds an optional array-of-integers property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalIntegerArray(String name, String description) {
        return array(name, description, false, "integer");
    }

    /**
     * Adds a required array-of-strings property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredStringArray(String name, String description) {
        return array(name, description, true, "string");
    }

    /**
     * Adds an optional array-of-strings property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalStringArray(String name, String description) {
        return array(name, description, false, "string");
    }

    /**
     * Adds a required array property whose items are objects of one schema.
     *
     * @param name the property
     * @param description for the model
     * @param items the schema of every item, e.g. {@code JsonSchema.object().requiredString("content", "…")}
     * @return this builder
     */
    public JsonSchema requiredObjectArray(String name, String description, JsonSchema items) {
        Objects.requireNonNull(items, "items");
        ObjectNode property = add(name, description, true);
        property.put("type", "array");
        property.putObject("items").setAll(items.root.deepCopy());
        return this;
    }

    /**
     * Adds a required object property with properties of its own.
     *
     * @param name the property
     * @param description for the model
     * @param schema the object's schema, e.g. {@code JsonSchema.object().requiredString("city", "…")}
     * @return this builder
     */
    public JsonSchema requiredObject(String name, String description, JsonSchema schema) {
        return object(name, description, true, schema);
    }

    /**
     * Adds an optional object property with properties of its own.
     *
     * @param name the property
     * @param description for the model
     * @param schema the object's schema
     * @return this builder
     */
    public JsonSchema optionalObject(String name, String description, JsonSchema schema) {
        return object(name, description, false, schema);
    }

    /**
     * Adds an optional object property whose properties the caller chooses (any JSON object), such as a
     * task's metadata.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalFreeObject(String name, String description) {
        return typed(name, description, false, "object");
    }

    /** @return the schema as compact JSON */
    public String toJson() {
        return root.toString();
    }

    private JsonSchema typed(String name, String description, boolean isRequired, String type) {
        add(name, description, isRequired).put("type", type);
        return this;
    }

    private JsonSchema stringEnum(String name, String description, List<String> values, boolean isRequired) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("Property '" + name + "' needs at least one allowed value");
        }
        ObjectNode property = add(name, description, isRequired);
        property.put("type", "string");
        ArrayNode allowed = property.putArray("enum");
        values.forEach(allowed::add);
        return this;
    }

    private JsonSchema array(String name, String description, boolean isRequired, String itemType) {
        ObjectNode property = add(name, description, isRequired);
        property.put("type", "array");
        property.putObject("items").put("type", itemType);
        return this;
    }

    private JsonSchema object(String name, String description, boolean isRequired, JsonSchema schema) {
        Objects.requireNonNull(schema, "schema");
        ObjectNode property = add(name, description, isRequired);
        property.setAll(schema.root.deepCopy());
        return this;
    }

    private ObjectNode add(String name, String description, boolean isRequired) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        if (properties.has(name)) {
            throw new IllegalArgumentException("Property '" + name + "' is declared twice");
        }
        ObjectNode property = properties.putObject(name);
        property.put("description", description);
        if (isRequired) {
            required.add(name);
        }
        return property;
    }
}
