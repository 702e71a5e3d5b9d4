package dev.taskagent.examples;

import static dev.taskagent.examples.FlagshipDemo.CONCIERGE;
import static dev.taskagent.examples.FlagshipDemo.RESEARCHER;
import static dev.taskagent.examples.FlagshipDemo.SESSION;

import dev.taskagent.RunError;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.MessagePart;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.steps.StepExecutor;
import dev.taskagent.steps.StepRun;
import dev.taskagent.steps.TaskSteps;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One run of the flagship demo on an open store: the conversation, extraction, the claim, step execution,
 * the hand-over and a Taskfile task, with a task board after each stage that changed the session.
 *
 * <p>The tasks persist between runs, so each stage first looks at what an earlier run left: a second run
 * announces the tasks it finds, does not ask the agent to extract the same conversation again, and only
 * finishes what an earlier run left undone (a run stopped by a failed model call resumes where it
 * stopped). Every task a board shows was announced earlier in the same output, as created or as carried
 * over.
 *
 * <p>Not thread-safe: one run, on one thread.
 */
final class FlagshipRun {
    static final String FOLLOW_UP = "Book tickets for the kids' favourite indoor attraction";
    private static final List<String> AGENTS = List.of(RESEARCHER, CONCIERGE);
    private static final List<String> STEPS =
            List.of("Research indoor Bangkok attractions for kids", "Send the list on WhatsApp");
    private static final List<ConversationMessage> CONVERSATION = List.of(
            ConversationMessage.user(
                    "m1",
                    "Can you research Bangkok attractions for the kids and send me the list on WhatsApp?"
                            + " I prefer places with shade."),
            ConversationMessage.assistant("m2", "Sure! I'll look for shaded places the kids will enjoy."),
            ConversationMessage.user("m3", "Actually, indoor places please. It's 38 degrees here."));

    private final PrintStream out;
    private final TaskStore store;
    private final ChatModel realModel;
    private final TaskQueue queue;
    private final Toolbox queueTools;
    private final Duration tickPause;

    /**
     * Prepares a run.
     *
     * @param out where to print
     * @param store the store, open
     * @param realModel the model to use, or null for the offline script
     * @param tickPause how long to pause before the steps and after each tick (for a board to watch); zero
     *     for none
     */
    FlagshipRun(PrintStream out, TaskStore store, ChatModel realModel, Duration tickPause) {
        this.out = out;
        this.tickPause = tickPause;
        this.store = store;
        this.realModel = realModel;
        this.queue = TaskQueue.builder(store).sessionId(SESSION).build();
        this.queueTools = queue.tools();
    }

    /**
     * Runs every stage.
     *
     * @return the task extracted from the conversation, as it ended; empty when the model created none
     * @throws DemoFailure if a model call fails
     */
    Optional<Task> run() {
        List<Task> earlier = store.listTasks(SESSION);
        announceCarriedOver(earlier);
        showConversation();
        Optional<Task> extracted = extract(earlier);
        if (extracted.isEmpty()) {
            out.println("The model created no task from the conversation; nothing more to show.");
            return Optional.empty();
        }
        Task trip = work(withSteps(extracted.get()));
        handOver(followUpOf(earlier));
        runUserTask();
        stage("Done");
        out.println("  The tasks stay in the H2 file: the next run goes on with them and creates none of them"
                + " twice; --reset starts afresh.");
        return store.findTask(trip.id());
    }

    private void announceCarriedOver(List<Task> earlier) {
        if (earlier.isEmpty()) {
            return;
        }
        out.println("  session " + SESSION + " holds " + earlier.size() + " task(s) from an earlier run; this run"
                + " goes on with them (--reset starts afresh):");
        earlier.forEach(task -> announce("  carried over", task));
    }

    private void showConversation() {
        stage("1. The conversation");
        CONVERSATION.forEach(message -> out.println("  " + message.role().label() + ": " + text(message)));
    }

    private Optional<Task> extract(List<Task> earlier) {
        stage("2. Extraction: the agent turns the conversation into a task");
        Optional<Task> extractedEarlier = earlier.stream()
                .filter(task -> !RESEARCHER.equals(task.createdBy()))
                .findFirst();
        if (extractedEarlier.isPresent()) {
            out.println("  already extracted in an earlier run: task #"
                    + extractedEarlier.get().id()
                    + " holds this conversation's request, so the agent is not asked again (--reset starts"
                    + " afresh)");
            TaskBoard.print(out, "carried over from an earlier run", store, SESSION, AGENTS);
            return extractedEarlier;
        }
        TaskAgent agent = TaskAgent.builder(store, realModel != null ? realModel : FlagshipScript.extraction())
                .withStepsTool()
                .build();
        AgentRun run = agent.run(SESSION, CONVERSATION);
        out.println("  run: " + run.stopReason() + " after " + run.iterations() + " iteration(s), "
                + run.toolCalls().size() + " tool call(s), " + run.tokenUsage().totalTokens() + " tokens");
        run.toolCalls()
                .forEach(record -> out.println("    "
                        + abbreviate(record.call().name() + " " + record.call().argumentsJson())));
        if (run.error().isPresent()) {
            throw stopped("extraction", run.error().get());
        }
        run.createdTasks().forEach(task -> announce("created", task));
        TaskBoard.print(out, "after extraction", store, SESSION, AGENTS);
        return run.createdTasks().stream().findFirst();
    }

    // A failed model call is the user's configuration or the service: one line says what to do. Any other
    // failure is a real problem and keeps its stack trace.
    private static RuntimeException stopped(String stage, RunError error) {
        if (error.stage() == RunError.Stage.MODEL) {
            return DemoFailure.modelCall(stage, error.cause());
        }
        return new IllegalStateException("The " + stage + " stopped: " + error.message(), error.cause());
    }

    private Task withSteps(Task trip) {
        if (trip.hasSteps() || trip.status() == TaskStatus.SUCCESS) {
            return trip;
        }
        out.println("  (the model gave task #" + trip.id() + " no steps; the host adds the two actions the user"
                + " asked for)");
        return TaskSteps.of(store).setSteps(trip.id(), STEPS);
    }

    private Task work(Task trip) {
        stage("3. The host queues the task for a worker; the worker signs up (signup_for_task)");
        if (trip.status() == TaskStatus.SUCCESS) {
            out.println("  skipped: task #" + trip.id() + " was claimed in an earlier run");
            stage("4. The worker executes the steps; each ✓ STEP marker ticks the store live");
            out.println("  skipped: task #" + trip.id() + " was done in an earlier run");
            return trip;
        }
        if (trip.status() == TaskStatus.RUNNING && RESEARCHER.equals(trip.assignee())) {
            out.println("  skipped: " + RESEARCHER + " claimed task #" + trip.id() + " in an earlier run and goes on"
                    + " with it");
        } else {
            queue.update(TaskUpdate.of(trip.id())
                    .assignee(RESEARCHER)
                    .status(TaskStatus.PENDING)
                    .build());
            printToolCall(queueTools, "signup_for_task", "{\"agent_name\":\"" + RESEARCHER + "\"}");
        }
        stage("4. The worker executes the steps; each ✓ STEP marker ticks the store live");
        pause();
        StepRun stepRun = executor().execute(trip.id());
        if (stepRun.error().isPresent()) {
            throw stopped("step execution", stepRun.error().get());
        }
        out.println("  " + stepRun.describe());
        TaskBoard.print(out, "after execution", store, SESSION, AGENTS);
        return stepRun.task();
    }

    private StepExecutor executor() {
        return StepExecutor.builder(store, realModel != null ? realModel : FlagshipScript.execution())
                .toolbox(Toolbox.of(StepsExample.sendWhatsApp(out)))
                .listener(event -> {
                    if (event instanceof TaskEvent.StepCompleted step) {
                        out.println("  [live] step " + step.stepNumber() + " ticked in the store while the model"
                                + " is still writing:");
                        for (String line : StepsExample.renderCard(step.task()).split("\n")) {
                            out.println("    " + line);
                        }
                        pause();
                    }
                })
                .build();
    }

    private void pause() {
        if (tickPause.isZero()) {
            return;
        }
        try {
            Thread.sleep(tickPause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Optional<Task> followUpOf(List<Task> earlier) {
        return earlier.stream()
                .filter(task -> RESEARCHER.equals(task.createdBy()))
                .findFirst()
                .flatMap(task -> store.findTask(task.id()));
    }

    private void handOver(Optional<Task> earlierFollowUp) {
        stage("5. Hand-over: the researcher passes a follow-up to the concierge (move_task)");
        if (earlierFollowUp.isPresent()
                && !RESEARCHER.equals(earlierFollowUp.get().assignee())) {
            Task followUp = earlierFollowUp.get();
            out.println("  skipped: the follow-up #" + followUp.id() + " went to " + followUp.assignee()
                    + " in an earlier run");
            return;
        }
        Task followUp = earlierFollowUp.orElseGet(this::createFollowUp);
        printToolCall(
                queueTools,
                "move_task",
                "{\"task_id\":" + followUp.id() + ",\"current_agent\":\"" + RESEARCHER + "\",\"new_agent\":\""
                        + CONCIERGE + "\",\"comment\":\"List sent to Hanan. Please book Saturday morning tickets.\"}");
        TaskBoard.print(out, "after the hand-over", store, SESSION, AGENTS);
    }

    private Task createFollowUp() {
        Task followUp = queue.create(queue.newTask(FOLLOW_UP)
                .assignee(RESEARCHER)
                .createdBy(RESEARCHER)
                .priority(1)
                .build());
        announce("created", followUp);
        return followUp;
    }

    private void runUserTask() {
        stage("6. A user-defined task from .agent/Taskfile.yml (run_user_task)");
        Path project = TaskfileExample.locateDemoProject(Path.of("").toAbsolutePath());
        Toolbox taskfileTools = TaskfileTools.forProject(project);
        if (taskfileTools.isEmpty()) {
            out.println("  no Taskfile tools (see the warning above)");
        } else {
            printToolCall(taskfileTools, "run_user_task", "{\"task_name\":\"greet\",\"args\":[\"Hanan\"]}");
        }
    }

    // The one format in which a task enters the output; the board may show a task only after this line.
    private void announce(String how, Task task) {
        out.println("  " + how + " #" + task.id() + " [" + task.status() + "]"
                + (task.assignee() == null ? "" : " assigned to " + task.assignee()) + ": " + task.description());
    }

    private void printToolCall(Toolbox tools, String name, String arguments) {
        out.println("  call   " + name + " " + arguments);
        ToolResult result = tools.call(new ToolCall("demo-" + name, name, arguments));
        String text = result.text().replace("\n", "\n         ");
        out.println("  result " + (result.isError() ? "(error) " : "") + text);
    }

    private void stage(String title) {
        out.println();
        out.println("== " + title);
    }

    private static String abbreviate(String text) {
        return text.length() <= 110 ? text : text.substring(0, 109) + "…";
    }

    private static String text(ConversationMessage message) {
        return message.parts().stream()
                .map(part -> part instanceof MessagePart.TextPart textPart ? textPart.text() : part.toString())
                .collect(Collectors.joining(" "));
    }
}
