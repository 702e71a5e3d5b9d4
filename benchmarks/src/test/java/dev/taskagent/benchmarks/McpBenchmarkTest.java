package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Keeps the MCP benchmark from rotting: one tiny iteration of each of its benchmarks through JMH's runner.
 * The 50-session run fails its trial on a double claim or an error result. Not a timing test.
 */
class McpBenchmarkTest {

    @Test
    void everyMcpBenchmarkRunsWithoutDoubleClaimsOrErrors() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include(McpBenchmark.class.getName())
                        .warmupIterations(0)
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(300))
                        .forks(0)
                        .shouldFailOnError(true)
                        .build())
                .run();

        assertThat(results).hasSize(3);
        assertThat(results)
                .allSatisfy(result ->
                        assertThat(result.getPrimaryResult().getScore()).isPositive());
    }
}
