package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The conformance suite's baseline of expected failures gives a reason for every entry. */
class ConformanceBaselineTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "conformance-baseline.yml",
                "conformance-baseline-2026-07-28.yml",
                "conformance-baseline-tasks.yml"
            })
    void everyExpectedFailureSaysWhy(String file) throws IOException {
        List<String> entries = Files.readAllLines(NodeHarness.directory().resolve(file)).stream()
                .filter(line -> line.startsWith("  - "))
                .toList();

        assertThat(entries).isNotEmpty().allSatisfy(entry -> {
            int hash = entry.indexOf('#');
            assertThat(hash).as("a reason for %s", entry).isPositive();
            assertThat(entry.substring(hash + 1).strip())
                    .as("the reason for %s", entry)
                    .hasSizeGreaterThan(10);
        });
    }

    @Test
    void theScenariosThatMustPassAreNotExpectedToFail() throws IOException {
        String baseline = Files.readString(NodeHarness.directory().resolve("conformance-baseline.yml"));

        for (String scenario : ConformanceSuiteIT.MUST_PASS) {
            assertThat(baseline).doesNotContain("  - " + scenario + " ");
        }
        String stateless = Files.readString(NodeHarness.directory().resolve("conformance-baseline-2026-07-28.yml"));
        for (String scenario : ConformanceSuiteIT.MUST_PASS_2026) {
            assertThat(stateless).doesNotContain("  - " + scenario + " ");
        }
        String tasks = Files.readString(NodeHarness.directory().resolve("conformance-baseline-tasks.yml"));
        for (String scenario : ConformanceSuiteIT.MUST_PASS_TASKS) {
            assertThat(tasks).doesNotContain("  - " + scenario + " ");
        }
    }
}
