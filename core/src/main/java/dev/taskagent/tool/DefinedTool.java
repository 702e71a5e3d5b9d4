package dev.taskagent.tool;

import dev.taskagent.llm.ToolDefinition;
import java.util.Objects;

/** The tool {@link Tool#of(ToolDefinition, ToolHandler)} builds. Immutable. */
final class DefinedTool implements Tool {
    private final ToolDefinition definition;
    private final ToolHandler handler;

    DefinedTool(ToolDefinition definition, ToolHandler handler) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public String name() {
        return definition.name();
    }

    @Override
    public String description() {
        return definition.description();
    }

    @Override
    public String parametersSchema() {
        return definition.parametersSchemaJson();
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        return handler.call(arguments);
    }

    @Override
    public String toString() {
        return "Tool[" + definition.name() + "]";
    }
}
