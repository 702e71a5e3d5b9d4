package dev.taskagent.examples;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.steps.MarkdownSteps;
import dev.taskagent.steps.Step;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.util.List;

/**
 * Markdown steps, end to end and offline: a task gets a two-step checklist, a scripted model executes it
 * (streaming {@code ✓ STEP n:} markers and calling a host tool to send a WhatsApp message), and the task
 * card is printed before, live at each ticked step, and after.
 *
 * <pre>
 * Task: Family trip research                   Steps 1/2  █████░░░░░
 *   ☑ Research family-friendly attractions…
 *   ☐ Send the list to Hanan on WhatsApp
 * </pre>
 *
 * <p>Run {@link #main(String[])} from an IDE; {@code StepsExampleTest} runs it in the build. Swap the {@link
 * ScriptedChatModel} for a real model to run it against an LLM.
 */
public final class StepsExample {
    private static final String CHECK = "\u2713";
    private static final int TITLE_WIDTH = 45;
    private static final int STEP_TEXT_WIDTH = 37;
    private static final int BAR_WIDTH = 10;

    private StepsExample() {}

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     * @throws UnsupportedEncodingException never (UTF-8 is always supported)
     */
    public static void main(String[] args) throws UnsupportedEncodingException {
        run(new PrintStream(System.out, true, "UTF-8"));
    }

    /**
     * Runs the example: sets a task's steps, executes them with a scripted model and prints the card
     * before, at each tick and after.
     *
     * @param out where to print
     * @return the outcome of the execution
     */
    public static StepRun run(PrintStream out) {
        TaskStore store = new InMemoryTaskStore();
        Task task = store.inTransaction(
                transaction -> transaction.appendTask(NewTask.of("family-chat", "Family trip research")));
        task = TaskSteps.of(store)
                .setSteps(
                        task.id(),
                        List.of(
                                "Research family-friendly attractions in Bangkok for kids 5 & 3",
                                "Send the list to Hanan on WhatsApp"));
        out.println("Before:");
        out.println(renderCard(task));

        StepExecutor executor = StepExecutor.builder(store, scriptedModel())
                .toolbox(Toolbox.of(sendWhatsApp(out)))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted step) {
                        out.println("Step " + step.stepNumber() + " ticked while the model is still writing:");
                        out.println(renderCard(step.task()));
                    }
                })
                .build();
        StepRun run = executor.execute(task.id());

        out.println("After (" + run.describe() + "):");
        out.println(renderCard(run.task()));
        return run;
    }

    /**
     * Renders a task card: the description, the step progress with a bar, and one line per step.
     *
     * @param task the task
     * @return the card, each line ending with a line feed
     */
    public static String renderCard(Task task) {
        MarkdownSteps steps = MarkdownSteps.parse(task.hasSteps() ? task.steps() : "");
        StringBuilder card = new StringBuilder();
        String title = "Task: " + cut(task.description().strip(), TITLE_WIDTH - 8);
        card.append(title);
        if (!steps.isEmpty()) {
            card.append(" ".repeat(Math.max(2, TITLE_WIDTH - title.length())))
                    .append(steps.progressLabel())
                    .append("  ")
                    .append(bar(steps.done(), steps.total()));
        }
        card.append('\n');
        for (Step step : steps.steps()) {
            card.append("  ".repeat(step.depth() + 1))
                    .append(step.checked() ? "\u2611 " : "\u2610 ")
                    .append(cut(step.text(), STEP_TEXT_WIDTH))
                    .append('\n');
        }
        return card.toString();
    }

    private static String bar(int done, int total) {
        int filled = Math.round((float) BAR_WIDTH * done / total);
        return "\u2588".repeat(filled) + "\u2591".repeat(BAR_WIDTH - filled);
    }

    /** Cuts a text to a width at a word boundary, marking the cut with an ellipsis. */
    private static String cut(String text, int width) {
        if (text.length() <= width) {
            return text;
        }
        int end = text.lastIndexOf(' ', width - 1);
        if (end <= 0) {
            end = width - 1;
        }
        return text.substring(0, end).stripTrailing() + "\u2026";
    }

    /** What a model executing the task would stream: step 1, a tool call, then step 2 and a summary. */
    private static ScriptedChatModel scriptedModel() {
        return ScriptedChatModel.builder()
                .streamChunkSize(6)
                .respond(new ChatResponse(
                        "Good options for a 5 and a 3 year old: Sea Life Bangkok, the Children's Discovery Museum,"
                                + " Lumphini Park and Safari World.\n"
                                + CHECK + " STEP 1: Research family-friendly attractions in Bangkok for kids 5 & 3\n"
                                + "Sending the list to Hanan.\n",
                        List.of(ScriptedChatModel.call(
                                "send_whatsapp",
                                "{\"to\":\"Hanan\",\"message\":\"Bangkok with the kids: Sea Life Bangkok,"
                                        + " Children's Discovery Museum, Lumphini Park, Safari World\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(420, 90)))
                .respond(ScriptedChatModel.text(CHECK + " STEP 2: Send the list to Hanan on WhatsApp\n"
                        + "Summary: Hanan has four family-friendly attractions in Bangkok on WhatsApp."))
                .build();
    }

    /**
     * The host's WhatsApp tool; here it only prints what it would send. Also used by the flagship demo.
     *
     * @param out where the tool prints
     * @return the tool
     */
    static Tool sendWhatsApp(PrintStream out) {
        return Tool.of(
                "send_whatsapp",
                "Sends a WhatsApp message to one of the user's contacts.",
                JsonSchema.object()
                        .requiredString("to", "the contact's name, as the user calls them")
                        .requiredString("message", "the message text"),
                arguments -> {
                    String to = arguments.requiredName("to");
                    out.println("  [tool] send_whatsapp to " + to + ": " + arguments.requiredText("message"));
                    return ToolResult.ok("Sent to " + to + ".");
                });
    }
}
