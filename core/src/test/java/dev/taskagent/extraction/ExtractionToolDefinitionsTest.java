package dev.taskagent.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.internal.Json;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.tool.ToolHints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The eight tools as the model sees them: names, parameter names, types and which are required. */
class ExtractionToolDefinitionsTest {
    private final Map<String, ToolDefinition> definitions =
            ExtractionTools.definitions(ExtractionTools.withSteps()).stream()
                    .collect(Collectors.toMap(ToolDefinition::name, Function.identity()));

    @Test
    void offersExactlyTheEightToolsInTheSpecOrder() {
        assertThat(ExtractionTools.definitions(ExtractionTools.withoutSteps()).stream()
                        .map(ToolDefinition::name))
                .containsExactly(
                        "insert_task",
                        "update_task",
                        "append_messages_to_task",
                        "append_task_progress",
                        "set_task_user_preference",
                        "append_messages_to_planning_section",
                        "report_thinking",
                        "finish");
    }

    @Test
    void everyToolDeclaresWhatItDoesToTheTasks() {
        Map<String, ToolHints> hints = ExtractionTools.withSteps().stream()
                .collect(Collectors.toMap(
                        ExtractionTool::name, ExtractionTool::hints, (a, b) -> a, java.util.LinkedHashMap::new));

        assertThat(hints)
                .containsExactly(
                        Map.entry("insert_task", ToolHints.writing("Insert a task")),
                        Map.entry(
                                "update_task",
                                ToolHints.writing("Update a task by order")
                                        .destructive()
                                        .idempotent()),
                        Map.entry("append_messages_to_task", ToolHints.writing("Link messages to a task")),
                        Map.entry("append_task_progress", ToolHints.writing("Record a task's progress")),
                        Map.entry(
                                "set_task_user_preference",
                                ToolHints.writing("Set a task's user preference")
                                        .destructive()
                                        .idempotent()),
                        Map.entry(
                                "set_task_steps",
                                ToolHints.writing("Set a task's steps")
                                        .destructive()
                                        .idempotent()),
                        Map.entry(
                                "append_messages_to_planning_section",
                                ToolHints.writing("Link messages to the planning section")),
                        Map.entry("report_thinking", ToolHints.readOnly("Report thinking")),
                        Map.entry("finish", ToolHints.writing("Finish the run").idempotent()));
    }

    @Test
    void insertTaskTakesAfterOrderAndADescriptionInTheUsersWords() {
        JsonNode schema = schema("insert_task");

        assertThat(type(schema, "after_task_order")).isEqualTo("integer");
        assertThat(type(schema, "task_description")).isEqualTo("string");
        assertThat(required(schema)).containsExactly("after_task_order", "task_description");
        assertThat(description(schema, "task_description")).contains("verbatim or closely paraphrased");
    }

    @Test
    void updateTaskRequiresOnlyTheOrderAndOffersTheFourStatuses() {
        JsonNode schema = schema("update_task");

        assertThat(required(schema)).containsExactly("task_order");
        assertThat(schema.at("/properties/task_status/enum").toString())
                .isEqualTo("[\"pending\",\"running\",\"success\",\"failed\"]");
        assertThat(description(schema, "task_description")).contains("user's updated intent in the user's own words");
    }

    @Test
    void messageToolsTakeIntegerArraysOfMessageIds() {
        JsonNode toTask = schema("append_messages_to_task");
        JsonNode toPlanning = schema("append_messages_to_planning_section");

        assertThat(required(toTask)).containsExactly("task_order", "message_ids");
        assertThat(toTask.at("/properties/message_ids/items/type").asText()).isEqualTo("integer");
        assertThat(required(toPlanning)).containsExactly("message_ids");
    }

    @Test
    void progressPreferenceThinkingAndFinishTakeTheirDocumentedParameters() {
        assertThat(required(schema("append_task_progress"))).containsExactly("task_order", "progress");
        assertThat(required(schema("set_task_user_preference"))).containsExactly("task_order", "user_preference");
        assertThat(required(schema("report_thinking"))).containsExactly("thinking");
        assertThat(schema("finish").get("properties").size()).isZero();
    }

    private JsonNode schema(String tool) {
        try {
            return Json.mapper().readTree(definitions.get(tool).parametersSchemaJson());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String type(JsonNode schema, String property) {
        return schema.at("/properties/" + property + "/type").asText();
    }

    private static String description(JsonNode schema, String property) {
        return schema.at("/properties/" + property + "/description").asText();
    }

    private static List<String> required(JsonNode schema) {
        List<String> names = new ArrayList<>();
        schema.get("required").forEach(name -> names.add(name.asText()));
        return names;
    }
}
