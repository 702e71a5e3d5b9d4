package dev.taskagent.examples;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.tool.JsonSchema;
import dev.taskagent.tool.Tool;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writing your own {@link Tool} with {@link Tool#of}: a currency converter with a JSON schema, typed
 * arguments and errors written for the model. A {@link Toolbox} dispatches the model's calls; a missing argument, a wrong
 * type or an unknown tool comes back as an error result the model can act on, never as an exception.
 */
public final class CustomToolExample {
    private CustomToolExample() {}

    private static final Map<String, Double> EUR_PER_UNIT = Map.of("EUR", 1.0, "USD", 0.92, "THB", 0.026);
    private static final List<String> CURRENCIES = List.of("EUR", "USD", "THB");

    /** Converts between a few currencies at fixed rates. Thread-safe (stateless). */
    static final Tool CONVERT_CURRENCY = Tool.of(
            "convert_currency",
            "Converts an amount of money between EUR, USD and THB at today's fixed rates.",
            JsonSchema.object()
                    .requiredInteger("amount", "The amount, in whole units of the source currency")
                    .requiredStringEnum("from", "Source currency", CURRENCIES)
                    .requiredStringEnum("to", "Target currency", CURRENCIES),
            CustomToolExample::convert);

    private static ToolResult convert(ToolArguments arguments) {
        long amount = arguments.requiredLong("amount");
        String from = arguments.requiredChoice("from", CURRENCIES);
        String to = arguments.requiredChoice("to", CURRENCIES);
        double converted = amount * EUR_PER_UNIT.get(from) / EUR_PER_UNIT.get(to);
        return ToolResult.ok(String.format(Locale.ROOT, "%d %s = %.2f %s", amount, from, converted, to));
    }

    /**
     * Runs the example and prints to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }

    /**
     * Calls the tool as a model would: once right, then with the mistakes models make.
     *
     * @param out where to print
     * @return the results, in order
     */
    public static List<ToolResult> run(PrintStream out) {
        Toolbox toolbox = Toolbox.of(CONVERT_CURRENCY);
        out.println("The model sees: " + toolbox.definitions());
        List<ToolCall> calls = List.of(
                new ToolCall("1", "convert_currency", "{\"amount\":1500,\"from\":\"THB\",\"to\":\"EUR\"}"),
                new ToolCall("2", "convert_currency", "{\"amount\":\"lots\",\"from\":\"THB\",\"to\":\"EUR\"}"),
                new ToolCall("3", "convert_currency", "{\"from\":\"THB\",\"to\":\"EUR\"}"),
                new ToolCall("4", "convert_currency", "{\"amount\":10,\"from\":\"GBP\",\"to\":\"EUR\"}"),
                new ToolCall("5", "convert_currencies", "{}"),
                new ToolCall("6", "convert_currency", "amount=10"));
        return calls.stream()
                .map(call -> {
                    ToolResult result = toolbox.call(call);
                    out.println(call.name() + " " + call.argumentsJson() + " -> " + (result.isError() ? "error: " : "")
                            + result.text());
                    return result;
                })
                .toList();
    }
}
