package dev.taskagent.steps;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.TransactionRunner;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.spi.StoreArguments;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one task's steps with a streaming {@link ChatModel}, ticking each step in the store the moment
 * the model reports it done.
 *
 * <pre>{@code
 * StepExecutor executor = StepExecutor.builder()
 *         .store(store)
 *         .chatModel(model)
 *         .toolbox(Toolbox.of(sendWhatsApp))
 *         .listener(event -> ui.show(event))
 *         .build();
 * StepRun run = executor.execute(taskId);
 * if (!run.allStepsDone()) log.warn(run.describe());
 * }</pre>
 *
 * <p><b>A run.</b> The model gets the task, its numbered steps and the rules (work in order, write {@code ✓
 * STEP n: text} on a line of its own when step n is done, never skip a step, say why when blocked,
 * summarise after the last step), and the tools of the {@link Builder#toolbox(Toolbox) toolbox}. Its
 * answer is streamed through a {@link StepMarkerParser}; as each marker's line arrives, the step is ticked
 * and {@link Task#currentStep()} set to it in one small transaction, and {@link TaskEvent.StepCompleted}
 * goes to the listeners right after it committed, while the model is still writing. When the model calls
 * tools, the executor runs them (outside any transaction), hands the results back and streams the next
 * answer, up to {@link Builder#maxModelCalls(int)} model calls. A marker for a step that is already
 * checked changes nothing; a marker inside a fenced code block of the answer is ignored unless {@link
 * Builder#countMarkersInCodeBlocks()} says otherwise. Ignored markers are listed in {@link
 * StepRun#warnings()}; the first of a run is logged at WARN, the others at DEBUG.
 *
 * <p><b>Status.</b> With {@link Builder#manageStatus(boolean)} on (the default), the executor sets the
 * task running when the run starts (unless it already is), and success when the run ends with every step
 * checked. It never sets failed: when steps are left unchecked the task stays running, the {@link
 * StepRun} lists the open steps, and the caller decides (retry, hand over, set failed). With it off the
 * executor never changes the status; {@link StepRun#allStepsDone()} tells the caller whether the task can
 * be marked success.
 *
 * <p><b>Errors.</b> A task without steps is refused with {@link IllegalArgumentException} before any model
 * call; a task whose steps are all checked returns at once. A failure of the model ({@link
 * ChatModelException}), of a tool ({@link ToolExecutionException}, a hard error) or of the store ends the
 * run with that exception; the steps ticked before stay ticked, since each tick committed on its own.
 * Bad tool arguments and unknown tools are soft errors the model reads and fixes.
 *
 * <p>Thread-safe when its store, model, tools and listeners are: one executor may run many tasks at
 * once. Do not run the same task twice at the same time; the ticks would stay correct, but the work would
 * be done twice.
 */
public final class StepExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(StepExecutor.class);

    /** The default limit of model calls per run. */
    public static final int DEFAULT_MAX_MODEL_CALLS = 10;

    private final TaskStore store;
    private final ChatModel chatModel;
    private final Toolbox toolbox;
    private final TransactionRunner runner;
    private final Clock clock;
    private final ChatOptions chatOptions;
    private final int maxModelCalls;
    private final boolean lenientMarkers;
    private final boolean countMarkersInCodeBlocks;
    private final boolean manageStatus;

    private StepExecutor(Builder builder) {
        store = builder.store;
        chatModel = builder.chatModel;
        toolbox = builder.toolbox;
        runner = new TransactionRunner(builder.store, builder.listeners);
        clock = builder.clock;
        chatOptions = builder.chatOptions;
        maxModelCalls = builder.maxModelCalls;
        lenientMarkers = builder.lenientMarkers;
        countMarkersInCodeBlocks = builder.countMarkersInCodeBlocks;
        manageStatus = builder.manageStatus;
    }

    /**
     * Starts configuring an executor; {@link Builder#store(TaskStore)} and {@link
     * Builder#chatModel(ChatModel)} are required.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the system prompt of every run: the rules the model follows while it executes steps.
     *
     * @return the prompt
     */
    public static String systemPrompt() {
        return ExecutionPrompt.SYSTEM_PROMPT;
    }

    /**
     * Returns the message that gives the model a task to execute: its description, its preference, its
     * numbered steps and where to start.
     *
     * @param task the task; must have steps
     * @return the message text
     * @throws IllegalArgumentException if the task has no steps
     */
    public static String taskMessage(Task task) {
        Objects.requireNonNull(task, "task");
        return ExecutionPrompt.taskMessage(task, TaskSteps.stepsOf(task));
    }

    /**
     * Executes a task's unchecked steps.
     *
     * @param taskId the task; it must have at least one step
     * @return the outcome: steps ticked, steps still open, whether the task was marked success
     * @throws IllegalArgumentException if {@code taskId} is not positive or the task has no steps
     * @throws TaskNotFoundException if there is no such task
     * @throws ChatModelException if the model fails; steps ticked before stay ticked
     * @throws ToolExecutionException if a tool fails unexpectedly; steps ticked before stay ticked
     */
    public StepRun execute(long taskId) {
        StoreArguments.taskId(taskId);
        Instant startedAt = clock.instant();
        Task task = store.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
        MarkdownSteps steps = TaskSteps.stepsOf(task);
        Execution execution = new Execution(task, steps);
        if (!steps.allDone()) {
            if (manageStatus && task.status() != TaskStatus.RUNNING) {
                setStatus(taskId, TaskStatus.RUNNING);
            }
            execution.converse(task, steps);
        }
        return execution.finish(startedAt);
    }

    private Task setStatus(long taskId, TaskStatus status) {
        return runner.run((transaction, events) -> {
            Task current = transaction.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
            if (current.status() == status) {
                return current;
            }
            Task after =
                    transaction.updateTask(TaskUpdate.of(taskId).status(status).build());
            events.add(new TaskEvent.StatusChanged(after, current.status(), status));
            return after;
        });
    }

    /** The state of one run. Not thread-safe: it lives on the thread that runs {@link #execute(long)}. */
    private final class Execution {
        private final long taskId;
        private final StepMarkerParser parser;
        private final List<String> warnings = new ArrayList<>();
        private final List<Integer> ticked = new ArrayList<>();
        private TaskSteps.Tick lastTick;
        private TokenUsage usage = TokenUsage.ZERO;
        private String finalText = "";
        private int modelCalls;
        private int toolCalls;
        private boolean callLimitReached;

        Execution(Task task, MarkdownSteps steps) {
            taskId = task.id();
            lastTick = new TaskSteps.Tick(task, steps, false);
            StepMarkerParser.Builder markers = StepMarkerParser.builder(steps.total(), (number, text) -> tick(number))
                    .lenient(lenientMarkers);
            if (countMarkersInCodeBlocks) {
                markers.countMarkersInCodeBlocks();
            }
            parser = markers.build();
        }

        void converse(Task task, MarkdownSteps steps) {
            List<ChatMessage> messages = new ArrayList<>();
            messages.add(new UserMessage(ExecutionPrompt.taskMessage(task, steps)));
            while (true) {
                ChatRequest request =
                        new ChatRequest(ExecutionPrompt.SYSTEM_PROMPT, messages, toolbox.definitions(), chatOptions);
                ChatResponse response = chatModel.chatStreaming(request, parser);
                // Each response is a stream of its own: a marker on its last line counts now.
                parser.endOfStream();
                modelCalls++;
                usage = usage.plus(response.usage());
                if (!response.text().isBlank()) {
                    finalText = response.text();
                }
                messages.add(AssistantMessage.of(response));
                if (!response.hasToolCalls()) {
                    return;
                }
                if (modelCalls >= maxModelCalls) {
                    callLimitReached = true;
                    warn("Stopped after " + modelCalls + " model calls (the limit); the model still asked for "
                            + response.toolCalls().stream().map(ToolCall::name).collect(Collectors.joining(", "))
                            + ", which was not run");
                    return;
                }
                for (ToolCall call : response.toolCalls()) {
                    ToolResult result = toolbox.call(call);
                    toolCalls++;
                    messages.add(new ToolResultMessage(call.id(), call.name(), result.text(), result.isError()));
                }
            }
        }

        private void tick(int number) {
            TaskSteps.Tick previous = lastTick;
            try {
                lastTick = runner.run(
                        (transaction, events) -> TaskSteps.tick(transaction, events, taskId, number, previous));
                if (lastTick.changed()) {
                    ticked.add(number);
                }
            } catch (IllegalArgumentException e) {
                // The document changed during the run and the step is gone: nothing to tick.
                parser.ignore("Ignored the marker for step " + number + ": " + e.getMessage());
            }
        }

        private void warn(String warning) {
            LOG.warn("Task {}: {}", taskId, warning);
            warnings.add(warning);
        }

        StepRun finish(Instant startedAt) {
            Task task = store.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
            MarkdownSteps steps = MarkdownSteps.parse(task.steps() == null ? "" : task.steps());
            boolean markedSuccess = false;
            if (manageStatus && steps.allDone() && task.status() != TaskStatus.SUCCESS) {
                task = setStatus(taskId, TaskStatus.SUCCESS);
                markedSuccess = true;
            }
            List<String> allWarnings = new ArrayList<>(parser.warnings());
            allWarnings.addAll(warnings);
            StepRun run = new StepRun(
                    task,
                    steps,
                    ticked,
                    steps.unchecked(),
                    markedSuccess,
                    finalText,
                    modelCalls,
                    toolCalls,
                    callLimitReached,
                    usage,
                    allWarnings,
                    startedAt,
                    clock.instant());
            LOG.debug("Task {}: {}", taskId, run.describe());
            return run;
        }
    }

    /** Configures a {@link StepExecutor}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private TaskStore store;
        private ChatModel chatModel;
        private Toolbox toolbox = Toolbox.empty();
        private final List<TaskListener> listeners = new ArrayList<>();
        private Clock clock = Clock.systemUTC();
        private ChatOptions chatOptions = ChatOptions.defaults();
        private int maxModelCalls = DEFAULT_MAX_MODEL_CALLS;
        private boolean lenientMarkers;
        private boolean countMarkersInCodeBlocks;
        private boolean manageStatus = true;

        private Builder() {}

        /**
         * Sets the store that holds the tasks. Required.
         *
         * @param value the store
         * @return this builder
         */
        public Builder store(TaskStore value) {
            store = Objects.requireNonNull(value, "store");
            return this;
        }

        /**
         * Sets the model that executes the steps; it should stream ({@link ChatModel#chatStreaming}) for
         * ticks to arrive while it writes. Required.
         *
         * @param value the model
         * @return this builder
         */
        public Builder chatModel(ChatModel value) {
            chatModel = Objects.requireNonNull(value, "chatModel");
            return this;
        }

        /**
         * Sets the tools the model may call while executing (sending a message, booking...). None by
         * default.
         *
         * @param value the tools
         * @return this builder
         */
        public Builder toolbox(Toolbox value) {
            toolbox = Objects.requireNonNull(value, "toolbox");
            return this;
        }

        /**
         * Adds a listener told about every committed change of a run: status changes and ticked steps.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder listener(TaskListener value) {
            listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        /**
         * Adds listeners, in order.
         *
         * @param values the listeners
         * @return this builder
         */
        public Builder listeners(List<TaskListener> values) {
            values.forEach(this::listener);
            return this;
        }

        /**
         * Sets the clock that times runs. The system clock in UTC by default.
         *
         * @param value the clock
         * @return this builder
         */
        public Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Sets the options of every model call. {@link ChatOptions#defaults()} by default.
         *
         * @param value the options
         * @return this builder
         */
        public Builder chatOptions(ChatOptions value) {
            chatOptions = Objects.requireNonNull(value, "chatOptions");
            return this;
        }

        /**
         * Sets how many model calls one run may make: one per answer, so one more than the rounds of tool
         * calls. {@value StepExecutor#DEFAULT_MAX_MODEL_CALLS} by default.
         *
         * @param value at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is less than 1
         */
        public Builder maxModelCalls(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxModelCalls must be at least 1, was " + value);
            }
            maxModelCalls = value;
            return this;
        }

        /**
         * Accepts the common variants of the step marker ({@code ✔}, {@code ✅}, leading spaces, bold);
         * see {@link StepMarkerParser}. Off by default.
         *
         * @param value true to accept the variants
         * @return this builder
         */
        public Builder lenientMarkers(boolean value) {
            lenientMarkers = value;
            return this;
        }

        /**
         * Counts markers inside fenced code blocks of the model's answers too. By default they are ignored
         * (with a warning in {@link StepRun#warnings()} for a marker that would have ticked a step), so that
         * a model quoting the marker format in an example does not tick a step it has not done; see {@link
         * StepMarkerParser}. Use this for a model that writes its whole answer in a code block.
         *
         * @return this builder
         */
        public Builder countMarkersInCodeBlocks() {
            countMarkersInCodeBlocks = true;
            return this;
        }

        /**
         * Lets the executor set the task running when a run starts and success when every step is done
         * (the default), or leaves the status entirely to the caller.
         *
         * @param value false to never change the status
         * @return this builder
         */
        public Builder manageStatus(boolean value) {
            manageStatus = value;
            return this;
        }

        /**
         * Builds the executor.
         *
         * @return the executor
         * @throws IllegalStateException if the store or the model is missing
         */
        public StepExecutor build() {
            if (store == null) {
                throw new IllegalStateException("StepExecutor needs a store: call store(taskStore) before build()");
            }
            if (chatModel == null) {
                throw new IllegalStateException(
                        "StepExecutor needs a chat model: call chatModel(model) before build()");
            }
            return new StepExecutor(this);
        }
    }
}
