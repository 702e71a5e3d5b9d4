package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The official MCP conformance suite ({@code @modelcontextprotocol/conformance}, pinned in {@code
 * src/test/node/package.json}) against the runnable jar's HTTP server, with the checked-in baseline of
 * expected failures ({@code src/test/node/conformance-baseline.yml}). The suite fails on an unexpected
 * failure and on a stale baseline entry; every scenario also checks each wire message against the
 * protocol's JSON schema ({@code wire-schema-valid}).
 */
class ConformanceSuiteIT {
    static final List<String> MUST_PASS = List.of(
            "server-initialize",
            "ping",
            "tools-list",
            "dns-rebinding-protection",
            "server-session-lifecycle",
            "resources-list",
            "resources-subscribe",
            "resources-unsubscribe");

    /** Scenarios of revision 2026-07-28 that must pass (the baseline test checks that none is listed). */
    static final List<String> MUST_PASS_2026 = List.of(
            "tools-list",
            "dns-rebinding-protection",
            "http-header-validation",
            "server-sse-multiple-streams",
            "resources-list",
            "sep-2164-resource-not-found");

    @Test
    void theConformanceSuitePassesWithItsBaselineAndEveryWireMessageIsValid() throws Exception {
        runSuite("2025-11-25", "conformance-baseline.yml", MUST_PASS);
    }

    /**
     * The stateless revision on the same endpoint as 2025-11-25: the suite sends {@code server/discover} and
     * every request with the revision in {@code _meta} and its headers, and never {@code initialize}.
     */
    @Test
    void theConformanceSuiteOfRevision20260728PassesWithItsBaselineAndEveryWireMessageIsValid() throws Exception {
        runSuite("2026-07-28", "conformance-baseline-2026-07-28.yml", MUST_PASS_2026);
    }

    /** The Tasks extension's scenarios that must pass against the fixture server. */
    static final List<String> MUST_PASS_TASKS = List.of(
            "tasks-lifecycle",
            "tasks-capability-negotiation",
            "tasks-wire-fields",
            "tasks-request-state-removal",
            "tasks-request-headers");

    /** Every scenario of the Tasks extension the suite has; the baseline lists those that need more. */
    static final List<String> TASKS_SCENARIOS = List.of(
            "tasks-lifecycle",
            "tasks-capability-negotiation",
            "tasks-wire-fields",
            "tasks-request-state-removal",
            "tasks-request-headers",
            "tasks-dispatch-and-envelope",
            "tasks-required-task-error",
            "tasks-mrtr-input",
            "tasks-mrtr-composition");

    /**
     * The Tasks extension's scenarios (revision 2026-07-28) call fixture tools that taskagent does not serve
     * to agents ({@code slow_compute}, {@code failing_job}, …): they run against {@link
     * ConformanceFixtureServer}, the same server with those tools added, the long ones answered with tasks
     * through the same code that serves {@code run_user_task}. Each scenario runs on its own, with the
     * baseline {@code conformance-baseline-tasks.yml}.
     */
    @Test
    void theTasksExtensionScenariosPassAgainstTheFixtureTools() throws Exception {
        NodeHarness.install();
        Set<Long> before = ChildProcesses.descendants();
        Path results =
                Files.createDirectories(Path.of("target", "conformance", "tasks-run-" + System.currentTimeMillis())
                        .toAbsolutePath());
        try (JarProcess server = JarProcess.startMain("conformance-fixture-server", ConformanceFixtureServer.class)) {
            URI endpoint = server.awaitEndpoint();
            String url = "http://localhost:" + endpoint.getPort() + "/mcp";
            for (String scenario : TASKS_SCENARIOS) {
                NodeHarness.Result result = NodeHarness.run(
                        "conformance-" + scenario,
                        Duration.ofMinutes(3),
                        List.of(
                                NodeHarness.node22().toAbsolutePath().toString(),
                                "node_modules/@modelcontextprotocol/conformance/dist/index.js",
                                "server",
                                "--url",
                                url,
                                "--scenario",
                                scenario,
                                "--timeout",
                                "60000",
                                "--expected-failures",
                                "conformance-baseline-tasks.yml",
                                "--output-dir",
                                results.toString()));
                assertThat(result.exitCode())
                        .as(scenario + ":\n" + result.output())
                        .isZero();
                if (MUST_PASS_TASKS.contains(scenario)) {
                    assertThat(result.output()).as(scenario).contains("0 failed, 0 warnings");
                }
            }
        }
        assertThat(wireSchemaChecks(results)).isNotEmpty().allMatch(status -> status.equals("SUCCESS"));
        ChildProcesses.assertNoneLeftBesides(before);
    }

    private static void runSuite(String revision, String baseline, List<String> mustPass) throws Exception {
        NodeHarness.install();
        Set<Long> before = ChildProcesses.descendants();
        // A folder per run, so that the wire checks read are this run's only.
        Path results = Files.createDirectories(
                Path.of("target", "conformance", revision + "-run-" + System.currentTimeMillis())
                        .toAbsolutePath());
        try (JarProcess server = JarProcess.start(
                "conformance-server-" + revision,
                "--store",
                "memory",
                "--http",
                "127.0.0.1:0",
                "--toolsets",
                "queue,tasks")) {
            URI endpoint = server.awaitEndpoint();
            // The suite's dns-rebinding scenario wants a localhost URL, as a local client would use.
            String url = "http://localhost:" + endpoint.getPort() + "/mcp";

            NodeHarness.Result result = NodeHarness.run(
                    "conformance-" + revision,
                    Duration.ofMinutes(10),
                    List.of(
                            NodeHarness.node22().toAbsolutePath().toString(),
                            "node_modules/@modelcontextprotocol/conformance/dist/index.js",
                            "server",
                            "--url",
                            url,
                            "--requirements",
                            revision,
                            "--timeout",
                            "15000",
                            "--expected-failures",
                            baseline,
                            "--output-dir",
                            results.toString()));

            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("Baseline check passed");
            for (String scenario : mustPass) {
                assertThat(result.output()).contains("✓ " + scenario + ":");
            }
        }
        assertThat(wireSchemaChecks(results)).isNotEmpty().allMatch(status -> status.equals("SUCCESS"));
        ChildProcesses.assertNoneLeftBesides(before);
    }

    /** The status of every wire-schema-valid check in the suite's results. */
    private static List<String> wireSchemaChecks(Path results) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> statuses = new ArrayList<>();
        try (Stream<Path> files = Files.walk(results)) {
            for (Path file : files.filter(path -> path.endsWith("checks.json")).toList()) {
                for (JsonNode check : json.readTree(file.toFile())) {
                    if (check.path("id").asText().equals("wire-schema-valid")) {
                        statuses.add(check.path("status").asText());
                    }
                }
            }
        }
        return statuses;
    }
}
