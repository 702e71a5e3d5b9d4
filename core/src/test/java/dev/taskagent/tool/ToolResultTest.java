package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ToolResultTest {

    @Test
    void aPlainResultCarriesNoStructuredContent() {
        ToolResult result = ToolResult.ok("Task #7 created");

        assertThat(result.hasStructuredContent()).isFalse();
        assertThat(result.structuredContent()).isNull();
        assertThat(result).isEqualTo(new ToolResult("Task #7 created", false));
    }

    @Test
    void aResultCanCarryTheSameAnswerAsStructuredContent() {
        ToolResult result = ToolResult.ok("Task #7 claimed", "{\"task\":{\"id\":7}}");

        assertThat(result.isError()).isFalse();
        assertThat(result.structuredContent()).isEqualTo("{\"task\":{\"id\":7}}");
    }

    @Test
    void structuredContentMustBeAJsonObject() {
        assertThatThrownBy(() -> ToolResult.ok("text", "[1,2]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("structuredContent must be a JSON object, was: [1,2]");
    }

    @Test
    void aToolWithoutOutputSchemaSaysSo() {
        Tool tool = Tool.of("echo", "Echo.", JsonSchema.object(), arguments -> ToolResult.ok("ok"));

        assertThat(tool.outputSchema()).isEmpty();
    }

    @Test
    void aToolCanDeclareTheSchemaOfItsStructuredContent() {
        Tool tool = Tool.of(
                "count",
                "Count.",
                JsonSchema.object(),
                "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}",
                arguments -> ToolResult.ok("1", "{\"n\":1}"));

        assertThat(tool.outputSchema()).contains("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}");
        assertThat(Toolbox.of(tool)
                        .call(new dev.taskagent.llm.ToolCall("c1", "count", "{}"))
                        .structuredContent())
                .isEqualTo("{\"n\":1}");
    }

    @Test
    void anOutputSchemaThatIsNotAnObjectIsRefused() {
        assertThatThrownBy(
                        () -> Tool.of("count", "Count.", JsonSchema.object(), "true", arguments -> ToolResult.ok("1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The output schema of tool 'count' must be a JSON object schema, was: true");
    }
}
