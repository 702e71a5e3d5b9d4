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
     * Returns the tools of an agent without {@code set_task_steps}, the default.
     *
     * @return the tools, in the order the model sees them
     */
    static List<ExtractionTool> withoutSteps() {
        return WITHOUT_STEPS;
    }

    /**
     * Returns the tools of an agent built {@link TaskAgent.Builder#withStepsTool()}.
     *
     * @return the tools, {@code set_task_steps} included, in the order the model sees them
     */
    static List<ExtractionTool> withSteps() {
        return WITH_STEPS;
    }

    /**
     * Returns the definitions the model sees.
     *
     * @param tools the toolset
     * @return the definitions, in order
     */
    static List<ToolDefinition> definitions(List<ExtractionTool> tools) {
        return tools.stream().map(ExtractionTool::definition).toList();
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
