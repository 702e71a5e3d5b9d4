package dev.taskagent.extraction;

import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;

/** {@code finish}: ends the run after the current batch of calls. */
final class FinishTool {
    static final String NAME = "finish";

    static final ExtractionTool TOOL = ExtractionTool.leavingTasksAlone(
            NAME,
            ToolHints.writing("Finish the run").idempotent(),
            "End the run once every action of your checklist is done. The other calls of the same response"
                    + " still run.",
            JsonSchema.object(),
            FinishTool::execute);

    private FinishTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        scope.requestFinish();
        return ToolResult.ok("Finished: the run ends after this batch of calls.");
    }
}
