package dev.taskagent.benchmarks;

import dev.taskagent.steps.StepMarkerParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the step-marker parser ({@link StepMarkerParser}) over a model's streamed output: prose,
 * code, a marker line every 40 lines and some lines that look like markers but are not. One operation
 * reads the whole output of {@code kilobytes} KiB (UTF-8), as text chunks of {@code chunkChars} characters
 * or as 4 KiB byte chunks; MB/s = operations per second × the output's size.
 *
 * <p>The floor reads the same output the plainest way: {@code String.split("\n")} on the whole text and
 * {@code startsWith("✓ STEP ")} on each line, with none of the streaming, chunk boundaries, decoding or
 * validation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MarkerBenchmark {
    static final int STEPS = 200;
    private static final int BYTE_CHUNK = 4096;

    /** The size of one model output, in KiB of UTF-8. */
    @Param({"1024"})
    public int kilobytes;

    private String text;
    private byte[] bytes;
    private long markers;

    /** Builds the output. */
    @Setup(Level.Trial)
    public void buildOutput() {
        text = output(kilobytes * 1024);
        bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length != kilobytes * 1024) {
            throw new IllegalStateException("The output is " + bytes.length + " bytes, not " + kilobytes * 1024);
        }
    }

    /** The output cut into text deltas; a state of its own so that only {@link #parseText} varies with it. */
    @State(Scope.Thread)
    public static class TextChunks {
        /** The size of the text deltas fed to the parser. */
        @Param({"16", "4096"})
        public int chunkChars;

        String[] chunks;

        /**
         * Cuts the output.
         *
         * @param benchmark holds the output
         */
        @Setup(Level.Trial)
        public void cut(MarkerBenchmark benchmark) {
            List<String> pieces = new ArrayList<>();
            String text = benchmark.text;
            for (int start = 0; start < text.length(); start += chunkChars) {
                pieces.add(text.substring(start, Math.min(text.length(), start + chunkChars)));
            }
            chunks = pieces.toArray(String[]::new);
        }
    }

    /**
     * A model's output of exactly {@code size} bytes of UTF-8.
     *
     * @param size the size in bytes
     * @return the text
     */
    static String output(int size) {
        StringBuilder out = new StringBuilder(size);
        int line = 0;
        int step = 0;
        while (true) {
            String next =
                    switch (line++ % 40) {
                        case 39 ->
                            "\u2713 STEP " + (step++ % STEPS + 1) + ": Updated the changelog and sent the summary.\n";
                        case 12 -> "Checking STEP 4 again: the numbers in the table were off by one.\n";
                        case 25 -> "    \u2713 done with the migration script (see below)\n";
                        case 30 -> "```java\nint total = rows.stream().mapToInt(Row::amount).sum();\n```\n";
                        default ->
                            "I read the release notes of module " + line % 13
                                    + " and compared them with the commits since the last tag.\n";
                    };
            int room = size - utf8Length(out);
            if (utf8Length(next) > room) {
                out.append("x".repeat(room));
                return out.toString();
            }
            out.append(next);
        }
    }

    private static int utf8Length(CharSequence text) {
        int length = 0;
        for (int index = 0; index < text.length(); index++) {
            char c = text.charAt(index);
            length += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return length;
    }

    /**
     * The parser fed text chunks.
     *
     * @param text the chunks
     * @return the steps it reported
     */
    @Benchmark
    public int parseText(TextChunks text) {
        markers = 0;
        StepMarkerParser parser = StepMarkerParser.builder(STEPS, (number, markerText) -> markers++)
                .build();
        for (String chunk : text.chunks) {
            parser.accept(chunk);
        }
        parser.endOfStream();
        return parser.completedSteps().size();
    }

    /**
     * The parser fed UTF-8 bytes in 4 KiB chunks.
     *
     * @return the steps it reported
     */
    @Benchmark
    public int parseBytes() {
        StepMarkerParser parser = StepMarkerParser.builder(STEPS, (number, markerText) -> markers++)
                .build();
        for (int start = 0; start < bytes.length; start += BYTE_CHUNK) {
            parser.acceptBytes(bytes, start, Math.min(BYTE_CHUNK, bytes.length - start));
        }
        parser.endOfStream();
        return parser.completedSteps().size();
    }

    /**
     * The floor: split the whole text into lines and look at each one's start.
     *
     * @return the distinct steps found
     */
    @Benchmark
    public int splitFloor() {
        boolean[] seen = new boolean[STEPS + 1];
        int found = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("\u2713 STEP ")) {
                int colon = line.indexOf(':', 7);
                if (colon > 7) {
                    int number = Integer.parseInt(line, 7, colon, 10);
                    if (number >= 1 && number <= STEPS && !seen[number]) {
                        seen[number] = true;
                        found++;
                    }
                }
            }
        }
        return found;
    }
}
