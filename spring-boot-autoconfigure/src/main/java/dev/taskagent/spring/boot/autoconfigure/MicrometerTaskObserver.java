package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.observe.ExtractionOutcome;
import dev.taskagent.observe.ModelCall;
import dev.taskagent.observe.TaskObserver;
import dev.taskagent.observe.ToolExecution;
import dev.taskagent.store.ReclaimedTask;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;

/**
 * Records what taskagent does as Micrometer observations and metrics, in the OpenTelemetry GenAI conventions
 * for model calls and tool executions:
 *
 * <ul>
 *   <li>model calls: observation {@value #MODEL_OPERATION} with {@code gen_ai.operation.name}, {@code
 *       gen_ai.provider.name}, {@code gen_ai.request.model}, {@code gen_ai.response.finish_reasons} and {@code
 *       error.type}; tokens in the histogram {@value #TOKEN_USAGE} tagged {@code gen_ai.token.type} ({@code
 *       input} or {@code output});
 *   <li>tool executions: observation {@value #TOOL_EXECUTION} with {@code gen_ai.tool.name} and {@code
 *       error.type} ({@code tool_error} for an error result, the exception's class when the tool threw);
 *   <li>the queue: timer {@value #CLAIMS} tagged {@code outcome} ({@code claimed}, {@code empty}, {@code error}),
 *       counters {@value #COMPLETIONS} tagged {@code status} and {@value #LEASES_EXPIRED} tagged {@code outcome}
 *       ({@code requeued}, {@code dead_lettered});
 *   <li>extraction: timer {@value #EXTRACTION_RUNS} tagged {@code outcome} and summary {@value
 *       #EXTRACTION_ITERATIONS}.
 * </ul>
 *
 * <p>Tag keys are the same whatever the outcome ({@code error.type} is {@code none} on success), as Prometheus
 * requires. Prompts, answers, tool arguments and results are added (as high-cardinality key values, which
 * tracing sees and metrics do not) only when {@code includeContent} is true.
 *
 * <p>Thread-safe.
 */
public final class MicrometerTaskObserver implements TaskObserver {
    /** The observation of a model call. */
    public static final String MODEL_OPERATION = "gen_ai.client.operation";
    /** The histogram of the tokens of model calls. */
    public static final String TOKEN_USAGE = "gen_ai.client.token.usage";
    /** The observation of a tool execution. */
    public static final String TOOL_EXECUTION = "execute_tool";
    /** The timer of claims. */
    public static final String CLAIMS = "taskagent.queue.claims";
    /** The counter of completions. */
    public static final String COMPLETIONS = "taskagent.queue.completions";
    /** The counter of expired leases taken back. */
    public static final String LEASES_EXPIRED = "taskagent.queue.leases.expired";
    /** The timer of extraction runs. */
    public static final String EXTRACTION_RUNS = "taskagent.extraction.runs";
    /** The summary of model calls per extraction run. */
    public static final String EXTRACTION_ITERATIONS = "taskagent.extraction.iterations";

    static final String OPERATION_NAME = "gen_ai.operation.name";
    static final String PROVIDER_NAME = "gen_ai.provider.name";
    static final String REQUEST_MODEL = "gen_ai.request.model";
    static final String FINISH_REASONS = "gen_ai.response.finish_reasons";
    static final String TOKEN_TYPE = "gen_ai.token.type";
    static final String TOOL_NAME = "gen_ai.tool.name";
    static final String ERROR_TYPE = "error.type";
    static final String NONE = "none";
    static final String TOOL_ERROR = "tool_error";
    static final String EXECUTE_TOOL = "execute_tool";

    /** The longest content text put in an observation; longer ones are cut. */
    static final int MAX_CONTENT_LENGTH = 8192;

    private final ObservationRegistry observations;
    private final MeterRegistry meters;
    private final boolean includeContent;

    /**
     * Creates the observer.
     *
     * @param observations where the observations of model calls and tool executions go
     * @param meters where the token histogram and the queue and extraction metrics go
     * @param includeContent whether prompts, answers, tool arguments and results are added to observations
     */
    public MicrometerTaskObserver(ObservationRegistry observations, MeterRegistry meters, boolean includeContent) {
        this.observations = Objects.requireNonNull(observations, "observations");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.includeContent = includeContent;
    }

    @Override
    public Scope<ChatResponse> modelCallStarted(ModelCall call) {
        Observation observation = Observation.createNotStarted(MODEL_OPERATION, observations)
                .contextualName(call.operationName() + " " + call.requestModel())
                .lowCardinalityKeyValue(OPERATION_NAME, call.operationName())
                .lowCardinalityKeyValue(PROVIDER_NAME, call.providerName())
                .lowCardinalityKeyValue(REQUEST_MODEL, call.requestModel());
        if (includeContent) {
            observation.highCardinalityKeyValue(
                    "gen_ai.system_instructions", cut(call.request().systemPrompt()));
            observation.highCardinalityKeyValue(
                    "gen_ai.input.messages", cut(String.valueOf(call.request().messages())));
        }
        observation.start();
        return new Scope<>() {
            @Override
            public void succeeded(ChatResponse response) {
                observation.lowCardinalityKeyValue(
                        FINISH_REASONS, response.finishReason().name().toLowerCase(Locale.ROOT));
                observation.lowCardinalityKeyValue(ERROR_TYPE, NONE);
                TokenUsage usage = response.usage();
                observation.highCardinalityKeyValue("gen_ai.usage.input_tokens", Long.toString(usage.inputTokens()));
                observation.highCardinalityKeyValue("gen_ai.usage.output_tokens", Long.toString(usage.outputTokens()));
                if (includeContent) {
                    observation.highCardinalityKeyValue(
                            "gen_ai.output.messages", cut(response.text() + " " + response.toolCalls()));
                }
                tokens(call, "input").record(usage.inputTokens());
                tokens(call, "output").record(usage.outputTokens());
                observation.stop();
            }

            @Override
            public void failed(Throwable error) {
                observation.lowCardinalityKeyValue(FINISH_REASONS, NONE);
                observation.lowCardinalityKeyValue(ERROR_TYPE, error.getClass().getName());
                observation.error(error);
                observation.stop();
            }
        };
    }

    private DistributionSummary tokens(ModelCall call, String type) {
        return DistributionSummary.builder(TOKEN_USAGE)
                .description("Tokens of model calls, by type")
                .baseUnit("tokens")
                .tag(OPERATION_NAME, call.operationName())
                .tag(PROVIDER_NAME, call.providerName())
                .tag(REQUEST_MODEL, call.requestModel())
                .tag(TOKEN_TYPE, type)
                .register(meters);
    }

    @Override
    public Scope<ToolResult> toolExecutionStarted(ToolExecution call) {
        Observation observation = Observation.createNotStarted(TOOL_EXECUTION, observations)
                .contextualName(EXECUTE_TOOL + " " + call.toolName())
                .lowCardinalityKeyValue(OPERATION_NAME, EXECUTE_TOOL)
                .lowCardinalityKeyValue(TOOL_NAME, call.toolName())
                .highCardinalityKeyValue("gen_ai.tool.call.id", call.call().id());
        if (includeContent) {
            observation.highCardinalityKeyValue(
                    "gen_ai.tool.call.arguments", cut(call.call().argumentsJson()));
        }
        observation.start();
        return new Scope<>() {
            @Override
            public void succeeded(ToolResult result) {
                observation.lowCardinalityKeyValue(ERROR_TYPE, result.isError() ? TOOL_ERROR : NONE);
                if (includeContent) {
                    observation.highCardinalityKeyValue("gen_ai.tool.call.result", cut(result.text()));
                }
                observation.stop();
            }

            @Override
            public void failed(Throwable error) {
                observation.lowCardinalityKeyValue(ERROR_TYPE, error.getClass().getName());
                observation.error(error);
                observation.stop();
            }
        };
    }

    @Override
    public Scope<Task> claimStarted(String agent) {
        Timer.Sample sample = Timer.start(meters);
        return new Scope<>() {
            @Override
            public void succeeded(Task task) {
                sample.stop(claims(task == null ? "empty" : "claimed"));
            }

            @Override
            public void failed(Throwable error) {
                sample.stop(claims("error"));
            }
        };
    }

    private Timer claims(String outcome) {
        return Timer.builder(CLAIMS)
                .description("Claims of the next task, by outcome: claimed, empty (no idle task) or error")
                .tag("outcome", outcome)
                .register(meters);
    }

    @Override
    public void taskCompleted(Task task, String agent, TaskStatus outcome) {
        Counter.builder(COMPLETIONS)
                .description("Claims completed, by status")
                .tag("status", outcome.wireName())
                .register(meters)
                .increment();
    }

    @Override
    public void leaseExpired(ReclaimedTask reclaimed) {
        Counter.builder(LEASES_EXPIRED)
                .description("Claims whose lease expired and that were taken back: requeued or dead_lettered")
                .tag("outcome", reclaimed.outcome().name().toLowerCase(Locale.ROOT))
                .register(meters)
                .increment();
    }

    @Override
    public Scope<ExtractionOutcome> extractionStarted(String sessionId) {
        Timer.Sample sample = Timer.start(meters);
        return new Scope<>() {
            @Override
            public void succeeded(ExtractionOutcome run) {
                sample.stop(runs(run.stopReason().name().toLowerCase(Locale.ROOT)));
                DistributionSummary.builder(EXTRACTION_ITERATIONS)
                        .description("Model calls per extraction run")
                        .register(meters)
                        .record(run.iterations());
            }

            @Override
            public void failed(Throwable error) {
                sample.stop(runs("error"));
            }
        };
    }

    private Timer runs(String outcome) {
        return Timer.builder(EXTRACTION_RUNS)
                .description("Extraction runs, by how they stopped")
                .tag("outcome", outcome)
                .register(meters);
    }

    private static String cut(String text) {
        return text.length() <= MAX_CONTENT_LENGTH ? text : text.substring(0, MAX_CONTENT_LENGTH) + "…";
    }

    @Override
    public String toString() {
        return "MicrometerTaskObserver[includeContent=" + includeContent + "]";
    }
}
