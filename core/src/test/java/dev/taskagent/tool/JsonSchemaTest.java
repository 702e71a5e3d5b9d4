package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.internal.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonSchemaTest {

    @Test
    void emptySchemaIsAClosedObject() {
        assertThat(JsonSchema.object().toJson())
                .isEqualTo("{\"type\":\"object\",\"properties\":{},\"required\":[],\"additionalProperties\":false}");
    }

    @Test
    void propertiesCarryTheirTypeAndDescriptionAndRequiredOnesAreListedInOrder() throws Exception {
        String json = JsonSchema.object()
                .requiredInteger("task_order", "1-based position")
                .optionalString("task_description", "The user's words")
                .requiredString("progress", "What was done")
                .optionalInteger("priority", "Higher first")
                .toJson();

        JsonNode schema = Json.mapper().readTree(json);
        assertThat(schema.get("type").asText()).isEqualTo("object");
        assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
        assertThat(schema.at("/properties/task_order/type").asText()).isEqualTo("integer");
        assertThat(schema.at("/properties/task_order/description").asText()).isEqualTo("1-based position");
        assertThat(schema.at("/properties/task_description/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/priority/type").asText()).isEqualTo("integer");
        assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("task_order", "progress");
    }

    @Test
    void enumsAndArraysDescribeTheirValues() throws Exception {
        String json = JsonSchema.object()
                .requiredStringEnum("status", "New status", List.of("pending", "running"))
                .requiredIntegerArray("orders", "Task orders")
                .optionalStringArray("message_ids", "Messages")
                .toJson();

        JsonNode schema = Json.mapper().readTree(json);
        assertThat(schema.at("/properties/status/enum"))
                .extracting(JsonNode::asText)
                .containsExactly("pending", "running");
        assertThat(schema.at("/properties/orders/type").asText()).isEqualTo("array");
        assertThat(schema.at("/properties/orders/items/type").asText()).isEqualTo("integer");
        assertThat(schema.at("/properties/message_ids/items/type").asText()).isEqualTo("string");
        assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("status", "orders");
    }

    @Test
    void propertyDeclaredTwiceIsRefused() {
        JsonSchema schema = JsonSchema.object().requiredInteger("task_order", "position");

        assertThatThrownBy(() -> schema.optionalString("task_order", "again"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Property 'task_order' is declared twice");
        assertThatThrownBy(() -> schema.requiredString(null, "x")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void anArrayOfObjectsCarriesTheItemsSchema() {
        String json = JsonSchema.object()
                .requiredObjectArray("todos", "The list", JsonSchema.object().requiredString("content", "What to do"))
                .toJson();

        assertThat(json)
                .isEqualTo("{\"type\":\"object\",\"properties\":{\"todos\":{\"description\":\"The list\","
                        + "\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"content\":"
                        + "{\"description\":\"What to do\",\"type\":\"string\"}},\"required\":[\"content\"],"
                        + "\"additionalProperties\":false}}},\"required\":[\"todos\"],\"additionalProperties\":false}");
    }
}
