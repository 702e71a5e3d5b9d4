package dev.taskagent.benchmarks;

import dev.taskagent.steps.MarkdownSteps;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parsing a Markdown checklist of 200 steps and ticking one of them ({@link MarkdownSteps#parse} then
 * {@link MarkdownSteps#markDone}), beside the plainest way to do it: {@code String.split} into lines,
 * find the n-th {@code "- [ ]"} line, replace its box and join the lines again. The floor knows nothing
 * of fences, nesting, ordered lists, CRLF or the other rules the real parser keeps.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class StepsBenchmark {
    static final int STEPS = 200;

    private final String document = document();
    private int next;

    /**
     * A checklist of {@value #STEPS} steps as a model writes one: a heading, a line of prose, top-level
     * steps with a few nested ones, some already done.
     */
    static String document() {
        StringBuilder markdown = new StringBuilder(
                "## Release 4.2\n\nWork through the list in order; ask before skipping anything.\n\n");
        for (int number = 1; number <= STEPS; number++) {
            String indent = number % 10 == 0 ? "  " : "";
            String box = number % 7 == 0 ? "[x]" : "[ ]";
            markdown.append(indent)
                    .append("- ")
                    .append(box)
                    .append(" Step ")
                    .append(number)
                    .append(": update the changelog entry for module ")
                    .append(number % 13)
                    .append(" and send the summary to the release channel\n");
        }
        return markdown.toString();
    }

    /**
     * Parses the document and ticks the next step.
     *
     * @return the updated steps
     */
    @Benchmark
    public MarkdownSteps parseAndToggle() {
        int number = nextStep();
        return MarkdownSteps.parse(document).markDone(number);
    }

    /**
     * The floor: split, find the n-th box, tick it, join.
     *
     * @return the updated document
     */
    @Benchmark
    public String splitFloor() {
        int number = nextStep();
        String[] lines = document.split("\n", -1);
        int seen = 0;
        for (int index = 0; index < lines.length; index++) {
            String line = lines[index].stripLeading();
            if (line.startsWith("- [ ] ") || line.startsWith("- [x] ")) {
                if (++seen == number) {
                    lines[index] = lines[index].replace("- [ ] ", "- [x] ");
                    break;
                }
            }
        }
        return String.join("\n", lines);
    }

    private int nextStep() {
        next = next == STEPS ? 1 : next + 1;
        return next;
    }
}
