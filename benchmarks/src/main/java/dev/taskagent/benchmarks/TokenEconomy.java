package dev.taskagent.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.taskagent.dialect.ClaudeTaskTools;
import dev.taskagent.dialect.TodoTools;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Counts the tokens a model spends on the queue's two one-call tools against the three-call workflows
 * they replace, with a real tokenizer (jtokkit, {@code o200k_base}) on the real tool definitions and the
 * real results of the queue's tools on an in-memory store.
 *
 * <p>The scenario is the same for both variants of a workflow and ends in the same task, which {@link
 * #measure()} checks: agent {@code alice} has three tasks in her queue (one running, two idle); the one
 * she claims has a description, a creator, 3 comments and 2 links. Signup: {@code get_my_queue} →
 * {@code update_task} (status running) → {@code get_task}, against {@code signup_for_task}. Move (the
 * claimed task, to {@code bob}, with a hand-over comment): {@code update_task} (assignee, status) →
 * {@code add_comment} → {@code get_task}, against {@code move_task}.
 *
 * <p>Two figures per workflow:
 *
 * <ul>
 *   <li><b>once</b>: the definitions of the tools the workflow uses, each call (tool name and arguments
 *       JSON) and each result text, each counted once;
 *   <li><b>billed</b>: what the round trips cost when each model request re-sends those definitions and
 *       the history so far: request {@code k} holds the definitions plus every earlier call and result,
 *       its answer is call {@code k}, and one last request reads the last result.
 * </ul>
 *
 * <p>{@link #measureToolsets()} counts what a whole task costs with each of the queue's two toolsets, the
 * full one ({@code TaskQueue.tools()}) and the worker one ({@code TaskQueue.workerTools()}), when every
 * request carries all of its toolset's definitions, as a model's requests do: claim, comment, complete.
 *
 * <p>A definition is counted as the JSON of an OpenAI-style {@code function} tool; the few tokens of
 * message framing an API adds per message are not counted (they would add to the three-call side).
 *
 * <p>Run: {@code ./mvnw -q -pl benchmarks -am package -DskipTests -Ptoken-economy}. Not thread-safe
 * (a program).
 */
public final class TokenEconomy {

    static final String AGENT = "alice";
    static final String NEXT_AGENT = "bob";
    static final String HANDOVER_COMMENT =
            "Export now runs on the job queue (PR linked). Left: the index migration and a load test with 50k"
                    + " invoices.";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TokenEconomy() {}

    /**
     * The tokens of one workflow.
     *
     * @param label the tools it calls, in order
     * @param calls how many tool calls it makes
     * @param definitions tokens of the definitions of the tools it uses
     * @param callTokens tokens of its calls (names and arguments)
     * @param results tokens of its results
     * @param billed tokens of all round trips, definitions and history re-sent with each request
     */
    public record Workflow(String label, int calls, int definitions, int callTokens, int results, int billed) {
        /** @return definitions, calls and results, each counted once */
        public int total() {
            return definitions + callTokens + results;
        }
    }

    /**
     * A one-call tool against the three-call workflow it replaces.
     *
     * @param name {@code signup} or {@code move}
     * @param threeCalls the workflow with the single-step tools
     * @param oneCall the workflow with the one-call tool
     */
    public record Comparison(String name, Workflow threeCalls, Workflow oneCall) {
        /** @return the share of tokens (counted once) the one-call tool saves, 0..1 */
        public double saving() {
            return 1.0 - (double) oneCall.total() / threeCalls.total();
        }

        /** @return the share of billed tokens the one-call tool saves, 0..1 */
        public double billedSaving() {
            return 1.0 - (double) oneCall.billed() / threeCalls.billed();
        }
    }

    /**
     * One toolset running "claim, comment, complete" when every request carries all its definitions.
     *
     * @param name {@code queue} (the full toolset) or {@code worker}
     * @param tools how many tools the toolset defines
     * @param definitions tokens of all its definitions: what every request pays for them
     * @param billed tokens of the four requests of the workflow (three calls and the request that reads
     *     the last result), each with all the definitions and the history so far
     */
    public record Toolset(String name, int tools, int definitions, int billed) {}

    /**
     * Prints the tables of {@link #measure()} and {@link #measureToolsets()}.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println(table(measure()));
        System.out.println(toolsetTable(measureToolsets()));
        System.out.println(dialectTable());
        System.out.println(ExtractionInputTokens.table(ExtractionInputTokens.measureAll()));
    }

    /**
     * What the definitions of the dialect toolsets (todo: {@code TodoWrite}, {@code TodoRead}; Claude's task
     * tools) cost per request, beside taskagent's own toolsets.
     *
     * @return a Markdown table: toolset, tools, definitions per request
     */
    public static String dialectTable() {
        Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        TaskQueue queue = TaskQueue.builder(new InMemoryTaskStore()).build();
        StringBuilder text = new StringBuilder("Dialect toolsets (jtokkit o200k_base): definitions per request\n\n");
        text.append("| toolset | tools | definitions per request |\n| --- | ---: | ---: |\n");
        for (Map.Entry<String, Toolbox> toolset : Map.of(
                        "todo (TodoWrite, TodoRead)", TodoTools.forSession(queue.store(), "session"),
                        "claude-tasks (TaskCreate, TaskGet, TaskUpdate, TaskList)",
                                ClaudeTaskTools.forSession(queue.store(), "session"),
                        "worker", queue.workerTools(),
                        "queue", queue.tools(),
                        "queue and graph", queue.tools().with(queue.graphTools()))
                .entrySet()
                .stream()
                .sorted(Map.Entry.comparingByKey(Comparator.reverseOrder()))
                .toList()) {
            int definitions = 0;
            for (ToolDefinition definition : toolset.getValue().definitions()) {
                definitions += encoding.countTokensOrdinary(Scenario.definitionJson(definition));
            }
            text.append("| ")
                    .append(toolset.getKey())
                    .append(" | ")
                    .append(toolset.getValue().definitions().size())
                    .append(" | ")
                    .append(definitions)
                    .append(" |\n");
        }
        return text.toString();
    }

    /**
     * Runs "claim, comment, complete" ({@code signup_for_task}, {@code add_comment}, {@code complete_task})
     * with the full queue toolset and with the worker toolset, each on a fresh in-memory store, and counts
     * what the requests cost when each carries every definition of its toolset.
     *
     * @return the full toolset, then the worker toolset
     * @throws IllegalStateException if a tool fails or the two runs end differently
     */
    public static List<Toolset> measureToolsets() {
        Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        Scenario full = new Scenario();
        Scenario worker = new Scenario();
        Toolset fullRun = full.runToolset(encoding, "queue", full.queue.tools());
        Toolset workerRun = worker.runToolset(encoding, "worker", worker.queue.workerTools());
        checkSameEnd(full, worker, full.claimableTaskId);
        return List.of(fullRun, workerRun);
    }

    /**
     * Renders toolset figures as a Markdown table.
     *
     * @param toolsets from {@link #measureToolsets()}
     * @return the table
     */
    public static String toolsetTable(List<Toolset> toolsets) {
        StringBuilder text = new StringBuilder();
        text.append("Toolsets (jtokkit o200k_base): claim, comment, complete\n\n");
        text.append("| toolset | tools | definitions per request | billed, 3 calls | saving |\n");
        text.append("| --- | ---: | ---: | ---: | ---: |\n");
        Toolset first = toolsets.get(0);
        for (Toolset toolset : toolsets) {
            text.append("| ")
                    .append(toolset.name())
                    .append(" | ")
                    .append(toolset.tools())
                    .append(" | ")
                    .append(toolset.definitions())
                    .append(" | ")
                    .append(toolset.billed())
                    .append(" | ")
                    .append(toolset == first ? "—" : percent(1.0 - (double) toolset.billed() / first.billed()))
                    .append(" |\n");
        }
        return text.toString();
    }

    /**
     * Runs both workflows of signup and move on fresh in-memory stores and counts their tokens.
     *
     * @return the signup comparison, then the move comparison
     * @throws IllegalStateException if a tool fails or the two variants of a workflow end differently
     */
    public static List<Comparison> measure() {
        Encoding encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        return List.of(signup(encoding), move(encoding));
    }

    /**
     * Renders comparisons as a Markdown table.
     *
     * @param comparisons from {@link #measure()}
     * @return the table
     */
    public static String table(List<Comparison> comparisons) {
        StringBuilder text = new StringBuilder();
        text.append("Token economy (jtokkit o200k_base): task with 3 comments and 2 links\n\n");
        text.append("| workflow | tool calls | definitions | calls | results | once | saving | billed | saving |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Comparison comparison : comparisons) {
            row(text, comparison.name(), comparison.threeCalls(), "");
            row(
                    text,
                    comparison.name(),
                    comparison.oneCall(),
                    percent(comparison.saving()) + " | " + comparison.oneCall().billed() + " | "
                            + percent(comparison.billedSaving()));
        }
        return text.toString();
    }

    private static void row(StringBuilder text, String name, Workflow workflow, String savings) {
        text.append("| ")
                .append(name)
                .append(": ")
                .append(workflow.label())
                .append(" | ")
                .append(workflow.calls())
                .append(" | ")
                .append(workflow.definitions())
                .append(" | ")
                .append(workflow.callTokens())
                .append(" | ")
                .append(workflow.results())
                .append(" | ")
                .append(workflow.total())
                .append(" | ");
        if (savings.isEmpty()) {
            text.append("— | ").append(workflow.billed()).append(" | — |\n");
        } else {
            text.append(savings).append(" |\n");
        }
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }

    private static Comparison signup(Encoding encoding) {
        Scenario threeCalls = new Scenario();
        long taskId = threeCalls.claimableTaskId;
        Workflow before = threeCalls.run(
                encoding,
                call("get_my_queue", "{\"agent_name\":\"" + AGENT + "\"}"),
                call("update_task", "{\"task_id\":" + taskId + ",\"status\":\"running\"}"),
                call("get_task", "{\"task_id\":" + taskId + "}"));
        Scenario oneCall = new Scenario();
        Workflow after = oneCall.run(encoding, call("signup_for_task", "{\"agent_name\":\"" + AGENT + "\"}"));
        checkSameEnd(threeCalls, oneCall, taskId);
        return new Comparison("signup", before, after);
    }

    private static Comparison move(Encoding encoding) {
        Scenario threeCalls = new Scenario();
        long taskId = threeCalls.claimWithJavaApi();
        Workflow before = threeCalls.run(
                encoding,
                call(
                        "update_task",
                        "{\"task_id\":" + taskId + ",\"assignee\":\"" + NEXT_AGENT + "\",\"status\":\"pending\"}"),
                call(
                        "add_comment",
                        "{\"task_id\":" + taskId + ",\"author\":\"" + AGENT + "\",\"comment\":" + json(HANDOVER_COMMENT)
                                + "}"),
                call("get_task", "{\"task_id\":" + taskId + "}"));
        Scenario oneCall = new Scenario();
        oneCall.claimWithJavaApi();
        Workflow after = oneCall.run(
                encoding,
                call(
                        "move_task",
                        "{\"task_id\":" + taskId + ",\"current_agent\":\"" + AGENT + "\",\"new_agent\":\"" + NEXT_AGENT
                                + "\",\"comment\":" + json(HANDOVER_COMMENT) + "}"));
        checkSameEnd(threeCalls, oneCall, taskId);
        return new Comparison("move", before, after);
    }

    private static String withoutLease(String view) {
        return view.replaceAll(",\"attempt\":\\d+,\"lease_until\":\"[^\"]*\"", "");
    }

    /** Both variants must leave the task exactly as the model sees it, or the comparison is unfair. */
    private static void checkSameEnd(Scenario threeCalls, Scenario oneCall, long taskId) {
        // The claim's lease (attempt and expiry) has no three-call equivalent: the single-step tools cannot
        // set one. Compared without it, the two must be the same.
        String expected = withoutLease(threeCalls.view(taskId));
        String actual = withoutLease(oneCall.view(taskId));
        if (!expected.equals(actual)) {
            throw new IllegalStateException(
                    "The workflows end differently:\nthree calls: " + expected + "\none call:    " + actual);
        }
    }

    private static ToolCall call(String tool, String argumentsJson) {
        return new ToolCall("call_" + tool, tool, argumentsJson);
    }

    private static String json(String text) {
        try {
            return MAPPER.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh store and queue holding alice's three tasks, on a clock that stands still. */
    static final class Scenario {
        private final TaskQueue queue;
        private final Toolbox tools;
        private final long claimableTaskId;

        Scenario() {
            queue = TaskQueue.builder(new InMemoryTaskStore(MutableClock.standard()))
                    .build();
            tools = queue.tools();
            queue.create(queue.newTask("Renew the TLS certificate of the staging cluster")
                    .priority(3)
                    .assignee(AGENT)
                    .createdBy("carol")
                    .build());
            queue.claimNext(AGENT);
            Task claimable = queue.create(
                    queue.newTask("Move the invoice export from the nightly cron job to the job queue, so that exports"
                                    + " for large customers no longer time out.")
                            .priority(2)
                            .assignee(AGENT)
                            .createdBy("carol")
                            .build());
            queue.create(queue.newTask("Write the release notes for billing 2.4")
                    .priority(1)
                    .assignee(AGENT)
                    .createdBy("carol")
                    .build());
            long id = claimable.id();
            queue.comment(
                    id, "carol", "The cron job times out after 30 minutes for customers with more than 50k invoices.");
            queue.comment(
                    id, "bob", "The job queue already retries failed jobs; reuse InvoiceExportJob for the payload.");
            queue.comment(id, "dave", "ACME reported the timeout again today (ticket 9120).");
            queue.link(id, "https://git.example.com/billing/pull/482", "PR: export on the job queue", "bob");
            queue.link(id, "https://wiki.example.com/ops/job-queue", "Job queue runbook", "dave");
            claimableTaskId = id;
        }

        long claimWithJavaApi() {
            Task claimed = queue.claimNext(AGENT).orElseThrow();
            if (claimed.id() != claimableTaskId) {
                throw new IllegalStateException("Expected to claim task " + claimableTaskId + ", got " + claimed);
            }
            return claimed.id();
        }

        String view(long taskId) {
            return tools.call(new ToolCall("view", "get_task", "{\"task_id\":" + taskId + "}"))
                    .text();
        }

        Workflow run(Encoding encoding, ToolCall... calls) {
            List<String> toolNames = new ArrayList<>();
            for (ToolCall call : calls) {
                if (!toolNames.contains(call.name())) {
                    toolNames.add(call.name());
                }
            }
            int definitions = 0;
            for (String name : toolNames) {
                definitions += encoding.countTokensOrdinary(
                        definitionJson(tools.tool(name).orElseThrow().definition()));
            }
            int callTokens = 0;
            int resultTokens = 0;
            int history = 0;
            int billed = 0;
            for (ToolCall call : calls) {
                ToolResult result = tools.call(call);
                if (result.isError()) {
                    throw new IllegalStateException(call.name() + " failed: " + result.text());
                }
                int callCost =
                        encoding.countTokensOrdinary(call.name()) + encoding.countTokensOrdinary(call.argumentsJson());
                int resultCost = encoding.countTokensOrdinary(result.text());
                billed += definitions + history + callCost; // the request, and the call it answers with
                history += callCost + resultCost;
                callTokens += callCost;
                resultTokens += resultCost;
            }
            billed += definitions + history; // the request that reads the last result
            return new Workflow(
                    String.join(" + ", toolNames), calls.length, definitions, callTokens, resultTokens, billed);
        }

        Toolset runToolset(Encoding encoding, String name, Toolbox toolset) {
            int definitions = 0;
            for (ToolDefinition definition : toolset.definitions()) {
                definitions += encoding.countTokensOrdinary(Scenario.definitionJson(definition));
            }
            ToolResult claim = toolset.call(call("signup_for_task", "{\"agent_name\":\"" + AGENT + "\"}"));
            if (claim.isError() || !claim.text().contains("#" + claimableTaskId + " ")) {
                throw new IllegalStateException(
                        "signup_for_task did not claim task " + claimableTaskId + ": " + claim.text());
            }
            int attempt = queue.get(claimableTaskId).orElseThrow().attempt();
            ToolCall[] calls = {
                call(
                        "add_comment",
                        "{\"task_id\":" + claimableTaskId + ",\"author\":\"" + AGENT
                                + "\",\"comment\":\"Export moved to the job queue; load test passed.\"}"),
                call(
                        "complete_task",
                        "{\"task_id\":" + claimableTaskId + ",\"agent_name\":\"" + AGENT + "\",\"attempt\":" + attempt
                                + ",\"status\":\"success\"}")
            };
            int history = encoding.countTokensOrdinary("signup_for_task")
                    + encoding.countTokensOrdinary("{\"agent_name\":\"" + AGENT + "\"}");
            int billed = definitions + history; // the request that answers with the claim
            history += encoding.countTokensOrdinary(claim.text());
            for (ToolCall call : calls) {
                ToolResult result = toolset.call(call);
                if (result.isError()) {
                    throw new IllegalStateException(call.name() + " failed: " + result.text());
                }
                int callCost =
                        encoding.countTokensOrdinary(call.name()) + encoding.countTokensOrdinary(call.argumentsJson());
                billed += definitions + history + callCost;
                history += callCost + encoding.countTokensOrdinary(result.text());
            }
            billed += definitions + history; // the request that reads the last result
            return new Toolset(name, toolset.definitions().size(), definitions, billed);
        }

        /** The definition as an OpenAI-style function tool in a request. */
        static String definitionJson(ToolDefinition definition) {
            try {
                ObjectNode function = JsonNodeFactory.instance.objectNode();
                function.put("name", definition.name());
                function.put("description", definition.description());
                function.set("parameters", MAPPER.readTree(definition.parametersSchemaJson()));
                ObjectNode tool = JsonNodeFactory.instance.objectNode();
                tool.put("type", "function");
                tool.set("function", function);
                return MAPPER.writeValueAsString(tool);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
