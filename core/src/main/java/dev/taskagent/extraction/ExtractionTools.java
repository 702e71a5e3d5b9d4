package dev.taskagent.extraction;

import dev.taskagent.tool.Toolbox;
import java.util.ArrayList;
import java.util.List;

/** The extraction toolset: the one place where the agent's tools are registered, in the order shown. */
final class ExtractionTools {
    private ExtractionTools() {}

    /**
     * Creates the tools of one run, bound to its iterations.
     *
     * @param binding where the tools find the transaction and context of the current iteration
     * @return the toolbox the model is offered
     */
    static Toolbox create(IterationBinding binding) {
        return create(binding, false);
    }

    /**
     * Creates the tools of one run, with or without the optional {@code set_task_steps}.
     *
     * @param binding where the tools find the transaction and context of the current iteration
     * @param withStepsTool true to offer {@code set_task_steps} (after {@code set_task_user_preference})
     * @return the toolbox the model is offered
     */
    static Toolbox create(IterationBinding binding, boolean withStepsTool) {
        List<ExtractionTool> tools = new ArrayList<>(List.of(
                new InsertTaskTool(binding),
                new UpdateTaskTool(binding),
                new AppendMessagesToTaskTool(binding),
                new AppendTaskProgressTool(binding),
                new SetTaskUserPreferenceTool(binding)));
        if (withStepsTool) {
            tools.add(new SetTaskStepsTool(binding));
        }
        tools.addAll(List.of(
                new AppendMessagesToPlanningSectionTool(binding),
                new ReportThinkingTool(binding),
                new FinishTool(binding)));
        return Toolbox.of(tools);
    }

    /** Tells whether a call of this tool writes tasks, so that the task list must be read again after it. */
    static boolean changesTasks(Toolbox toolbox, String toolName) {
        return toolbox.tool(toolName)
                .filter(ExtractionTool.class::isInstance)
                .map(tool -> ((ExtractionTool) tool).changesTasks())
                .orElse(false);
    }
}
