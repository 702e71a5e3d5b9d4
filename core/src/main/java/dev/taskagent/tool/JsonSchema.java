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
 * <p>The schema forbids properties it does not declare ({@code additionalProperties: false}). Not
 * thread-safe while building; the JSON text it produces is a plain string.
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
        add(name, description, true).put("type", "integer");
        return this;
    }

    /**
     * Adds an optional integer property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalInteger(String name, String description) {
        add(name, description, false).put("type", "integer");
        return this;
    }

    /**
     * Adds a required string property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredString(String name, String description) {
        add(name, description, true).put("type", "string");
        return this;
    }

    /**
     * Adds an optional string property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema optionalString(String name, String description) {
        add(name, description, false).put("type", "string");
        return this;
    }

    /**
     * Adds a string property restricted to some values.
     *
     * @param name the property
     * @param description for the model
     * @param values the allowed values
     * @param isRequired whether the property is required
     * @return this builder
     */
    public JsonSchema stringEnum(String name, String description, List<String> values, boolean isRequired) {
        ObjectNode property = add(name, description, isRequired);
        property.put("type", "string");
        ArrayNode allowed = property.putArray("enum");
        values.forEach(allowed::add);
        return this;
    }

    /**
     * Adds a required array-of-integers property.
     *
     * @param name the property
     * @param description for the model
     * @return this builder
     */
    public JsonSchema requiredIntegerArray(String name, String description) {
        ObjectNode property = add(name, description, true);
        property.put("type", "array");
        property.putObject("items").put("type", "integer");
        return this;
    }

    /**
     * Adds an array-of-strings property.
     *
     * @param name the property
     * @param description for the model
     * @param isRequired whether the property is required
     * @return this builder
     */
    public JsonSchema stringArray(String name, String description, boolean isRequired) {
        ObjectNode property = add(name, description, isRequired);
        property.put("type", "array");
        property.putObject("items").put("type", "string");
        return this;
    }

    /** @return the schema as compact JSON */
    public String toJson() {
        return root.toString();
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
