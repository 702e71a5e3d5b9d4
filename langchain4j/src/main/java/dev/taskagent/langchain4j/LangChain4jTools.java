package dev.taskagent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Any taskagent {@link Toolbox} as LangChain4j tools, for {@code AiServices}: the queue's tools, the worker
 * tools, the Taskfile tools or your own, each with its name, description and JSON schema.
 *
 * <pre>{@code
 * Worker worker = AiServices.builder(Worker.class)
 *         .chatModel(openAi)
 *         .toolProvider(LangChain4jTools.toolProvider(queue.workerTools()))
 *         .build();
 * }</pre>
 *
 * <p>A call runs {@link Toolbox#call}: bad arguments and refusals come back to the model as error results
 * it can act on (LangChain4j's {@code ToolExecutionResult.isError()}), exactly as in taskagent's own loop;
 * a hard failure (the store is unreachable) is thrown as taskagent's {@code ToolExecutionException}, and
 * LangChain4j's tool-execution error handling decides what the model is told.
 *
 * <p>Thread-safe when the toolbox's tools are.
 */
public final class LangChain4jTools {
    private static final RequestMapping MAPPING = new RequestMapping();

    private LangChain4jTools() {}

    /**
     * The toolbox as a LangChain4j tool provider, for {@code AiServices.builder(…).toolProvider(…)}.
     *
     * @param toolbox the tools
     * @return a provider that offers every tool of the toolbox on every request
     * @throws IllegalArgumentException if a tool's schema uses JSON Schema that LangChain4j cannot carry
     */
    public static ToolProvider toolProvider(Toolbox toolbox) {
        ToolProviderResult result = new ToolProviderResult(tools(toolbox));
        return request -> result;
    }

    /**
     * The toolbox as LangChain4j tool specifications with their executors, for {@code
     * AiServices.builder(…).tools(map)}.
     *
     * @param toolbox the tools
     * @return each tool's specification and an executor that runs it, in the toolbox's order
     * @throws IllegalArgumentException if a tool's schema uses JSON Schema that LangChain4j cannot carry
     */
    public static Map<ToolSpecification, ToolExecutor> tools(Toolbox toolbox) {
        Objects.requireNonNull(toolbox, "toolbox");
        List<ToolDefinition> definitions = toolbox.definitions();
        List<ToolSpecification> specifications = MAPPING.toolSpecifications(definitions);
        Map<ToolSpecification, ToolExecutor> tools = new LinkedHashMap<>();
        for (ToolSpecification specification : specifications) {
            tools.put(specification, new ToolboxExecutor(toolbox));
        }
        return tools;
    }

    /** Runs a LangChain4j tool request through the toolbox. */
    private record ToolboxExecutor(Toolbox toolbox) implements ToolExecutor {
        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return run(request).text();
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            ToolResult result = run(request);
            return ToolExecutionResult.builder()
                    .isError(result.isError())
                    .resultText(result.text())
                    .build();
        }

        private ToolResult run(ToolExecutionRequest request) {
            String id = request.id() == null ? "langchain4j-call" : request.id();
            String arguments =
                    request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
            return toolbox.call(new ToolCall(id, request.name(), arguments));
        }
    }
}
