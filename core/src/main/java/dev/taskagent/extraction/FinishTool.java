package dev.taskagent.extraction;

import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;

/** {@code finish}: ends the run after the current batch of calls. */
final class FinishTool extends ExtractionTool {
    static final String NAME = "finish";

    FinishTool(IterationBinding binding) {
        super(
                binding,
                NAME,
                "End the run once every action of your checklist is done. The other calls of the same response"
                        + " still run.",
                JsonSchema.object());
    }

    @Override
    boolean changesTasks() {
        return false;
    }

    @Override
    ToolResult execute(ToolArguments arguments, IterationScope scope) {
        scope.requestFinish();
        return ToolResult.ok("Finished: the run ends after this batch of calls.");
    }
}
