package dev.taskagent.extraction;

import dev.taskagent.RunError;
import dev.taskagent.event.TaskListener;
import dev.taskagent.internal.engine.ModelLoop;
import dev.taskagent.internal.engine.TransactionRunner;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.TextLimits;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extraction agent: reads a batch of conversation messages of one session and keeps the session's
 * task list true, through the tool calls of a {@link ChatModel}.
 *
 * <pre>{@code
 * TaskAgent agent = TaskAgent.builder(new InMemoryTaskStore(), ChatModels.discover()).build();
 * AgentRun run = agent.run("session-42", List.of(
 *         ConversationMessage.user("m1", "Add a dark mode toggle to the settings page")));
 * }</pre>
 *
 * <p>A run reads the session's tasks once, then loops up to {@link Builder#maxIterations(int)} times:
 * it calls the model (outside any transaction), runs the model's tool calls in order in <em>one</em>
 * transaction, commits, and tells the listeners. It stops when the model calls {@code finish}, answers
 * without tool calls, or the iterations are used up. The model's bad input (unknown tool, arguments that
 * are not JSON, a missing or mistyped argument, an order out of range, an unknown status, message ids
 * outside the batch) is answered with an error result the model can act on, and the run goes on.
 *
 * <p><b>Errors.</b> Bad input from the host (a null, a blank session id, an empty batch) is refused with
 * an exception before anything runs, and so is a store that fails while the task list is read, before the
 * first model call. From the first model call on, a failure of the model, of a tool or of the store ends
 * the run with a {@link RunError} in {@link AgentRun#error()} instead of an exception: the failing
 * iteration is rolled back, earlier ones stay committed, and the {@link AgentRun} is the one place that
 * says which (its tool calls, created and changed tasks). {@link
 * dev.taskagent.steps.StepExecutor#execute(long)} reports its failures the same way. A failed run is
 * logged once, at WARN, in one line with the cause, under this class's logger; the stack trace at DEBUG.
 *
 * <p><b>Threads.</b> Thread-safe: one agent serves every session of an application. Runs of different
 * sessions go in parallel. Runs of the <em>same</em> session are serialised: a second run of a session
 * that has a run in progress <b>waits</b> until that run ends, then starts and reads the task list as the
 * first run left it. The serialisation holds within one {@code TaskAgent} instance; use one agent per
 * store and application.
 */
public final class TaskAgent {
    private static final Logger LOG = LoggerFactory.getLogger(TaskAgent.class);

    private final TaskStore store;
    private final ChatModel chatModel;
    private final int maxIterations;
    private final List<FinishedTaskHook> finishedTaskHooks;
    private final Clock clock;
    private final List<ExtractionTool> tools;
    private final ModelLoop loop;
    private final TaskObserver observer;
    private final InputRenderer renderer;
    private final TransactionRunner transactions;
    private final SessionLocks sessionLocks = new SessionLocks();

    private TaskAgent(Builder builder) {
        store = builder.store;
        chatModel = builder.chatModel;
        maxIterations = builder.maxIterations;
        finishedTaskHooks = List.copyOf(builder.finishedTaskHooks);
        clock = builder.clock;
        tools = builder.stepsTool ? ExtractionTools.withSteps() : ExtractionTools.withoutSteps();
        String systemPrompt = builder.stepsTool ? SystemPrompt.withStepsGuidance() : SystemPrompt.text();
        loop = new ModelLoop(
                chatModel,
                systemPrompt,
                ExtractionTools.definitions(tools),
                builder.chatOptions,
                maxIterations,
                ModelLoop.CallsAtTheLimit.RUN, // the calls of the last iteration are writes of their own
                LOG,
                builder.observer,
                false);
        observer = builder.observer;
        renderer = new InputRenderer(
                builder.previousProgressWindow, builder.partTruncationLength, builder.listingTokenBudget);
        transactions = new TransactionRunner(store, builder.listeners);
    }

    /**
     * Starts configuring an agent of the tasks in this store, driven by this model.
     *
     * @param store where the tasks live
     * @param chatModel the model that reads the messages and calls the tools; see {@link
     *     dev.taskagent.llm.ChatModels#discover()} to find one on the class path
     * @return a new builder
     * @throws NullPointerException if {@code store} or {@code chatModel} is null
     */
    public static Builder builder(TaskStore store, ChatModel chatModel) {
        return new Builder(store, chatModel);
    }

    /**
     * Reads a batch of a session's messages and updates the session's tasks through the model's tool
     * calls. Waits first while another run of the same session is in progress on this agent.
     *
     * <p>The messages are numbered 0..n-1 for the model; the tools map those numbers back to the {@link
     * ConversationMessage#id()}s, which is what gets linked to tasks.
     *
     * @param sessionId the session whose tasks to update; not blank
     * @param messages the new messages, oldest first; at least one, each with a distinct id
     * @return what the run did, with the failure that stopped it, if any; check {@link AgentRun#isSuccess()}
     * @throws NullPointerException if an argument or a message is null
     * @throws IllegalArgumentException if the session id is blank or too long, the batch is empty, or two
     *     messages share an id
     * @throws TaskStoreException if the store fails while reading the task list before the first model
     *     call (nothing was changed)
     * @throws IllegalStateException if called from a listener or hook of a run of the same session on
     *     the same thread (the runs would interleave); start it after the outer run returned
     * @throws CancellationException if the thread is interrupted while waiting for another run of the
     *     session
     */
    public AgentRun run(String sessionId, List<ConversationMessage> messages) {
        TextLimits.checkName(sessionId, "sessionId");
        Objects.requireNonNull(messages, "messages");
        if (messages.isEmpty()) {
            throw new IllegalArgumentException(
                    "messages is empty; pass the batch of new messages of session '" + sessionId + "'");
        }
        MessageBatch batch = new MessageBatch(messages);
        return sessionLocks.withLock(sessionId, () -> new ExtractionRun(this, sessionId, batch).execute());
    }

    TaskStore store() {
        return store;
    }

    /** The request/response/tool-result loop, set up with the extraction's prompt, tools and limit. */
    ModelLoop loop() {
        return loop;
    }

    /** The tools a run offers, in the order the model sees them. */
    List<ExtractionTool> tools() {
        return tools;
    }

    /** Runs units of work and tells the listeners about their events after commit. */
    TransactionRunner transactions() {
        return transactions;
    }

    List<FinishedTaskHook> finishedTaskHooks() {
        return finishedTaskHooks;
    }

    Clock clock() {
        return clock;
    }

    TaskObserver observer() {
        return observer;
    }

    InputRenderer renderer() {
        return renderer;
    }

    @Override
    public String toString() {
        return "TaskAgent[store=" + store + ", chatModel=" + chatModel + ", maxIterations=" + maxIterations + "]";
    }

    /**
     * Configures a {@link TaskAgent}. Each setter checks its value at once and names what is wrong. Not
     * thread-safe; the agent it builds does not change when the builder does.
     */
    public static final class Builder {
        /** Default of {@link #maxIterations(int)}. */
        public static final int DEFAULT_MAX_ITERATIONS = 6;

        /** Default of {@link #previousProgressWindow(int)}. */
        public static final int DEFAULT_PREVIOUS_PROGRESS_WINDOW = 6;

        /** Default of {@link #partTruncationLength(int)}. */
        public static final int DEFAULT_PART_TRUNCATION_LENGTH = 1024;

        /** Default of {@link #listingTokenBudget(int)}. */
        public static final int DEFAULT_LISTING_TOKEN_BUDGET = 4_000;

        private final TaskStore store;
        private final ChatModel chatModel;
        private int maxIterations = DEFAULT_MAX_ITERATIONS;
        private int previousProgressWindow = DEFAULT_PREVIOUS_PROGRESS_WINDOW;
        private int partTruncationLength = DEFAULT_PART_TRUNCATION_LENGTH;
        private int listingTokenBudget = DEFAULT_LISTING_TOKEN_BUDGET;
        private final List<TaskListener> listeners = new ArrayList<>();
        private final List<FinishedTaskHook> finishedTaskHooks = new ArrayList<>();
        private Clock clock = Clock.systemUTC();
        private ChatOptions chatOptions = ChatOptions.defaults();
        private boolean stepsTool;
        private TaskObserver observer = TaskObserver.none();

        private Builder(TaskStore store, ChatModel chatModel) {
            this.store = Objects.requireNonNull(store, "store");
            // A missing model is the usual first mistake: say where to get one.
            this.chatModel = Objects.requireNonNull(chatModel, () -> ModelLoop.missingChatModel("TaskAgent"));
        }

        /**
         * Sets how many times a run may call the model. Default {@value #DEFAULT_MAX_ITERATIONS}.
         *
         * @param value at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is less than 1
         */
        public Builder maxIterations(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxIterations must be at least 1, was " + value);
            }
            maxIterations = value;
            return this;
        }

        /**
         * Sets how many of the session's latest progress entries the model sees. Default {@value
         * #DEFAULT_PREVIOUS_PROGRESS_WINDOW}.
         *
         * @param value 0 or more; 0 shows none
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is negative
         */
        public Builder previousProgressWindow(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("previousProgressWindow must not be negative, was " + value);
            }
            previousProgressWindow = value;
            return this;
        }

        /**
         * Sets the length, in characters, at which the model's input cuts each message part, task
         * description, preference and progress entry, with a visible {@code … [truncated: N more
         * characters]} mark. Default {@value #DEFAULT_PART_TRUNCATION_LENGTH}.
         *
         * @param value at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is less than 1
         */
        public Builder partTruncationLength(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("partTruncationLength must be at least 1, was " + value);
            }
            partTruncationLength = value;
            return this;
        }

        /**
         * Sets how many tokens the session's task listing in the model's input may take, estimated as UTF-8
         * bytes / 3 (an upper estimate for English text). Below it the listing shows every task; above it, open
         * tasks first (running, then pending, the most recently changed first), then the most recently
         * finished, as many as fit, in order and in the same format, and one line that counts and ranges the
         * rest, which the model can still address by order. Default {@value #DEFAULT_LISTING_TOKEN_BUDGET}.
         *
         * @param value at least 200
         * @return this builder
         * @throws IllegalArgumentException if {@code value} is less than 200
         */
        public Builder listingTokenBudget(int value) {
            if (value < 200) {
                throw new IllegalArgumentException("listingTokenBudget must be at least 200, was " + value);
            }
            listingTokenBudget = value;
            return this;
        }

        /**
         * Adds a listener told about every committed change a run makes ({@code Created}, {@code Updated},
         * {@code StatusChanged}, {@code ProgressAppended}, {@code PreferenceSet}, {@code MessagesLinked}).
         *
         * @param value the listener; called after commit on the run's thread
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder listener(TaskListener value) {
            listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        /**
         * Adds a hook told about each task a run moves to success or failed, after the iteration commits.
         *
         * @param value the hook
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder onTaskFinished(FinishedTaskHook value) {
            finishedTaskHooks.add(Objects.requireNonNull(value, "finishedTaskHook"));
            return this;
        }

        /**
         * Sets the clock of {@link AgentRun#startedAt()} and {@link AgentRun#finishedAt()}. Default the
         * system clock in UTC. (Task timestamps come from the store's clock.)
         *
         * @param value the clock
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder clock(Clock value) {
            clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Sets the options of every model request. Default {@link ChatOptions#defaults()}.
         *
         * @param value the options
         * @return this builder
         * @throws NullPointerException if {@code value} is null
         */
        public Builder chatOptions(ChatOptions value) {
            chatOptions = Objects.requireNonNull(value, "chatOptions");
            return this;
        }

        /**
         * Sets the observer told about every model call, tool execution and extraction run. Default {@link
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
         * Offers the model the optional tool {@code set_task_steps(task_order, steps)}, which gives a task
         * a Markdown checklist with one step per action the user asked for (a delivery always its own
         * step), and adds its guidance to the system prompt. Off by default. Execute the steps with {@code
         * dev.taskagent.steps.StepExecutor}.
         *
         * @return this builder
         */
        public Builder withStepsTool() {
            stepsTool = true;
            return this;
        }

        /**
         * Builds the agent.
         *
         * @return the agent
         * @throws IllegalStateException if the store or the chat model was not set
         */
        public TaskAgent build() {
            return new TaskAgent(this);
        }
    }
}
