package dev.taskagent.extraction;

import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;

/** {@code report_thinking}: records the model's reasoning in the run's log; changes nothing. */
final class ReportThinkingTool {
    static final String NAME = "report_thinking";
    static final String THINKING = "thinking";

    static final ExtractionTool TOOL = ExtractionTool.leavingTasksAlone(
            NAME,
            ToolHints.readOnly("Report thinking"),
            "Write down your analysis before acting: answer the checklist of the instructions. Changes"
                    + " nothing; call it first.",
            JsonSchema.object().requiredString(THINKING, "Your answers to the checklist."),
            ReportThinkingTool::execute);

    private ReportThinkingTool() {}

    private static ToolResult execute(ToolArguments arguments, IterationScope scope) {
        scope.recordThinking(arguments.requiredString(THINKING));
        return ToolResult.ok("Noted. Now make the calls of your checklist, then call finish.");
    }
}
