package dev.taskagent.extraction;

import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.tool.Toolbox;
import java.util.List;

/** The extraction toolset: the one place where the agent's tools are registered, in the order shown. */
final class ExtractionTools {
    private static final List<ExtractionTool> WITHOUT_STEPS = List.of(
            InsertTaskTool.TOOL,
            UpdateTaskByOrderTool.TOOL,
            AppendMessagesToTaskTool.TOOL,
            AppendTaskProgressTool.TOOL,
            SetTaskUserPreferenceTool.TOOL,
            AppendMessagesToPlanningSectionTool.TOOL,
            ReportThinkingTool.TOOL,
            FinishTool.TOOL);

    /** {@code set_task_steps} goes after {@code set_task_user_preference}. */
    private static final List<ExtractionTool> WITH_STEPS = List.of(
            InsertTaskTool.TOOL,
            UpdateTaskByOrderTool.TOOL,
            AppendMessagesToTaskTool.TOOL,
            AppendTaskProgressTool.TOOL,
            SetTaskUserPreferenceTool.TOOL,
            SetTaskStepsTool.TOOL,
            AppendMessagesToPlanningSectionTool.TOOL,
            ReportThinkingTool.TOOL,
            FinishTool.TOOL);

    private ExtractionTools() {}

    /**
     * Returns the tools a run offers.
     *
     * @param withStepsTool true to offer {@code set_task_steps}
     * @return the tools, in the order the model sees them
     */
    static List<ExtractionTool> toolset(boolean withStepsTool) {
        return withStepsTool ? WITH_STEPS : WITHOUT_STEPS;
    }

    /**
     * Returns the definitions the model sees.
     *
     * @param withStepsTool true to offer {@code set_task_steps}
     * @return the definitions, in order
     */
    static List<ToolDefinition> definitions(boolean withStepsTool) {
        return toolset(withStepsTool).stream().map(ExtractionTool::definition).toList();
    }

    /**
     * Binds a toolset to one iteration attempt.
     *
     * @param tools the run's tools
     * @param scope the attempt's transaction, task list and batch
     * @return the toolbox that dispatches the attempt's calls
     */
    static Toolbox bind(List<ExtractionTool> tools, IterationScope scope) {
        return Toolbox.of(tools.stream().map(tool -> tool.boundTo(scope)).toList());
    }
}
