package dev.taskagent.internal.engine;

import dev.taskagent.RunError;
import dev.taskagent.internal.Texts;
import dev.taskagent.llm.AssistantMessage;
import dev.taskagent.llm.ChatMessage;
import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.llm.ToolResultMessage;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.observe.ModelCall;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.tool.ToolExecutionException;
import dev.taskagent.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The loop of every model run of the library, {@code TaskAgent.run} and {@code StepExecutor.execute}: ask
 * the model (system prompt, history, tool definitions, options), run the tool calls of its answer, append
 * the answer and one result per call to the history, and ask again, until the model answers without tool
 * calls, the calls of an answer end the run, the limit of model calls is reached, or something fails.
 *
 * <p>What differs between the runs are their {@link Hooks}: how the model is asked (streaming or not), how
 * the calls of an answer run (in one transaction, or each on its own) and whether they end the run; and
 * what happens to the calls of the last answer the limit allows ({@link CallsAtTheLimit}).
 *
 * <p><b>One error policy.</b> A failure of the model, of a tool or of the store ends the run with a {@link
 * RunError} in the {@link Outcome}; nothing is thrown, because what the run committed before stays
 * committed, and the run's result is where the caller learns what that was. The failure is logged once, at
 * WARN, in one line that names the run and the cause; the stack trace goes to DEBUG, since the caller holds
 * the exception.
 *
 * <p>Immutable and thread-safe; each {@link #run} keeps its state to itself.
 */
public final class ModelLoop {

    /** What a loop does with the tool calls of the last answer its limit allows. */
    public enum CallsAtTheLimit {
        /** Runs them: they are work of their own (an extraction's writes), though no answer follows. */
        RUN,
        /** Leaves them unrun: their results would reach no model, so nobody could report them done. */
        LEAVE
    }

    /** Why a loop stopped. */
    public enum Stop {
        /** The model answered without tool calls. */
        ANSWERED,
        /** The calls of an answer ended the run (the extraction's {@code finish}). */
        ENDED_BY_TOOL,
        /** The loop asked the model as often as it may. */
        LIMIT,
        /** The model, a tool or the store failed; see {@link Outcome#error()}. */
        FAILED
    }

    /** The part of a run that differs between the library's loops. Called on the thread of the run. */
    public interface Hooks {
        /**
         * Asks the model. The default waits for the whole answer; a run that acts on the answer while it
         * arrives streams it.
         *
         * @param model the model
         * @param request the request
         * @return the answer
         * @throws StoreFailure if the store failed while the answer streamed in; the run stops with {@link
         *     RunError.Stage#STORE}. Anything else the run reports as {@link RunError.Stage#MODEL}
         */
        default ChatResponse ask(ChatModel model, ChatRequest request) {
            return model.chat(request);
        }

        /**
         * Runs the tool calls of one answer.
         *
         * @param iteration the 1-based iteration
         * @param calls the calls, in the order the model made them
         * @return one result per call, in order, and whether the run ends after them
         * @throws ToolExecutionException if a tool failed (a hard error); the run stops with {@link
         *     RunError.Stage#TOOL}. Anything else the run reports as {@link RunError.Stage#STORE}
         */
        Round runCalls(int iteration, List<ToolCall> calls);
    }

    /**
     * What running the calls of one answer gave.
     *
     * @param results one per call, in the order of the calls
     * @param endsTheRun true when the run stops after these calls
     */
    public record Round(List<ToolResult> results, boolean endsTheRun) {
        /**
         * Copies the list.
         *
         * @param results one per call, in the order of the calls; not null, copied
         * @param endsTheRun true when the run stops after these calls
         */
        public Round {
            results = List.copyOf(results);
        }

        /**
         * Results after which the loop asks the model again.
         *
         * @param results one per call
         * @return the round
         */
        public static Round continuing(List<ToolResult> results) {
            return new Round(results, false);
        }

        /**
         * Results after which the run ends.
         *
         * @param results one per call
         * @return the round
         */
        public static Round ending(List<ToolResult> results) {
            return new Round(results, true);
        }
    }

    /**
     * How a loop ended.
     *
     * @param stop why it stopped
     * @param error the failure when {@code stop} is {@link Stop#FAILED}, otherwise empty
     * @param modelCalls how many times the model was asked, a failed call included
     * @param usage tokens summed over the answers
     * @param lastText the text of the latest answer that had any; empty when none had
     * @param callsNotRun the calls of the last answer, left unrun at the limit ({@link CallsAtTheLimit#LEAVE});
     *     otherwise empty
     */
    public record Outcome(
            Stop stop,
            Optional<RunError> error,
            int modelCalls,
            TokenUsage usage,
            String lastText,
            List<ToolCall> callsNotRun) {
        /**
         * Checks the invariants and copies the list.
         *
         * @param stop why it stopped; not null
         * @param error the failure, present exactly when {@code stop} is {@link Stop#FAILED}; not null
         * @param modelCalls how many times the model was asked, a failed call included
         * @param usage tokens summed over the answers; not null
         * @param lastText the text of the latest answer that had any; empty when none had, not null
         * @param callsNotRun the calls of the last answer, left unrun at the limit ({@link CallsAtTheLimit#LEAVE});
         *     otherwise empty; not null, copied
         */
        public Outcome {
            Objects.requireNonNull(stop, "stop");
            if ((stop == Stop.FAILED) != error.isPresent()) {
                throw new IllegalArgumentException("an error must be given exactly when the loop failed");
            }
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(lastText, "lastText");
            callsNotRun = List.copyOf(callsNotRun);
        }
    }

    /**
     * Thrown by {@link Hooks#ask} when the store failed while the answer streamed in (a step tick), so that
     * the run names the store, whatever the model's client made of the exception on its way through.
     */
    public static final class StoreFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** What the store threw. */
        private final RuntimeException storeException;

        /**
         * Wraps what the store threw.
         *
         * @param storeException the store's exception
         */
        public StoreFailure(RuntimeException storeException) {
            super(storeException);
            this.storeException = storeException;
        }
    }

    private final ChatModel model;
    private final String systemPrompt;
    private final List<ToolDefinition> tools;
    private final ChatOptions options;
    private final int maxModelCalls;
    private final CallsAtTheLimit callsAtTheLimit;
    private final Logger log;
    private final TaskObserver observer;
    private final boolean streaming;

    /**
     * Creates a loop.
     *
     * @param model the model
     * @param systemPrompt the system prompt of every request
     * @param tools the tools the model is offered
     * @param options the options of every request
     * @param maxModelCalls how often one run may ask the model; at least 1
     * @param callsAtTheLimit what happens to the calls of the last answer the limit allows
     * @param log where failed runs are reported: the logger of the class users configure
     */
    public ModelLoop(
            ChatModel model,
            String systemPrompt,
            List<ToolDefinition> tools,
            ChatOptions options,
            int maxModelCalls,
            CallsAtTheLimit callsAtTheLimit,
            Logger log) {
        this(model, systemPrompt, tools, options, maxModelCalls, callsAtTheLimit, log, TaskObserver.none(), false);
    }

    /**
     * Creates a loop whose model calls an observer sees.
     *
     * @param model the model
     * @param systemPrompt the system prompt of every request
     * @param tools the tools the model is offered
     * @param options the options of every request
     * @param maxModelCalls how often one run may ask the model; at least 1
     * @param callsAtTheLimit what happens to the calls of the last answer the limit allows
     * @param log where failed runs are reported: the logger of the class users configure
     * @param observer told about every model call
     * @param streaming whether the run's hooks stream the answers, as the observer is told
     */
    public ModelLoop(
            ChatModel model,
            String systemPrompt,
            List<ToolDefinition> tools,
            ChatOptions options,
            int maxModelCalls,
            CallsAtTheLimit callsAtTheLimit,
            Logger log,
            TaskObserver observer,
            boolean streaming) {
        this.model = Objects.requireNonNull(model, "model");
        this.systemPrompt = Objects.requireNonNull(systemPrompt, "systemPrompt");
        this.tools = List.copyOf(tools);
        this.options = Objects.requireNonNull(options, "options");
        if (maxModelCalls < 1) {
            throw new IllegalArgumentException("maxModelCalls must be at least 1, was " + maxModelCalls);
        }
        this.maxModelCalls = maxModelCalls;
        this.callsAtTheLimit = Objects.requireNonNull(callsAtTheLimit, "callsAtTheLimit");
        this.log = Objects.requireNonNull(log, "log");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.streaming = streaming;
    }

    /**
     * Says that a builder lacks its chat model, and where to get one: the one place for that message.
     *
     * @param owner the class being built, e.g. {@code TaskAgent}
     * @return the message
     */
    public static String missingChatModel(String owner) {
        return owner + " needs a chat model: pass a ChatModel to " + owner + ".builder(store, chatModel), e.g."
                + " ChatModels.discover(),"
                + " which finds taskagent-llm-openai on the class path and configures it from OPENAI_API_KEY,"
                + " or OpenAiChatModel.builder().apiKey(...).build()";
    }

    /**
     * Runs the loop until it stops.
     *
     * @param subject names the run in the log, e.g. {@code Extraction of session 's1'}
     * @param firstMessage the user message that opens the history
     * @param hooks the run's hooks
     * @return how the loop ended; never throws for a failure of the model, a tool or the store
     */
    public Outcome run(String subject, String firstMessage, Hooks hooks) {
        return new Pass(subject, firstMessage, hooks).run();
    }

    /**
     * Reports a run that failed: one WARN line with the cause, the stack trace at DEBUG. The loop calls it
     * for its own failures; a run calls it for a failure after its loop (a step execution's final status).
     *
     * @param subject names the run, e.g. {@code Step execution of task 7}
     * @param error the failure
     */
    public void reportFailure(String subject, RunError error) {
        log.warn("{} stopped: {}", Texts.forLog(subject), Texts.forLog(error.message()));
        log.debug("{} stopped", Texts.forLog(subject), error.cause());
    }

    /** One run of the loop: its history and what it counted. Used by one thread. */
    private final class Pass {
        private final String subject;
        private final Hooks hooks;
        private final List<ChatMessage> history = new ArrayList<>();
        private TokenUsage usage = TokenUsage.ZERO;
        private String lastText = "";
        private int iteration;

        Pass(String subject, String firstMessage, Hooks hooks) {
            this.subject = Objects.requireNonNull(subject, "subject");
            this.hooks = Objects.requireNonNull(hooks, "hooks");
            history.add(new UserMessage(firstMessage));
        }

        Outcome run() {
            while (true) {
                iteration++;
                ChatResponse response;
                try {
                    response = ask();
                } catch (StoreFailure e) {
                    return failed(RunError.Stage.STORE, null, e.storeException);
                } catch (RuntimeException e) {
                    return failed(RunError.Stage.MODEL, null, e);
                }
                if (!response.hasToolCalls()) {
                    return stopped(Stop.ANSWERED, List.of());
                }
                boolean last = iteration == maxModelCalls;
                if (last && callsAtTheLimit == CallsAtTheLimit.LEAVE) {
                    return stopped(Stop.LIMIT, response.toolCalls());
                }
                Round round;
                try {
                    round = hooks.runCalls(iteration, response.toolCalls());
                } catch (ToolExecutionException e) {
                    return failed(RunError.Stage.TOOL, e.toolName(), thrownByTool(e));
                } catch (RuntimeException e) {
                    return failed(RunError.Stage.STORE, null, e);
                }
                if (round.endsTheRun()) {
                    return stopped(Stop.ENDED_BY_TOOL, List.of());
                }
                if (last) {
                    return stopped(Stop.LIMIT, List.of());
                }
                remember(response, round);
            }
        }

        private ChatResponse ask() {
            ChatRequest request = new ChatRequest(systemPrompt, history, tools, options);
            TaskObserver.Scope<ChatResponse> observation = observer.modelCallStarted(
                    new ModelCall(ModelCall.CHAT, model.providerName(), model.modelName(), streaming, request));
            ChatResponse response;
            try {
                response = hooks.ask(model, request);
                if (response == null) {
                    throw new ChatModelException("The chat model " + model + " returned null instead of a response");
                }
            } catch (RuntimeException e) {
                observation.failed(e instanceof StoreFailure failure ? failure.storeException : e);
                throw e;
            }
            observation.succeeded(response);
            usage = usage.plus(response.usage());
            if (!response.text().isBlank()) {
                lastText = response.text();
            }
            return response;
        }

        /** Appends the answer and one result per call: the model APIs require a result for every call id. */
        private void remember(ChatResponse response, Round round) {
            List<ToolCall> calls = response.toolCalls();
            if (round.results().size() != calls.size()) {
                throw new IllegalStateException(
                        "got " + round.results().size() + " results for " + calls.size() + " tool calls");
            }
            history.add(AssistantMessage.of(response));
            for (int i = 0; i < calls.size(); i++) {
                ToolCall call = calls.get(i);
                ToolResult result = round.results().get(i);
                history.add(new ToolResultMessage(call.id(), call.name(), result.text(), result.isError()));
            }
        }

        private Outcome stopped(Stop stop, List<ToolCall> callsNotRun) {
            return new Outcome(stop, Optional.empty(), iteration, usage, lastText, callsNotRun);
        }

        private Outcome failed(RunError.Stage stage, String toolName, RuntimeException cause) {
            RunError error = new RunError(stage, toolName, iteration, cause);
            reportFailure(subject, error);
            return new Outcome(Stop.FAILED, Optional.of(error), iteration, usage, lastText, List.of());
        }
    }

    /** The tool's own exception: the error names the tool already. */
    private static RuntimeException thrownByTool(ToolExecutionException e) {
        return e.getCause() instanceof RuntimeException cause ? cause : e;
    }
}
