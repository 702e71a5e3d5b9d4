package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Keeps the suite from rotting: runs the in-memory benchmarks for one tiny iteration each through JMH's
 * own runner, and checks that the claim checks fail a store that hands a task out twice. Not a timing
 * test: no figure is asserted beyond being there.
 */
class BenchmarkSuiteTest {
    private static final IterationParams MEASURED =
            new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.milliseconds(100), 1);

    @Test
    void everyInMemoryBenchmarkRunsAndTheSummaryShowsItsFigures(@TempDir Path directory) throws Exception {
        System.setProperty(ClaimRun.EXPECTED_RATE_PROPERTY, "400000");
        Path claimsJson = directory.resolve("claims.json");
        Options claims = new OptionsBuilder()
                .include(InMemoryClaimBenchmark.class.getName() + ".claim_0[14]_threads")
                .param("assignees", "16")
                // Three short warmups: the claim rate grows severalfold while the JIT compiles, and the
                // stock of the measured iteration is sized from the last one.
                .warmupIterations(3)
                .warmupTime(TimeValue.milliseconds(100))
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .forks(0)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(claimsJson.toString())
                .build();
        Path othersJson = directory.resolve("others.json");
        Options others = new OptionsBuilder()
                .include(ExtractionBenchmark.class.getName())
                .include(MoveBenchmark.class.getName())
                .include(StepsBenchmark.class.getName())
                .include(MarkerBenchmark.class.getName())
                .include(BridgeBenchmark.class.getName())
                .include(SpringAiBridgeBenchmark.class.getName())
                .param("store", "inmemory")
                .param("kilobytes", "64")
                .param("chunkChars", "16")
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(100))
                .forks(0)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(othersJson.toString())
                .build();

        Collection<RunResult> results = new ArrayList<>(new Runner(claims).run());
        results.addAll(new Runner(others).run());

        // claims: 2 thread counts × 2 modes; extraction 2, move 1, steps 2, markers 3, bridges 2 + 2
        assertThat(results).hasSize(16);
        assertThat(results)
                .allSatisfy(result ->
                        assertThat(result.getPrimaryResult().getScore()).isPositive());
        List<Summary.Result> figures = new ArrayList<>(Summary.read(claimsJson));
        figures.addAll(Summary.read(othersJson));
        String summary = new Summary(figures).render();
        assertThat(summary)
                .containsPattern("\\| inmemory \\| 16 \\| 4 \\| [0-9,]+ \\| — \\| — \\| — \\| no target \\|")
                .containsPattern(
                        // One 100 ms iteration without warm-up: a GC pause or a busy machine can make it milliseconds.
                        "\\| inmemory \\| 16 \\| 4 \\| [0-9.]+ (µs|ms) \\| — \\| — \\| ≤ 500.0 µs \\| (met|\\*\\*not met\\*\\*) \\|")
                .containsPattern(
                        "\\| extraction iteration, mean \\(100 tasks, 50 messages\\) \\| inmemory \\| [0-9.]+ (µs|ms) \\| [0-9.]+ (µs|ms) \\| [0-9.]+× \\|")
                .containsPattern(
                        "\\| step markers: text deltas of 16 chars \\| — \\| [0-9,]+ MB/s \\| [0-9,]+ MB/s \\|")
                .containsPattern("\\| move_task, p99 \\| inmemory \\| [0-9.]+ (µs|ms) \\|");
    }

    @Test
    void aTaskClaimedTwiceFailsTheIteration() {
        ClaimRun run = new ClaimRun(new HandsOutTheSameTask(), 1, 2, 1000);
        run.startIteration();
        Blackhole blackhole = blackhole();
        run.worker(0).beforeIteration(MEASURED);
        run.worker(1).beforeIteration(MEASURED);
        run.worker(0).claim(blackhole);
        run.worker(1).claim(blackhole);
        run.worker(0).afterIteration(MEASURED);

        assertThatThrownBy(() -> run.worker(1).afterIteration(MEASURED))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Double claim: task 7 was claimed more than once");
    }

    @Test
    void anEmptyClaimFailsAMeasuredIterationButOnlyWarnsInWarmup() {
        ClaimRun run = new ClaimRun(new NeverHasATask(), 1, 1, 1000);
        Blackhole blackhole = blackhole();
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.milliseconds(100), 1);
        run.startIteration();
        run.worker(0).beforeIteration(warmup);
        run.worker(0).claim(blackhole);
        run.worker(0).afterIteration(warmup);

        run.startIteration();
        run.worker(0).beforeIteration(MEASURED);
        run.worker(0).claim(blackhole);
        assertThatThrownBy(() -> run.worker(0).afterIteration(MEASURED))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("The queue ran dry: 1 of 1 claims");
    }

    private static Blackhole blackhole() {
        return new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    }

    /** A broken store: every claim returns task 7. */
    private static final class HandsOutTheSameTask implements ClaimTarget {
        @Override
        public long claim(String assignee, Blackhole blackhole) {
            return 7;
        }

        @Override
        public void recycle(long[] ids, int count) {}

        @Override
        public void addTasks(String assignee, int count) {}

        @Override
        public void close() {}
    }

    /** An empty queue. */
    private static final class NeverHasATask implements ClaimTarget {
        private final AtomicLong added = new AtomicLong();

        @Override
        public long claim(String assignee, Blackhole blackhole) {
            return -1;
        }

        @Override
        public void recycle(long[] ids, int count) {}

        @Override
        public void addTasks(String assignee, int count) {
            added.addAndGet(count);
        }

        @Override
        public void close() {}

        @Override
        public String toString() {
            return "an empty queue (" + added + " tasks added, none claimable) " + List.of();
        }
    }
}
