package dev.taskagent.steps;

import dev.taskagent.RunError;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.Texts;
import dev.taskagent.internal.engine.ModelLoop;
import dev.taskagent.internal.engine.TransactionRunner;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.observe.ToolExecution;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskNotFoundException;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.task.TaskUpdate;
import dev.taskagent.task.TextLimits;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one task's steps with a streaming {@link ChatModel}, ticking each step in the store the moment
 * the model reports it done.
 *
 * <pre>{@code
 * StepExecutor executor = StepExecutor.builder(store, model)
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
 * answer, up to {@link Builder#maxModelCalls(int)} model calls; the tool calls of an answer at that limit
 * are not run, since no model would read their results. A marker for a step that is already checked
 * changes nothing; a marker inside a fenced code block of the answer is ignored unless {@link
 * Builder#countMarkersInCodeBlocks()} says otherwise. Ignored markers are listed in {@link
 * StepRun#warnings()}; the first of a run is logged at WARN, the others at DEBUG.
 *
 * <p><b>Status.</b> By default the executor sets the task running when the run starts (unless it already
 * is), and success when the run ends normally with every step checked. It never sets failed: when steps
 * are left unchecked, or the run failed, the task stays running, the {@link StepRun} lists the open steps,
 * and the caller decides (retry, hand over, set failed). With {@link Builder#leaveStatusToCaller()} the
 * executor never changes the status; {@link StepRun#allStepsDone()} tells the caller whether the task can
 * be marked success.
 *
 * <p><b>Errors.</b> Bad input from the host is refused with an exception before any model call: an
 * unknown task, a task without steps; so is a store that fails before the first model call, which has
 * changed nothing. A task whose steps are all checked returns at once. From the first model call on, a
 * failure of the model, of a tool (a hard error) or of the store (a tick, the final status) ends the run
 * with a {@link RunError} in {@link StepRun#error()} instead of an exception: the steps ticked before stay
 * ticked, since each tick committed on its own, and the {@link StepRun} is the one place that says which.
 * {@link dev.taskagent.extraction.TaskAgent#run} reports its failures the same way. A failed run is logged
 * once, at WARN, in one line with the cause, under this class's logger; the stack trace at DEBUG. Bad tool
 * arguments and unknown tools are soft errors the model reads and fixes.
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
    private final Toolbox toolbox;
    private final TransactionRunner runner;
    private final Clock clock;
    private final ModelLoop loop;
    private final boolean lenientMarkers;
    private final boolean countMarkersInCodeBlocks;
    private final boolean statusLeftToCaller;
    private final TaskObserver observer;

    private StepExecutor(Builder builder) {
        store = builder.store;
        toolbox = builder.toolbox;
        runner = new TransactionRunner(builder.store, builder.listeners);
        clock = builder.clock;
        loop = new ModelLoop(
                builder.chatModel,
                ExecutionPrompt.SYSTEM_PROMPT,
                toolbox.definitions(),
                builder.chatOptions,
                builder.maxModelCalls,
                ModelLoop.CallsAtTheLimit.LEAVE, // a tool's result no model reads could not tick its step
                LOG,
                builder.observer,
                true);
        observer = builder.observer;
        lenientMarkers = builder.lenientMarkers;
        countMarkersInCodeBlocks = builder.countMarkersInCodeBlocks;
        statusLeftToCaller = builder.statusLeftToCaller;
    }

    /**
     * Starts configuring an executor of the tasks in this store, driven by this model.
     *
     * @param store where the tasks live
     * @param chatModel the model that reads the messages and calls the tools; see {@link
     *     dev.taskagent.llm.ChatModels#discover()} to find one on the class path
     * @return a builder
     * @throws NullPointerException if {@code store} or {@code chatModel} is null
     */
    public static Builder builder(TaskStore store, ChatModel chatModel) {
        return new Builder(store, chatModel);
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
     * @return the outcome: steps ticked, steps still open, whether the task was marked success, and the
     *     failure that stopped the run, if any; check {@link StepRun#isSuccess()}
     * @throws IllegalArgumentException if {@code taskId} is not positive or the task has no steps
     * @throws TaskNotFoundException if there is no such task
     * @throws TaskStoreException if the store fails before the first model call (nothing was changed)
     */
    public StepRun execute(long taskId) {
        TextLimits.checkTaskId(taskId);
        Instant startedAt = clock.instant();
        Task task = store.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
        MarkdownSteps steps = TaskSteps.stepsOf(task);
        Execution execution = new Execution(task, steps, startedAt);
        if (steps.allDone()) {
            return execution.finishWithoutModel();
        }
        if (!statusLeftToCaller && task.status() != TaskStatus.RUNNING) {
            setStatus(taskId, TaskStatus.RUNNING);
        }
        return execution.run(task, steps);
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

    /**
     * The state of one run, and the {@link ModelLoop} hooks of step execution: answers stream through the
     * marker parser, tool calls run one by one outside any transaction. Not thread-safe: it lives on the
     * thread that runs {@link #execute(long)}.
     */
    private final class Execution implements ModelLoop.Hooks {
        private final long taskId;
        private final String subject;
        private final Instant startedAt;
        private final StepMarkerParser parser;
        private final List<String> warnings = new ArrayList<>();
        private final List<Integer> ticked = new ArrayList<>();
        private TaskSteps.Tick lastTick;
        private int toolCalls;

        /** What the store threw while a step was ticked; the stream is cut off, and the run stops. */
        private RuntimeException tickFailure;

        Execution(Task task, MarkdownSteps steps, Instant startedAt) {
            this.taskId = task.id();
            this.subject = "Step execution of task " + task.id();
            this.startedAt = startedAt;
            this.lastTick = new TaskSteps.Tick(task, steps, false);
            StepMarkerParser.Builder markers = StepMarkerParser.builder(steps.total(), (number, text) -> tick(number));
            if (lenientMarkers) {
                markers.lenientMarkers();
            }
            if (countMarkersInCodeBlocks) {
                markers.countMarkersInCodeBlocks();
            }
            parser = markers.build();
        }

        StepRun run(Task task, MarkdownSteps steps) {
            ModelLoop.Outcome outcome = loop.run(subject, ExecutionPrompt.taskMessage(task, steps), this);
            if (!outcome.callsNotRun().isEmpty()) {
                warn("Stopped after " + outcome.modelCalls() + " model calls (the limit); the model still asked for "
                        + outcome.callsNotRun().stream().map(ToolCall::name).collect(Collectors.joining(", "))
                        + ", which was not run");
            }
            return finish(outcome);
        }

        @Override
        public ChatResponse ask(ChatModel model, ChatRequest request) {
            ChatResponse response;
            try {
                response = model.chatStreaming(request, parser);
                // Each answer is a stream of its own: a marker on its last line counts now.
                parser.endOfStream();
            } catch (RuntimeException e) {
                throw tickFailure == null ? e : new ModelLoop.StoreFailure(tickFailure);
            }
            if (tickFailure != null) {
                throw new ModelLoop.StoreFailure(tickFailure); // the model's client swallowed it
            }
            return response;
        }

        @Override
        public ModelLoop.Round runCalls(int iteration, List<ToolCall> calls) {
            List<ToolResult> results = new ArrayList<>();
            for (ToolCall call : calls) {
                TaskObserver.Scope<ToolResult> observation = observer.toolExecutionStarted(new ToolExecution(call));
                ToolResult result;
                try {
                    result = toolbox.call(call);
                } catch (RuntimeException e) {
                    observation.failed(e instanceof ToolExecutionException && e.getCause() != null ? e.getCause() : e);
                    throw e;
                }
                observation.succeeded(result);
                results.add(result);
                toolCalls++;
            }
            return ModelLoop.Round.continuing(results);
        }

        private void tick(int number) {
            if (tickFailure != null) {
                return;
            }
            TaskSteps.Tick previous = lastTick;
            try {
                lastTick = runner.run(
                        (transaction, events) -> TaskSteps.tick(transaction, events, taskId, number, previous));
            } catch (IllegalArgumentException e) {
                // The document changed during the run and the step is gone: nothing to tick.
                parser.ignore("Ignored the marker for step " + number + ": " + e.getMessage());
                return;
            } catch (RuntimeException e) {
                tickFailure = e;
                throw e; // cuts the stream off: the run stops
            }
            if (lastTick.changed()) {
                ticked.add(number);
            }
        }

        private void warn(String warning) {
            LOG.warn("Task {}: {}", taskId, Texts.forLog(warning));
            warnings.add(warning);
        }

        /** Ends a run that needed no model call: every step was checked already. */
        StepRun finishWithoutModel() {
            Task task = reload();
            MarkdownSteps steps = stepsIn(task);
            boolean markSuccess = shouldMarkSuccess(task, steps);
            if (markSuccess) {
                task = setStatus(taskId, TaskStatus.SUCCESS);
            }
            return result(task, steps, markSuccess, Optional.empty(), noModelCall());
        }

        /** Ends a run after its loop: reads the task again and marks it success if it is done. */
        StepRun finish(ModelLoop.Outcome outcome) {
            Optional<RunError> error = outcome.error();
            Task task = lastTick.task();
            MarkdownSteps steps = lastTick.steps();
            boolean markedSuccess = false;
            try {
                task = reload();
                steps = stepsIn(task);
                if (error.isEmpty() && shouldMarkSuccess(task, steps)) {
                    task = setStatus(taskId, TaskStatus.SUCCESS);
                    markedSuccess = true;
                }
            } catch (RuntimeException e) {
                if (error.isPresent()) {
                    error.get().cause().addSuppressed(e);
                } else {
                    error = Optional.of(new RunError(RunError.Stage.STORE, null, outcome.modelCalls(), e));
                    loop.reportFailure(subject, error.get());
                }
            }
            return result(task, steps, markedSuccess, error, outcome);
        }

        private Task reload() {
            return store.findTask(taskId).orElseThrow(() -> new TaskNotFoundException(taskId));
        }

        private boolean shouldMarkSuccess(Task task, MarkdownSteps steps) {
            return !statusLeftToCaller && steps.allDone() && task.status() != TaskStatus.SUCCESS;
        }

        private static MarkdownSteps stepsIn(Task task) {
            return MarkdownSteps.parse(task.steps() == null ? "" : task.steps());
        }

        private static ModelLoop.Outcome noModelCall() {
            return new ModelLoop.Outcome(ModelLoop.Stop.ANSWERED, Optional.empty(), 0, TokenUsage.ZERO, "", List.of());
        }

        private StepRun result(
                Task task,
                MarkdownSteps steps,
                boolean markedSuccess,
                Optional<RunError> error,
                ModelLoop.Outcome outcome) {
            List<String> allWarnings = new ArrayList<>(parser.warnings());
            allWarnings.addAll(warnings);
            StepRun run = new StepRun(
                    task,
                    steps,
                    ticked,
                    steps.unchecked(),
                    markedSuccess,
                    error,
                    outcome.lastText(),
                    outcome.modelCalls(),
                    toolCalls,
                    !outcome.callsNotRun().isEmpty(),
                    outcome.usage(),
                    allWarnings,
                    startedAt,
                    clock.instant());
            LOG.debug("Task {}: {}", taskId, Texts.forLog(run.describe()));
            return run;
        }
    }

    /** Configures a {@link StepExecutor}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private final TaskStore store;
        private final ChatModel chatModel;
        private Toolbox toolbox = Toolbox.empty();
        private final List<TaskListener> listeners = new ArrayList<>();
        private Clock clock = Clock.systemUTC();
        private ChatOptions chatOptions = ChatOptions.defaults();
        private int maxModelCalls = DEFAULT_MAX_MODEL_CALLS;
        private boolean lenientMarkers;
        private boolean countMarkersInCodeBlocks;
        private boolean statusLeftToCaller;
        private TaskObserver observer = TaskObserver.none();

        private Builder(TaskStore store, ChatModel chatModel) {
            this.store = Objects.requireNonNull(store, "store");
            // A missing model is the usual first mistake: say where to get one.
            this.chatModel = Objects.requireNonNull(chatModel, () -> ModelLoop.missingChatModel("StepExecutor"));
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
         * Sets the observer told about every model call, tool execution. Default {@link
         * TaskObserver#none()}; the Spring Boot starter gives one that records Micrometer observations.
         *
         * @param value the observer
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder observer(TaskObserver value) {
            observer = Objects.requireNonNull(value, "observer");
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
         * Accepts the common variants of the step marker too ({@code ✔}, {@code ✅}, leading spaces, bold);
         * see {@link StepMarkerParser}. By default only {@code ✓ STEP n: text} counts.
         *
         * @return this builder
         */
        public Builder lenientMarkers() {
            lenientMarkers = true;
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
         * Leaves the task's status entirely to the caller: the executor neither sets the task running when a
         * run starts nor success when every step is done, as it does by default. {@link
         * StepRun#allStepsDone()} tells the caller whether the task can be marked success.
         *
         * @return this builder
         */
        public Builder leaveStatusToCaller() {
            statusLeftToCaller = true;
            return this;
        }

        /**
         * Builds the executor.
         *
         * @return the executor
         * @throws IllegalStateException if the store or the model is missing
         */
        public StepExecutor build() {
            return new StepExecutor(this);
        }
    }
}
