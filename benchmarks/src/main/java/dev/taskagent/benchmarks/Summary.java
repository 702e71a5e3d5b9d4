package dev.taskagent.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Prints the Markdown tables of {@code docs/PERFORMANCE.md} from a JMH JSON result file: each figure of
 * taskagent beside its floor, the ratio, its target ({@link Targets}) and whether it is met.
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.taskagent.benchmarks.Summary benchmarks/target/results.json}</pre>
 *
 * <p>A figure that is not in the file (its benchmark was not run, or failed a check) shows as {@code
 * missing}. Not thread-safe; a command-line tool.
 */
public final class Summary {
    static final String DEFAULT_RESULTS = "benchmarks/target/results.json";

    private static final String IN_MEMORY_CLAIMS = "InMemoryClaimBenchmark";
    private static final String DATABASE_CLAIMS = "DatabaseClaimBenchmark";
    private static final List<String> STORES = List.of("inmemory", "h2", "postgres", "mariadb");
    private static final List<Integer> THREADS = List.of(1, 4, 16);
    private static final List<Integer> ASSIGNEES = List.of(1, 16);

    private final List<Result> results;

    Summary(List<Result> results) {
        this.results = List.copyOf(results);
    }

    /**
     * Prints the tables.
     *
     * @param args the JMH JSON file; {@value #DEFAULT_RESULTS} when none is given
     * @throws IOException if the file cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path path = Paths.get(args.length > 0 ? args[0] : DEFAULT_RESULTS);
        if (!Files.exists(path)) {
            System.err.println("No JMH results at " + path.toAbsolutePath() + "; run benchmarks/run.sh first");
            System.exit(2);
        }
        System.out.print(new Summary(read(path)).render());
    }

    /** One JMH result: a benchmark method with one set of parameters, one mode and one thread count. */
    record Result(
            String benchmark,
            String mode,
            int threads,
            Map<String, String> params,
            double score,
            String unit,
            Map<String, Double> percentiles,
            Map<String, Double> secondary) {

        /** @return the class and method, without the package */
        String shortName() {
            String[] parts = benchmark.split("\\.");
            return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
        }

        boolean matches(String shortNamePrefix, String wantedMode, Map<String, String> wantedParams) {
            if (!shortName().startsWith(shortNamePrefix) || !mode.equals(wantedMode)) {
                return false;
            }
            for (Map.Entry<String, String> wanted : wantedParams.entrySet()) {
                if (!wanted.getValue().equals(params.get(wanted.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** @return the score in operations per second (throughput results) */
        double perSecond() {
            return score / secondsPer(unit.substring(unit.indexOf('/') + 1));
        }

        /** @return the score in milliseconds per operation (time results) */
        double millis() {
            return score * secondsPer(unit.substring(0, unit.indexOf('/'))) * 1000;
        }

        /** @return the 99th percentile in milliseconds (sample-time results) */
        Optional<Double> p99Millis() {
            Double p99 = percentiles.get("99.0");
            return p99 == null
                    ? Optional.empty()
                    : Optional.of(p99 * secondsPer(unit.substring(0, unit.indexOf('/'))) * 1000);
        }

        private static double secondsPer(String timeUnit) {
            return switch (timeUnit) {
                case "s" -> 1;
                case "ms" -> 1e-3;
                case "us" -> 1e-6;
                case "ns" -> 1e-9;
                case "min" -> 60;
                default -> throw new IllegalArgumentException("Unknown JMH time unit '" + timeUnit + "'");
            };
        }
    }

    static List<Result> read(Path path) throws IOException {
        JsonNode root = new ObjectMapper().readTree(path.toFile());
        List<Result> results = new ArrayList<>();
        for (JsonNode node : root) {
            Map<String, String> params = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : node.path("params").properties()) {
                params.put(entry.getKey(), entry.getValue().asText());
            }
            JsonNode primary = node.path("primaryMetric");
            Map<String, Double> percentiles = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry :
                    primary.path("scorePercentiles").properties()) {
                percentiles.put(entry.getKey(), entry.getValue().asDouble());
            }
            Map<String, Double> secondary = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry :
                    node.path("secondaryMetrics").properties()) {
                secondary.put(entry.getKey(), entry.getValue().path("score").asDouble());
            }
            results.add(new Result(
                    node.path("benchmark").asText(),
                    node.path("mode").asText(),
                    node.path("threads").asInt(),
                    params,
                    primary.path("score").asDouble(),
                    primary.path("scoreUnit").asText(),
                    percentiles,
                    secondary));
        }
        return results;
    }

    /** @return every table, in Markdown */
    String render() {
        StringBuilder out = new StringBuilder();
        out.append("### Claims per second\n\n");
        out.append(claimThroughputTable());
        out.append("\n### Claim latency, p99\n\n");
        out.append(claimLatencyTable());
        String others = otherOperationsTable();
        if (!others.isEmpty()) {
            out.append("\n### Other operations\n\n");
            out.append(others);
        }
        return out.toString();
    }

    private String claimThroughputTable() {
        StringBuilder table = new StringBuilder(
                "| store | assignees | threads | taskagent claims/s | floor claims/s | taskagent / floor | target"
                        + " | met |\n| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        for (String store : STORES) {
            for (int assignees : ASSIGNEES) {
                for (int threads : THREADS) {
                    Optional<Double> ours = claim(store, "taskagent", assignees, threads, "thrpt")
                            .map(Result::perSecond);
                    Optional<Double> floor =
                            claim(store, "floor", assignees, threads, "thrpt").map(Result::perSecond);
                    Optional<Double> target = Targets.claimsPerSecond(store, assignees, threads);
                    table.append(row(
                            store,
                            Integer.toString(assignees),
                            Integer.toString(threads),
                            ours.map(Summary::count).orElse("missing"),
                            floor.map(Summary::count).orElse(store.equals("inmemory") ? "—" : "missing"),
                            ratio(ours, floor),
                            target.map(value -> "≥ " + count(value)).orElse("—"),
                            verdict(ours, target, true)));
                }
            }
        }
        return table.toString();
    }

    private String claimLatencyTable() {
        StringBuilder table = new StringBuilder("| store | assignees | threads | taskagent p99 | floor p99 |"
                + " taskagent / floor | target | met |\n| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        for (String store : STORES) {
            for (int assignees : ASSIGNEES) {
                for (int threads : THREADS) {
                    Optional<Double> ours = claim(store, "taskagent", assignees, threads, "sample")
                            .flatMap(Result::p99Millis);
                    Optional<Double> floor =
                            claim(store, "floor", assignees, threads, "sample").flatMap(Result::p99Millis);
                    Optional<Double> target = Targets.claimP99Millis(store, threads);
                    table.append(row(
                            store,
                            Integer.toString(assignees),
                            Integer.toString(threads),
                            ours.map(Summary::millis).orElse("missing"),
                            floor.map(Summary::millis).orElse(store.equals("inmemory") ? "—" : "missing"),
                            ratio(ours, floor),
                            target.map(value -> "≤ " + millis(value)).orElse("—"),
                            verdict(ours, target, false)));
                }
            }
        }
        return table.toString();
    }

    private Optional<Result> claim(String store, String implementation, int assignees, int threads, String mode) {
        String method = String.format(Locale.ROOT, ".claim_%02d_threads", threads);
        if (store.equals("inmemory")) {
            return implementation.equals("taskagent")
                    ? find(IN_MEMORY_CLAIMS + method, mode, Map.of("assignees", Integer.toString(assignees)))
                    : Optional.empty();
        }
        return find(
                DATABASE_CLAIMS + method,
                mode,
                Map.of("database", store, "implementation", implementation, "assignees", Integer.toString(assignees)));
    }

    /** The operations other than claims: one row per operation and store. */
    private String otherOperationsTable() {
        StringBuilder rows = new StringBuilder();
        for (Targets.Operation operation : Targets.OPERATIONS) {
            Optional<Result> ours = find(operation.benchmark(), operation.mode(), operation.params());
            if (ours.isEmpty() && !operation.required()) {
                continue;
            }
            Optional<Result> floor = operation.floorBenchmark() == null
                    ? Optional.empty()
                    : find(operation.floorBenchmark(), operation.mode(), operation.floorParams());
            Optional<Double> oursValue = ours.map(operation::value);
            Optional<Double> floorValue = floor.map(operation::value);
            rows.append(row(
                    operation.label(),
                    operation.store(),
                    oursValue.map(operation::format).orElse("missing"),
                    operation.floorBenchmark() == null
                            ? "—"
                            : floorValue.map(operation::format).orElse("missing"),
                    ratio(oursValue, floorValue),
                    operation.target() == null
                            ? operation.targetText()
                            : (operation.higherIsBetter() ? "≥ " : "≤ ") + operation.format(operation.target()),
                    operation.target() == null
                            ? "no target"
                            : verdict(oursValue, Optional.of(operation.target()), operation.higherIsBetter())));
        }
        if (rows.length() == 0) {
            return "";
        }
        return "| operation | store | taskagent | floor | taskagent / floor | target | met |\n"
                + "| --- | --- | ---: | ---: | ---: | --- | --- |\n" + rows;
    }

    private Optional<Result> find(String shortName, String mode, Map<String, String> params) {
        return results.stream()
                .filter(result -> result.matches(shortName, mode, params))
                .findFirst();
    }

    private static String row(String... cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    private static String ratio(Optional<Double> ours, Optional<Double> floor) {
        if (ours.isEmpty() || floor.isEmpty() || floor.get() == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", ours.get() / floor.get());
    }

    private static String verdict(Optional<Double> value, Optional<Double> target, boolean higherIsBetter) {
        if (target.isEmpty()) {
            return "no target";
        }
        if (value.isEmpty()) {
            return "pending";
        }
        boolean met = higherIsBetter ? value.get() >= target.get() : value.get() <= target.get();
        return met ? "met" : "**not met**";
    }

    static String count(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    static String millis(double millis) {
        if (millis < 1) {
            return String.format(Locale.ROOT, "%.1f µs", millis * 1000);
        }
        return String.format(Locale.ROOT, "%.1f ms", millis);
    }
}
