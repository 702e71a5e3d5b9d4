package dev.taskagent.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The performance targets, for a 2-core machine with the database on it, and how each figure is read:
 * claims per second and claim p99 per store, the extraction iteration, Markdown steps and step markers.
 */
final class Targets {
    private Targets() {}

    /**
     * Claims per second, for 16 workers: on one assignee, and on 16 assignees. There is no target for 1
     * or 4 workers.
     */
    static Optional<Double> claimsPerSecond(String store, int assignees, int threads) {
        if (threads != 16) {
            return Optional.empty();
        }
        boolean shared = assignees == 1;
        return Optional.of(
                switch (store) {
                    case "inmemory" -> 200_000.0;
                    case "h2" -> shared ? 600.0 : 4_000.0;
                    case "postgres" -> shared ? 1_500.0 : 2_000.0;
                    case "mariadb" -> shared ? 800.0 : 1_200.0;
                    default -> throw new IllegalArgumentException("Unknown store " + store);
                });
    }

    /**
     * The p99 of a claim in milliseconds at 16, 4 and 1 workers, one target per store and worker count,
     * applied to both the shared assignee and the 16 assignees.
     */
    static Optional<Double> claimP99Millis(String store, int threads) {
        double[] at16And4And1 =
                switch (store) {
                    case "inmemory" -> new double[] {1, 0.5, 0.1};
                    case "h2" -> new double[] {100, 25, 5};
                    case "postgres" -> new double[] {50, 20, 5};
                    case "mariadb" -> new double[] {60, 25, 8};
                    default -> throw new IllegalArgumentException("Unknown store " + store);
                };
        return switch (threads) {
            case 16 -> Optional.of(at16And4And1[0]);
            case 4 -> Optional.of(at16And4And1[1]);
            case 1 -> Optional.of(at16And4And1[2]);
            default -> Optional.empty();
        };
    }

    /** How a figure is read from its JMH result. */
    enum Metric {
        /** The mean time of an operation, shown in µs or ms. */
        MEAN_MILLIS,
        /** The 99th percentile of an operation's time. */
        P99_MILLIS,
        /** Throughput times the input size given by the {@code kilobytes} parameter, in MB/s. */
        MEGABYTES_PER_SECOND
    }

    /**
     * A row of the table of other operations.
     *
     * @param label what is measured
     * @param store the store, or {@code —}
     * @param benchmark the short name ({@code Class.method}) of taskagent's benchmark
     * @param mode the JMH mode of the figure ({@code sample}, {@code thrpt})
     * @param params the parameters that select the result
     * @param floorBenchmark the short name of the floor's benchmark, or null when there is none
     * @param floorParams the parameters of the floor's result
     * @param metric how to read the figure
     * @param target the target, or null when there is none
     * @param targetText what to show when there is no target
     * @param required shown as missing when absent (otherwise the row is left out)
     */
    record Operation(
            String label,
            String store,
            String benchmark,
            String mode,
            Map<String, String> params,
            String floorBenchmark,
            Map<String, String> floorParams,
            Metric metric,
            Double target,
            String targetText,
            boolean required) {

        boolean higherIsBetter() {
            return metric == Metric.MEGABYTES_PER_SECOND;
        }

        double value(Summary.Result result) {
            return switch (metric) {
                case MEAN_MILLIS -> result.millis();
                case P99_MILLIS -> result.p99Millis().orElseThrow();
                case MEGABYTES_PER_SECOND ->
                    result.perSecond()
                            * Double.parseDouble(result.params().getOrDefault("kilobytes", "0"))
                            * 1024
                            / 1e6;
            };
        }

        String format(double value) {
            return metric == Metric.MEGABYTES_PER_SECOND
                    ? String.format(Locale.ROOT, "%,.0f MB/s", value)
                    : Summary.millis(value);
        }
    }

    static final List<Operation> OPERATIONS = operations();

    private static List<Operation> operations() {
        List<Operation> rows = new ArrayList<>();
        for (String store : List.of("inmemory", "h2")) {
            rows.add(new Operation(
                    "extraction iteration, mean (100 tasks, 50 messages)",
                    store,
                    "ExtractionBenchmark.agentIteration",
                    "sample",
                    Map.of("store", store),
                    "ExtractionBenchmark.storeCallsFloor",
                    Map.of("store", store),
                    Metric.MEAN_MILLIS,
                    store.equals("inmemory") ? 1.0 : 15.0,
                    null,
                    true));
        }
        rows.add(new Operation(
                "Markdown steps: parse + toggle, 200 steps, mean",
                "—",
                "StepsBenchmark.parseAndToggle",
                "avgt",
                Map.of(),
                "StepsBenchmark.splitFloor",
                Map.of(),
                Metric.MEAN_MILLIS,
                0.020,
                null,
                true));
        for (String chunk : List.of("16", "4096")) {
            rows.add(new Operation(
                    "step markers: text deltas of " + chunk + " chars",
                    "—",
                    "MarkerBenchmark.parseText",
                    "thrpt",
                    Map.of("chunkChars", chunk),
                    "MarkerBenchmark.splitFloor",
                    Map.of(),
                    Metric.MEGABYTES_PER_SECOND,
                    200.0,
                    null,
                    true));
        }
        rows.add(new Operation(
                "step markers: UTF-8 bytes in 4 KiB chunks",
                "—",
                "MarkerBenchmark.parseBytes",
                "thrpt",
                Map.of(),
                "MarkerBenchmark.splitFloor",
                Map.of(),
                Metric.MEGABYTES_PER_SECOND,
                200.0,
                null,
                true));
        for (String store : List.of("inmemory", "h2", "postgres", "mariadb")) {
            for (Metric metric : List.of(Metric.MEAN_MILLIS, Metric.P99_MILLIS)) {
                rows.add(new Operation(
                        "move_task, " + (metric == Metric.MEAN_MILLIS ? "mean" : "p99"),
                        store,
                        "MoveBenchmark.move",
                        "sample",
                        Map.of("store", store),
                        null,
                        Map.of(),
                        metric,
                        null,
                        "none (aim: under 100 ms)",
                        true));
            }
        }
        for (Metric metric : List.of(Metric.MEAN_MILLIS, Metric.P99_MILLIS)) {
            rows.add(new Operation(
                    "MCP signup_for_task over Streamable HTTP, " + (metric == Metric.MEAN_MILLIS ? "mean" : "p99"),
                    "inmemory",
                    "McpBenchmark.signupOverHttp",
                    "sample",
                    Map.of(),
                    "McpBenchmark.signupDirect",
                    Map.of(),
                    metric,
                    null,
                    "overhead over the direct call: p50 ≤ 1 ms, p99 ≤ 5 ms",
                    true));
        }
        return List.copyOf(rows);
    }
}
