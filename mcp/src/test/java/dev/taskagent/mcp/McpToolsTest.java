package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

/** The MCP annotations of a tool are read from the tool's own hints. */
class McpToolsTest {
    private static final McpTelemetry NOOP_TELEMETRY =
            new McpTelemetry(io.opentelemetry.api.OpenTelemetry.noop(), "test", McpTelemetry.TCP);
    private static final Tool ECHO = Tool.of("echo", "Echo.", JsonSchema.object(), arguments -> ToolResult.ok("ok"));

    @Test
    void aToolIsServedWithTheAnnotationsOfItsHints() {
        Tool tool = ECHO.withHints(ToolHints.writing("Echo").destructive().openWorld());

        McpSchema.Tool served = new McpTools(Toolbox.of(tool), WireJson.mapper(), NOOP_TELEMETRY)
                .specifications()
                .get(0)
                .tool();

        assertThat(served.title()).isEqualTo("Echo");
        assertThat(served.annotations())
                .isEqualTo(McpSchema.ToolAnnotations.builder()
                        .title("Echo")
                        .readOnlyHint(false)
                        .destructiveHint(true)
                        .idempotentHint(false)
                        .openWorldHint(true)
                        .build());
    }

    @Test
    void aReadOnlyToolIsServedWithoutADestructiveHint() {
        McpSchema.Tool served = new McpTools(
                        Toolbox.of(ECHO.withHints(ToolHints.readOnly("Echo"))), WireJson.mapper(), NOOP_TELEMETRY)
                .specifications()
                .get(0)
                .tool();

        assertThat(served.annotations().readOnlyHint()).isTrue();
        assertThat(served.annotations().destructiveHint()).isNull();
        assertThat(served.annotations().idempotentHint()).isTrue();
    }

    @Test
    void aToolWithoutHintsIsRefusedRatherThanServedWithGuessedAnnotations() {
        assertThatThrownBy(() -> new McpTools(Toolbox.of(ECHO), WireJson.mapper(), NOOP_TELEMETRY).specifications())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Tool 'echo' declares no hints, so it has no MCP annotations; give it some with"
                        + " Tool.withHints(ToolHints) before serving it");
    }
}
