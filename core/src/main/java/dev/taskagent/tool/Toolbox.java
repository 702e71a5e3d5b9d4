package dev.taskagent.tool;

import dev.taskagent.internal.Texts;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.store.CommitOutcomeUnknownException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A set of tools by name: renders their definitions for a model and dispatches the model's calls.
 *
 * <p>Dispatch turns every problem the model can fix into a soft error ({@link ToolResult#error(String)}):
 * an unknown tool name, arguments that are not a JSON object, a missing or mistyped argument. So is a
 * {@link CommitOutcomeUnknownException}: the model is told that its change may or may not have been saved
 * and to read the task before calling again. Anything else a tool throws is a hard error, rethrown as
 * {@link ToolExecutionException}.
 *
 * <p>Immutable; thread-safe when its tools are.
 */
public final class Toolbox {
    private static final Logger LOG = LoggerFactory.getLogger(Toolbox.class);
    private static final Toolbox EMPTY = new Toolbox(Map.of());

    /**
     * The budget, in tokens, of every result of this library's toolsets (the queue's, the worker's, the work
     * graph's, the dialects' and the MCP server's task tools): what a model reads of one call stays small
     * whatever the store holds.
     */
    public static final int DEFAULT_RESULT_BUDGET = 2_000;

    private final Map<String, Tool> tools;

    private Toolbox(Map<String, Tool> tools) {
        this.tools = tools;
    }

    /**
     * A toolbox of these tools, in this order.
     *
     * @param tools the tools; names must be unique
     * @return the toolbox
     * @throws IllegalArgumentException if two tools have the same name
     */
    public static Toolbox of(Tool... tools) {
        return of(List.of(tools));
    }

    /**
     * A toolbox of these tools, in this order.
     *
     * @param tools the tools; names must be unique
     * @return the toolbox
     * @throws IllegalArgumentException if two tools have the same name, or a name is not accepted by model
     *     APIs (1-64 letters, digits, {@code _} or {@code -})
     */
    public static Toolbox of(Collection<? extends Tool> tools) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : tools) {
            Objects.requireNonNull(tool, "tool");
            tool.definition(); // checks the name and schema now, not at the first model call
            Tool previous = byName.putIfAbsent(tool.name(), tool);
            if (previous != null) {
                throw new IllegalArgumentException("Two tools are named '" + tool.name() + "': "
                        + previous.getClass().getName() + " and "
                        + tool.getClass().getName());
            }
        }
        return byName.isEmpty() ? EMPTY : new Toolbox(Collections.unmodifiableMap(byName));
    }

    /**
     * A toolbox without tools.
     *
     * @return the empty toolbox
     */
    public static Toolbox empty() {
        return EMPTY;
    }

    /**
     * Returns a toolbox with this toolbox's tools followed by others.
     *
     * @param others more tools
     * @return the combined toolbox
     * @throws IllegalArgumentException if a name occurs twice
     */
    public Toolbox with(Collection<? extends Tool> others) {
        List<Tool> all = new ArrayList<>(tools.values());
        all.addAll(others);
        return of(all);
    }

    /**
     * Returns a toolbox with the tools of both toolboxes.
     *
     * @param other another toolbox
     * @return the combined toolbox
     * @throws IllegalArgumentException if a name occurs in both
     */
    public Toolbox with(Toolbox other) {
        return with(other.tools.values());
    }

    /**
     * Returns a toolbox of the same tools, each with a budget for its results (see {@link
     * Tool#withResultBudget(int)}), replacing any budget they had. The toolsets of this library have {@link
     * #DEFAULT_RESULT_BUDGET} already; give another with this method, e.g. {@code
     * queue.tools().withResultBudget(4_000)}.
     *
     * @param tokens the most tokens a result's text may take; at least {@value Tool#MIN_RESULT_BUDGET}
     * @return the toolbox
     * @throws IllegalArgumentException if {@code tokens} is below {@value Tool#MIN_RESULT_BUDGET}
     */
    public Toolbox withResultBudget(int tokens) {
        return of(tools.values().stream()
                .map(tool -> tool.withResultBudget(tokens))
                .toList());
    }

    /** @return the tool names, in order */
    public Set<String> names() {
        return tools.keySet();
    }

    /** @return the tools, in order */
    public Collection<Tool> tools() {
        return tools.values();
    }

    /** @return true when there is no tool */
    public boolean isEmpty() {
        return tools.isEmpty();
    }

    /**
     * Looks a tool up.
     *
     * @param name the tool's name
     * @return the tool, or empty
     */
    public Optional<Tool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** @return the definitions the model sees, in order */
    public List<ToolDefinition> definitions() {
        return tools.values().stream().map(Tool::definition).toList();
    }

    /**
     * Runs one tool call.
     *
     * @param call the model's call
     * @return the tool's result, or a soft error for an unknown tool, bad arguments or a change whose commit
     *     outcome is unknown
     * @throws ToolExecutionException if the tool failed unexpectedly (a hard error)
     */
    public ToolResult call(ToolCall call) {
        Objects.requireNonNull(call, "call");
        Tool tool = tools.get(call.name());
        if (tool == null) {
            return ToolResult.error(
                    "Unknown tool '" + call.name() + "'. Available tools: " + String.join(", ", tools.keySet()) + ".");
        }
        try {
            ToolResult result = tool.call(ToolArguments.parse(call.argumentsJson()));
            if (result == null) {
                throw new IllegalStateException("the tool returned null");
            }
            return result;
        } catch (ToolArgumentException e) {
            return ToolResult.error(e.getMessage());
        } catch (CommitOutcomeUnknownException e) {
            LOG.warn("Tool {}: {}", call.name(), Texts.forLog(e.getMessage()));
            return ToolResult.error(outcomeUnknown(call.name()));
        } catch (RuntimeException e) {
            throw new ToolExecutionException(call.name(), e);
        }
    }

    /** What the model is told when the connection was lost while its change was being committed. */
    private String outcomeUnknown(String toolName) {
        String check = tools.containsKey("get_task") ? "Read the task with get_task" : "Check the task";
        return "The call to " + toolName + " reached the task store, but the connection to it was lost while"
                + " the change was being saved, so whether it was saved is unknown. " + check + " before calling "
                + toolName + " again: repeating a change that was saved may be refused or may apply twice.";
    }
}
