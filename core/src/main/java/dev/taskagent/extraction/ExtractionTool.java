package dev.taskagent.extraction;

import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import java.util.Objects;

/**
 * Base of the extraction tools: binds a tool to the iteration it runs in and holds the checks the tools
 * share. Every guard runs before the first write, so a soft error never leaves half a change behind.
 */
abstract class ExtractionTool implements Tool {
    static final String TASK_ORDER = "task_order";
    static final String MESSAGE_IDS = "message_ids";

    private static final int LABEL_LENGTH = 60;

    private final IterationBinding binding;
    private final String name;
    private final String description;
    private final String parametersSchema;

    ExtractionTool(IterationBinding binding, String name, String description, JsonSchema parameters) {
        this.binding = Objects.requireNonNull(binding, "binding");
        this.name = name;
        this.description = description;
        this.parametersSchema = parameters.toJson();
    }

    /**
     * Tells whether the tool writes tasks; the loop then reads the task list again inside the transaction
     * after each of its calls, so the next call sees the new orders and statuses.
     */
    abstract boolean changesTasks();

    /** Runs the tool in the given iteration. */
    abstract ToolResult execute(ToolArguments arguments, IterationScope scope);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final String parametersSchema() {
        return parametersSchema;
    }

    @Override
    public final ToolResult call(ToolArguments arguments) {
        return execute(arguments, binding.current());
    }

    /** Finds the task at a 1-based order of the current list, or explains to the model why there is none. */
    static Task taskAt(IterationScope scope, int order) {
        int size = scope.tasks().size();
        if (size == 0) {
            throw new ToolArgumentException("Task order " + order
                    + " does not exist: the task list is empty. Create the task with insert_task first.");
        }
        if (order < 1 || order > size) {
            throw new ToolArgumentException(
                    "Task order " + order + " is out of range (1.." + size + "); use an order from the task list.");
        }
        return scope.tasks().get(order - 1);
    }

    /** Reads a required text that must not be blank nor longer than the store accepts. */
    static String requiredText(ToolArguments arguments, String name, String whatToWrite) {
        String text = arguments.requiredString(name);
        if (text.isBlank()) {
            throw new ToolArgumentException("Argument '" + name + "' is blank; " + whatToWrite + ".");
        }
        return checkLength(text, name);
    }

    static String checkLength(String text, String name) {
        if (text.length() > Task.MAX_TEXT_LENGTH) {
            throw new ToolArgumentException("Argument '" + name + "' is " + text.length()
                    + " characters long; the limit is " + Task.MAX_TEXT_LENGTH + ". Shorten it.");
        }
        return text;
    }

    /** Names a task for a tool result: its order and the start of its description. */
    static String label(Task task) {
        String description = task.description().strip().replaceAll("\\s+", " ");
        if (description.length() > LABEL_LENGTH) {
            int end = LABEL_LENGTH;
            if (Character.isHighSurrogate(description.charAt(end - 1))) {
                end--;
            }
            description = description.substring(0, end) + "…";
        }
        return "task " + task.order() + " \"" + description + "\"";
    }
}
