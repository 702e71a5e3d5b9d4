package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ToolCall;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolHintsTest {

    @Test
    void aReadOnlyToolIsIdempotentAndStaysInTheStore() {
        assertThat(ToolHints.readOnly("Get a task")).isEqualTo(new ToolHints("Get a task", true, false, true, false));
    }

    @Test
    void aWritingToolSaysWhatElseIsTrueOfIt() {
        assertThat(ToolHints.writing("Run a command").destructive().openWorld())
                .isEqualTo(new ToolHints("Run a command", false, true, false, true));
        assertThat(ToolHints.writing("Archive a task").destructive().idempotent())
                .isEqualTo(new ToolHints("Archive a task", false, true, true, false));
    }

    @Test
    void aReadOnlyToolCannotBeDestructive() {
        assertThatThrownBy(() -> ToolHints.readOnly("Get a task").destructive())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Tool 'Get a task' cannot be both read-only and destructive; a read-only tool changes"
                        + " nothing");
    }

    @Test
    void aTitleIsRequired() {
        assertThatThrownBy(() -> ToolHints.writing(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A tool's title must not be blank");
    }

    @Test
    void aToolDeclaresNoHintsUntilGivenSome() {
        Tool tool = Tool.of("echo", "Echo.", JsonSchema.object(), arguments -> ToolResult.ok("ok"));

        assertThat(tool.hints()).isEmpty();
        assertThat(tool.withHints(ToolHints.readOnly("Echo")).hints()).contains(ToolHints.readOnly("Echo"));
    }

    @Test
    void aToolWithHintsKeepsItsDefinitionOutputSchemaAndBehaviour() {
        String schema = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}";
        Tool tool = Tool.of(
                        "count", "Count.", JsonSchema.object(), schema, arguments -> ToolResult.ok("1", "{\"n\":1}"))
                .withHints(ToolHints.readOnly("Count"));

        assertThat(tool.definition().name()).isEqualTo("count");
        assertThat(tool.outputSchema()).contains(schema);
        assertThat(Toolbox.of(tool).call(new ToolCall("c1", "count", "{}"))).isEqualTo(ToolResult.ok("1", "{\"n\":1}"));
        assertThat(Toolbox.of(tool)
                        .call(new ToolCall("c2", "count", "{\"x\":1}"))
                        .text())
                .isEqualTo("Unknown argument 'x' for count, which takes no arguments; send {}.");
    }

    @Test
    void aToolOfAnotherImplementationCanBeGivenHintsToo() {
        Tool plain = new Tool() {
            @Override
            public String name() {
                return "ping";
            }

            @Override
            public String description() {
                return "Ping.";
            }

            @Override
            public String parametersSchema() {
                return "{\"type\":\"object\",\"properties\":{}}";
            }

            @Override
            public ToolResult call(ToolArguments arguments) {
                return ToolResult.ok("pong");
            }

            @Override
            public Optional<String> outputSchema() {
                return Optional.empty();
            }
        };

        Tool hinted = plain.withHints(ToolHints.readOnly("Ping"));

        assertThat(hinted.hints()).contains(ToolHints.readOnly("Ping"));
        assertThat(Toolbox.of(hinted).call(new ToolCall("c1", "ping", "{}")).text())
                .isEqualTo("pong");
    }
}
