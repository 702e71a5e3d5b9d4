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
    private static final List<String> MUST_PASS =
            List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection", "server-session-lifecycle");

    /** Scenarios of revision 2026-07-28 that must pass (the baseline test checks that none is listed). */
    static final List<String> MUST_PASS_2026 =
            List.of("tools-list", "dns-rebinding-protection", "http-header-validation", "server-sse-multiple-streams");

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
