package dev.taskagent.examples;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.MessagePart;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.openai.OpenAiChatModel;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The flagship demo: a family-trip conversation becomes a tracked task, a worker agent claims it from the
 * shared queue, executes its steps with live ticks, hands a follow-up to a second agent, and a
 * user-defined Taskfile task runs; a task board is printed at each stage.
 *
 * <p>It runs on the embedded default store, an H2 file under {@code .taskagent-demo/} of the working
 * directory, so the tasks persist between runs ({@code --reset} starts afresh). Without {@code
 * OPENAI_API_KEY} or {@code OPENAI_BASE_URL} it uses a scripted model and says so; with either set it uses
 * the real model for extraction and step execution.
 */
public final class FlagshipDemo {
    static final String SESSION = "family-trip";
    static final String RESEARCHER = "researcher";
    static final String CONCIERGE = "concierge";

    private FlagshipDemo() {}

    /**
     * Runs the demo.
     *
     * @param args {@code --reset} to delete the demo's database first; {@code --data DIR} to keep it
     *     elsewhere than {@code .taskagent-demo}
     */
    public static void main(String[] args) {
        Path dataDirectory = Path.of(".taskagent-demo");
        boolean reset = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reset" -> reset = true;
                case "--data" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--data needs a directory");
                    }
                    dataDirectory = Path.of(args[++i]);
                }
                default ->
                    throw new IllegalArgumentException(
                            "Unknown argument '" + args[i] + "'; use --reset and/or --data DIR");
            }
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        boolean realModel = isSet("OPENAI_API_KEY") || isSet("OPENAI_BASE_URL");
        run(out, dataDirectory, reset, realModel ? OpenAiChatModel.fromEnvironment() : null);
    }

    /**
     * Runs the demo against a data directory.
     *
     * @param out where to print
     * @param dataDirectory where the H2 file lives
     * @param reset whether to delete the database first
     * @param realModel the model to use, or null for the scripted model
     * @return the task the demo worked on, as it ended
     */
    public static Task run(PrintStream out, Path dataDirectory, boolean reset, ChatModel realModel) {
        if (reset) {
            deleteRecursively(dataDirectory);
        }
        String url = "jdbc:h2:file:" + dataDirectory.toAbsolutePath().resolve("tasks");
        out.println("taskagent flagship demo");
        out.println("  store: H2 file database " + url + " (persists between runs; --reset starts afresh)");
        if (realModel == null) {
            out.println("  model: scripted model (offline, replays a fixed script). Set OPENAI_API_KEY or"
                    + " OPENAI_BASE_URL to use a real model.");
        } else {
            out.println("  model: " + realModel + " (from OPENAI_API_KEY / OPENAI_BASE_URL)");
        }
        try (JdbcTaskStore store = JdbcTaskStore.open(url)) {
            int earlier = store.listTasks(SESSION).size();
            if (earlier > 0) {
                out.println("  found " + earlier + " task(s) of earlier runs in session " + SESSION);
            }
            return runStages(out, store, realModel);
        }
    }

    private static Task runStages(PrintStream out, TaskStore store, ChatModel realModel) {
        TaskQueue queue = TaskQueue.builder(store).sessionId(SESSION).build();
        List<String> agents = List.of(RESEARCHER, CONCIERGE);

        stage(out, "1. The conversation");
        List<ConversationMessage> conversation = List.of(
                ConversationMessage.user(
                        "m1",
                        "Can you research Bangkok attractions for the kids and send me the list on WhatsApp?"
                                + " I prefer places with shade."),
                ConversationMessage.assistant("m2", "Sure! I'll look for shaded places the kids will enjoy."),
                ConversationMessage.user("m3", "Actually, indoor places please. It's 38 degrees here."));
        conversation.forEach(message -> out.println("  " + message.role().label() + ": " + text(message)));

        stage(out, "2. Extraction: the agent turns the conversation into a task");
        TaskAgent agent = TaskAgent.builder()
                .store(store)
                .chatModel(realModel != null ? realModel : FlagshipScript.extraction())
                .stepsTool(true)
                .build();
        AgentRun run = agent.run(SESSION, conversation);
        out.println("  run: " + run.stopReason() + " after " + run.iterations() + " iteration(s), "
                + run.toolCalls().size() + " tool call(s), " + run.tokenUsage().totalTokens() + " tokens");
        run.toolCalls()
                .forEach(record -> out.println("    "
                        + abbreviate(record.call().name() + " " + record.call().argumentsJson())));
        run.error().ifPresent(error -> out.println("  error: " + error.message()));
        Task task = run.createdTasks().stream()
                .findFirst()
                .or(() -> run.changedTasks().stream().findFirst())
                .orElse(null);
        TaskBoard.print(out, "after extraction", store, SESSION, agents);
        if (task == null) {
            out.println("The model created no task from the conversation; nothing more to show.");
            return null;
        }
        task = store.findTask(task.id()).orElseThrow();
        if (!task.hasSteps()) {
            out.println("  (the model gave the task no steps; the host adds the two actions the user asked for)");
            task = TaskSteps.of(store)
                    .setSteps(
                            task.id(),
                            List.of("Research indoor Bangkok attractions for kids", "Send the list on WhatsApp"));
        }

        stage(out, "3. The host queues the task for a worker; the worker signs up (signup_for_task)");
        queue.update(TaskUpdate.of(task.id())
                .assignee(RESEARCHER)
                .status(TaskStatus.PENDING)
                .build());
        Toolbox queueTools = queue.tools();
        printToolCall(out, queueTools, "signup_for_task", "{\"agent_name\":\"" + RESEARCHER + "\"}");

        stage(out, "4. The worker executes the steps; each ✓ STEP marker ticks the store live");
        StepExecutor executor = StepExecutor.builder()
                .store(store)
                .chatModel(realModel != null ? realModel : FlagshipScript.execution())
                .toolbox(Toolbox.of(new StepsExample.SendWhatsApp(out)))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted step) {
                        out.println("  [live] step " + step.stepNumber() + " ticked in the store while the model"
                                + " is still writing:");
                        for (String line : StepsExample.renderCard(step.task()).split("\n")) {
                            out.println("    " + line);
                        }
                    }
                })
                .build();
        StepRun stepRun = executor.execute(task.id());
        out.println("  " + stepRun.describe());
        TaskBoard.print(out, "after execution", store, SESSION, agents);

        stage(out, "5. Hand-over: the researcher passes a follow-up to the concierge (move_task)");
        Task followUp = queue.create(queue.newTask("Book tickets for the kids' favourite indoor attraction")
                .assignee(RESEARCHER)
                .createdBy(RESEARCHER)
                .priority(1)
                .build());
        printToolCall(
                out,
                queueTools,
                "move_task",
                "{\"task_id\":" + followUp.id() + ",\"current_agent\":\"" + RESEARCHER + "\",\"new_agent\":\""
                        + CONCIERGE + "\",\"comment\":\"List sent to Hanan. Please book Saturday morning tickets.\"}");
        TaskBoard.print(out, "after the hand-over", store, SESSION, agents);

        stage(out, "6. A user-defined task from .agent/Taskfile.yml (run_user_task)");
        Path project = TaskfileExample.locateDemoProject(Path.of("").toAbsolutePath());
        Toolbox taskfileTools = TaskfileTools.forProject(project);
        if (taskfileTools.isEmpty()) {
            out.println("  no Taskfile tools (see the warning above)");
        } else {
            printToolCall(out, taskfileTools, "run_user_task", "{\"task_name\":\"greet\",\"args\":[\"Hanan\"]}");
        }

        stage(out, "Done");
        out.println("  The tasks stay in the H2 file; run the demo again to see them, or with --reset to start"
                + " afresh.");
        return store.findTask(task.id()).orElseThrow();
    }

    private static void printToolCall(PrintStream out, Toolbox tools, String name, String arguments) {
        out.println("  call   " + name + " " + arguments);
        ToolResult result = tools.call(new ToolCall("demo-" + name, name, arguments));
        String text = result.text().replace("\n", "\n         ");
        out.println("  result " + (result.isError() ? "(error) " : "") + text);
    }

    private static String abbreviate(String text) {
        return text.length() <= 110 ? text : text.substring(0, 109) + "…";
    }

    private static void stage(PrintStream out, String title) {
        out.println();
        out.println("== " + title);
    }

    private static String text(ConversationMessage message) {
        return message.parts().stream()
                .map(part -> part instanceof MessagePart.TextPart textPart ? textPart.text() : part.toString())
                .collect(Collectors.joining(" "));
    }

    private static boolean isSet(String name) {
        String value = System.getenv(name);
        return value != null && !value.isBlank();
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + directory + " for --reset", e);
        }
    }
}
