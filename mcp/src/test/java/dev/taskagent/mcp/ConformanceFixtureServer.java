package dev.taskagent.mcp;

import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolHints;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The MCP server with, besides the queue tools, the fixture tools that the conformance suite's Tasks
 * extension scenarios call ({@code greet}, {@code slow_compute}, {@code failing_job}, {@code
 * protocol_error_job}): run by {@link ConformanceSuiteIT} only, so that those scenarios test the server's
 * Tasks extension (the same code that serves {@code run_user_task}) without serving fixtures to agents.
 * Prints its endpoint on standard error as the runnable jar does.
 */
final class ConformanceFixtureServer {
    private ConformanceFixtureServer() {}

    public static void main(String[] args) throws InterruptedException {
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskMcpServer server = TaskMcpServer.builder(store)
                .bind("127.0.0.1", 0)
                .extraTools(fixtures(), Set.of("slow_compute", "failing_job", "protocol_error_job"))
                .build()
                .start();
        System.err.println("conformance fixture server: serving " + server.toolNames() + " at " + server.endpoint());
        server.awaitTermination();
    }

    private static Toolbox fixtures() {
        Tool greet = Tool.of(
                        "greet",
                        "Greets someone (a conformance fixture).",
                        JsonSchema.object().requiredString("name", "Who to greet"),
                        arguments -> ToolResult.ok("Hello, " + arguments.requiredString("name") + "!"))
                .withHints(ToolHints.readOnly("Greet"));
        Tool slowCompute = Tool.of(
                        "slow_compute",
                        "Waits the given seconds, then answers (a conformance fixture).",
                        JsonSchema.object()
                                .requiredInteger("seconds", "How long to wait")
                                .optionalString("label", "A label to echo"),
                        arguments -> {
                            int seconds = arguments.requiredInt("seconds");
                            String label = arguments.optionalString("label").orElse("");
                            return waitFor(seconds)
                                    ? ToolResult.ok("Computed " + label + " in " + seconds + " s")
                                    : ToolResult.error("Interrupted");
                        })
                .withHints(ToolHints.readOnly("Slow compute"));
        Tool failingJob = Tool.of(
                        "failing_job",
                        "Fails after a second (a conformance fixture).",
                        JsonSchema.object(),
                        arguments -> {
                            waitFor(1);
                            return ToolResult.error("The job failed, as it always does");
                        })
                .withHints(ToolHints.readOnly("Failing job"));
        Tool protocolErrorJob = Tool.of(
                        "protocol_error_job",
                        "Throws on the server (a conformance fixture).",
                        JsonSchema.object(),
                        arguments -> {
                            throw new IllegalStateException("protocol_error_job fails on the server");
                        })
                .withHints(ToolHints.readOnly("Protocol error job"));
        return Toolbox.of(List.of(greet, slowCompute, failingJob, protocolErrorJob));
    }

    /** Waits, interruptibly; false when interrupted (a cancelled task). */
    private static boolean waitFor(int seconds) {
        try {
            new CountDownLatch(1).await(seconds, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
