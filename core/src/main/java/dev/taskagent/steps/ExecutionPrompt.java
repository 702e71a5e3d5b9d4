package dev.taskagent.steps;

import dev.taskagent.task.Task;

/** The instructions and the task message of a step execution. Thread-safe (stateless). */
final class ExecutionPrompt {
    private ExecutionPrompt() {}

    static final String SYSTEM_PROMPT = """
            You carry out one task by working through its steps. The user message holds the task and its \
            numbered steps.

            Rules:
            1. Work through the steps in order, one at a time. A step shown as [x] is already done: do not \
            redo it. Start with the first step shown as [ ].
            2. Do each step for real. When a step needs an action (sending a message, booking, saving \
            something), call the tool that does it, and never claim an action you did not take.
            3. As soon as a step is done, write its marker on a line of its own, exactly like this, then go \
            on with the next step:
            \u2713 STEP <number>: <the step's text>
            The number is the step's number in the list. Write each marker once, and only for a step you \
            finished. Write it as plain text, never inside a code block: a marker in a code block does not count.
            4. Never skip a step and never merge two steps into one.
            5. If you are blocked on a step (information is missing, a tool failed), say in a sentence or two \
            why, without writing its marker, before you continue with the steps that do not depend on it.
            6. After the last step, summarise the result for the user in a few sentences: what was done, and \
            what was not and why.
            """;

    /**
     * Renders the task message: description, preference, numbered steps, and where to start.
     *
     * @param task the task
     * @param steps its parsed steps, with at least one unchecked
     * @return the message text
     */
    static String taskMessage(Task task, MarkdownSteps steps) {
        StringBuilder out = new StringBuilder();
        out.append("Task: ").append(task.description().strip()).append('\n');
        if (!task.userPreferences().isEmpty()) {
            out.append("User preference: ").append(task.userPreferenceText()).append('\n');
        }
        out.append('\n').append("Steps:\n").append(steps.renderForPrompt());
        steps.firstUnchecked().ifPresent(step -> out.append('\n')
                .append(steps.done() == 0 ? "Start with step " : "Steps shown as [x] are done. Continue with step ")
                .append(step.number())
                .append(".\n"));
        return out.toString();
    }
}
