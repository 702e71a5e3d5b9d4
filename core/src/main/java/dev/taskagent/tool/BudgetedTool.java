package dev.taskagent.tool;

import dev.taskagent.internal.Texts;
import dev.taskagent.llm.ToolDefinition;
import java.util.Optional;

/**
 * A tool whose results are cut to a token budget ({@link Tool#withResultBudget(int)}). Immutable; thread-safe
 * when the tool it wraps is.
 */
final class BudgetedTool implements Tool {
    private final Tool tool;
    private final int budget;

    private BudgetedTool(Tool tool, int budget) {
        this.tool = tool;
        this.budget = budget;
    }

    /** The tool with this budget; a budgeted tool gets the new budget in place of its old one. */
    static Tool of(Tool tool, int budget) {
        if (budget < Tool.MIN_RESULT_BUDGET) {
            throw new IllegalArgumentException(
                    "A tool result budget must be at least " + Tool.MIN_RESULT_BUDGET + " tokens, was " + budget);
        }
        Tool inner = tool instanceof BudgetedTool budgeted ? budgeted.tool : tool;
        return new BudgetedTool(inner, budget);
    }

    /**
     * Cuts a result's text to the budget: the longest start of it that fits with the note, at a line's end
     * when one is near, then a note that says how much was left out and how to ask for less. The structured
     * content, for clients that read results as data, is left whole.
     */
    static ToolResult cut(ToolResult result, int budget) {
        String text = result.text();
        int tokens = Texts.estimateTokens(text);
        if (tokens <= budget) {
            return result;
        }
        String note = note(budget, tokens);
        int end = Texts.endWithinTokens(text, budget - Texts.estimateTokens(note) - 1);
        int lineEnd = text.lastIndexOf('\n', end - 1);
        if (lineEnd >= end * 3 / 4) {
            end = lineEnd;
        }
        String kept = text.substring(0, end);
        return new ToolResult(
                kept + "\n" + note(budget, tokens - Texts.estimateTokens(kept)),
                result.isError(),
                result.structuredContent());
    }

    private static String note(int budget, int leftOut) {
        return "[… cut here: this answer is over its budget of " + budget + " tokens, and about " + leftOut
                + " tokens of it were left out. Ask for less: a filter, a smaller limit, or one task by its id.]";
    }

    @Override
    public String name() {
        return tool.name();
    }

    @Override
    public String description() {
        return tool.description();
    }

    @Override
    public String parametersSchema() {
        return tool.parametersSchema();
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        ToolResult result = tool.call(arguments);
        return result == null ? null : cut(result, budget);
    }

    @Override
    public Optional<String> outputSchema() {
        return tool.outputSchema();
    }

    @Override
    public Optional<ToolHints> hints() {
        return tool.hints();
    }

    @Override
    public Tool withHints(ToolHints hints) {
        return new BudgetedTool(tool.withHints(hints), budget);
    }

    @Override
    public Optional<Integer> resultBudget() {
        return Optional.of(budget);
    }

    @Override
    public ToolDefinition definition() {
        return tool.definition();
    }

    @Override
    public String toString() {
        return tool + "[budget " + budget + " tokens]";
    }
}
