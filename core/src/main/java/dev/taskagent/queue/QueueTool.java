package dev.taskagent.queue;

import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import java.util.Objects;
import java.util.function.Function;

/** One tool of the queue toolset: a name, a description, a schema and a handler over a {@link TaskQueue}. */
final class QueueTool implements Tool {
    private final String name;
    private final String description;
    private final String parametersSchema;
    private final Function<ToolArguments, ToolResult> handler;

    QueueTool(String name, String description, String parametersSchema, Function<ToolArguments, ToolResult> handler) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.parametersSchema = Objects.requireNonNull(parametersSchema, "parametersSchema");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String parametersSchema() {
        return parametersSchema;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        return handler.apply(arguments);
    }

    @Override
    public String toString() {
        return "QueueTool[" + name + "]";
    }
}
