package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.store.CommitOutcomeUnknownException;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ToolboxTest {
    private final Tool echo = tool("echo", arguments -> ToolResult.ok("echo: " + arguments.requiredString("text")));
    private final Tool add = tool(
            "add", arguments -> ToolResult.ok(String.valueOf(arguments.requiredInt("a") + arguments.requiredInt("b"))));
    private final Toolbox toolbox = Toolbox.of(echo, add);

    @Test
    void callGoesToTheToolOfThatName() {
        ToolResult result = toolbox.call(call("add", "{\"a\": 2, \"b\": \"3\"}"));

        assertThat(result).isEqualTo(ToolResult.ok("5"));
    }

    @Test
    void unknownToolIsASoftErrorListingTheTools() {
        ToolResult result = toolbox.call(call("delete_everything", "{}"));

        assertThat(result).isEqualTo(ToolResult.error("Unknown tool 'delete_everything'. Available tools: echo, add."));
    }

    @Test
    void malformedArgumentsAreASoftError() {
        ToolResult result = toolbox.call(call("echo", "{\"text\": "));

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).startsWith("The arguments are not valid JSON (");
    }

    @Test
    void missingOrMistypedArgumentIsASoftError() {
        assertThat(toolbox.call(call("add", "{\"a\": 2}")))
                .isEqualTo(ToolResult.error("Missing required argument 'b' (an integer)."));
        assertThat(toolbox.call(call("add", "{\"a\": 2, \"b\": \"two\"}")))
                .isEqualTo(ToolResult.error("Argument 'b' must be an integer, not the string \"two\"."));
    }

    @Test
    void errorResultOfAToolPassesThrough() {
        Toolbox refusing =
                Toolbox.of(tool("refuse", arguments -> ToolResult.error("Task order 7 is out of range (1..3).")));

        assertThat(refusing.call(call("refuse", "{}")))
                .isEqualTo(ToolResult.error("Task order 7 is out of range (1..3)."));
    }

    @Test
    void otherExceptionOfAToolIsAHardError() {
        IllegalStateException failure = new IllegalStateException("disk full");
        Toolbox failing = Toolbox.of(tool("save", arguments -> {
            throw failure;
        }));

        assertThatThrownBy(() -> failing.call(call("save", "{}")))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessage("Tool 'save' failed: java.lang.IllegalStateException: disk full")
                .hasCause(failure)
                .satisfies(thrown ->
                        assertThat(((ToolExecutionException) thrown).toolName()).isEqualTo("save"));
    }

    @Test
    void aChangeWhoseCommitOutcomeIsUnknownIsASoftErrorTellingHowToCheck() {
        Tool complete = tool("complete_task", arguments -> {
            throw new CommitOutcomeUnknownException(
                    "Could not commit the unit of work on db: connection reset", new IllegalStateException());
        });
        String expected = "The call to complete_task reached the task store, but the connection to it was lost"
                + " while the change was being saved, so whether it was saved is unknown. %s before calling"
                + " complete_task again: repeating a change that was saved may be refused or may apply twice.";

        assertThat(Toolbox.of(complete, tool("get_task", arguments -> ToolResult.ok("{}")))
                        .call(call("complete_task", "{}")))
                .isEqualTo(ToolResult.error(expected.formatted("Read the task with get_task")));
        assertThat(Toolbox.of(complete).call(call("complete_task", "{}")))
                .isEqualTo(ToolResult.error(expected.formatted("Check the task")));
    }

    @Test
    void toolReturningNothingIsAHardError() {
        Toolbox broken = Toolbox.of(tool("broken", arguments -> null));

        assertThatThrownBy(() -> broken.call(call("broken", "{}")))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessage("Tool 'broken' failed: java.lang.IllegalStateException: the tool returned null");
    }

    @Test
    void twoToolsWithOneNameAreRefused() {
        Tool otherEcho = new NamedTool("echo", arguments -> ToolResult.ok(""));

        assertThatThrownBy(() -> Toolbox.of(echo, otherEcho))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Two tools are named 'echo': " + echo.getClass().getName() + " and "
                        + NamedTool.class.getName());
        assertThatThrownBy(() -> toolbox.with(List.of(otherEcho)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Two tools are named 'echo'");
    }

    @Test
    void toolboxesCombineInOrder() {
        Toolbox combined = Toolbox.of(echo).with(Toolbox.of(add));

        assertThat(combined.names()).containsExactly("echo", "add");
        assertThat(combined.tool("add")).contains(add);
        assertThat(combined.tool("nope")).isEmpty();
        assertThat(combined.definitions()).extracting(ToolDefinition::name).containsExactly("echo", "add");
        assertThat(Toolbox.empty().isEmpty()).isTrue();
        assertThat(Toolbox.of(List.of())).isSameAs(Toolbox.empty());
    }

    @Test
    void definitionCarriesNameDescriptionAndSchema() {
        ToolDefinition definition = echo.definition();

        assertThat(definition)
                .isEqualTo(new ToolDefinition(
                        "echo", "The echo tool.", JsonSchema.object().toJson()));
        assertThatThrownBy(() -> tool("has spaces", arguments -> null).definition())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Tool name 'has spaces' is not accepted by model APIs; use 1-64 letters, digits, '_' or '-'");
    }

    @Test
    void aToolNameThatModelApisRefuseIsRefusedWhenTheToolboxIsBuilt() {
        Tool spaced = tool("send whatsapp", arguments -> ToolResult.ok("sent"));

        assertThatThrownBy(() -> Toolbox.of(spaced))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Tool name 'send whatsapp' is not accepted by model APIs; use 1-64 letters, digits, '_' or '-'");
    }

    private static ToolCall call(String name, String argumentsJson) {
        return new ToolCall("call-1", name, argumentsJson);
    }

    private static Tool tool(String name, Function<ToolArguments, ToolResult> handler) {
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return "The " + name + " tool.";
            }

            @Override
            public String parametersSchema() {
                return JsonSchema.object().toJson();
            }

            @Override
            public ToolResult call(ToolArguments arguments) {
                return handler.apply(arguments);
            }
        };
    }

    private record NamedTool(String name, Function<ToolArguments, ToolResult> handler) implements Tool {
        @Override
        public String description() {
            return name;
        }

        @Override
        public String parametersSchema() {
            return "{}";
        }

        @Override
        public ToolResult call(ToolArguments arguments) {
            return handler.apply(arguments);
        }
    }
}
