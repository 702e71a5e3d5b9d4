package dev.taskagent.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepMarkerParserTest {

    private static final String CHECK = "\u2713";

    /** Records the markers a parser reports as "n: text". */
    private static final class Recorder implements StepMarkerListener {
        final List<String> markers = new ArrayList<>();

        @Override
        public void onStepMarker(int stepNumber, String markerText) {
            markers.add(stepNumber + ": " + markerText);
        }
    }

    private final Recorder recorder = new Recorder();

    private StepMarkerParser strict(int stepCount) {
        return StepMarkerParser.builder(stepCount, recorder).build();
    }

    private StepMarkerParser lenient(int stepCount) {
        return StepMarkerParser.builder(stepCount, recorder).lenientMarkers().build();
    }

    private List<String> parseWhole(StepMarkerParser parser, String text) {
        parser.accept(text);
        parser.endOfStream();
        return recorder.markers;
    }

    @Test
    void reportsEachMarkerLineWithItsStepNumberAndText() {
        String output = "Looking for attractions...\n"
                + CHECK + " STEP 1: Research family-friendly attractions in Bangkok\n"
                + "Sending now.\n"
                + CHECK + " STEP 2: Send the list to Hanan on WhatsApp\n"
                + "Both steps are done.";

        assertThat(parseWhole(strict(2), output))
                .containsExactly(
                        "1: Research family-friendly attractions in Bangkok", "2: Send the list to Hanan on WhatsApp");
    }

    @Test
    void aMarkerSplitInsideItsPrefixIsStillFound() {
        StepMarkerParser parser = strict(3);

        parser.accept(CHECK + " ST");
        parser.accept("EP 2: Send the list\n");

        assertThat(recorder.markers).containsExactly("2: Send the list");
    }

    @Test
    void digitsSplitBetweenChunksMakeOneNumber() {
        StepMarkerParser parser = strict(20);

        parser.accept(CHECK + " STEP 1");
        parser.accept("2: x\n");

        assertThat(recorder.markers).containsExactly("12: x");
    }

    @Test
    void everyChunkSizeGivesTheSameMarkers() {
        String output = "intro\r\n" + CHECK + " STEP 1: first\r\nnoise " + CHECK + " STEP 3: not at line start\n"
                + CHECK + " STEP 2: second \uD83D\uDCAC\n" + CHECK + " STEP 3: third";
        for (int size = 1; size <= output.length(); size++) {
            Recorder chunked = new Recorder();
            StepMarkerParser parser = StepMarkerParser.builder(3, chunked).build();
            for (int start = 0; start < output.length(); start += size) {
                parser.accept(output.substring(start, Math.min(output.length(), start + size)));
            }
            parser.endOfStream();

            assertThat(chunked.markers)
                    .as("chunk size %d", size)
                    .containsExactly("1: first", "2: second \uD83D\uDCAC", "3: third");
        }
    }

    @Test
    void aMarkerCountsOnlyAtTheStartOfALine() {
        String output = "Done: " + CHECK + " STEP 1: inline\n " + CHECK + " STEP 1: indented\n" + "**" + CHECK
                + " STEP 1:** bold\n";

        assertThat(parseWhole(strict(2), output)).isEmpty();
    }

    @Test
    void theColonAfterTheNumberIsRequired() {
        StepMarkerParser parser = strict(2);

        parseWhole(parser, CHECK + " STEP 1 Research\n" + CHECK + " STEP 2\n");

        assertThat(recorder.markers).isEmpty();
        assertThat(parser.warnings())
                .containsExactly(
                        "Ignored a step marker without the colon after its number; write it as '\u2713 STEP n: text'",
                        "Ignored a step marker without the colon after its number; write it as '\u2713 STEP n: text'");
    }

    @Test
    void theExactSpellingIsRequiredInStrictMode() {
        String output = CHECK + "STEP 1: a\n" + CHECK + "  STEP 1: b\n" + CHECK + " Step 1: c\n" + CHECK
                + " STEP one: d\n" + CHECK + " STEP \u0661: arabic-indic digit\n" + "\u2714 STEP 1: heavy\n"
                + "\u2705 STEP 1: emoji\n";

        assertThat(parseWhole(strict(2), output)).isEmpty();
    }

    @Test
    void crlfLineEndingsAreAcceptedAndNotPartOfTheText() {
        assertThat(parseWhole(strict(2), CHECK + " STEP 1: a\r\n" + CHECK + " STEP 2: b\r\n"))
                .containsExactly("1: a", "2: b");
    }

    @Test
    void aMarkerOnTheLastLineWithoutNewlineCountsAtTheEndOfTheStream() {
        StepMarkerParser parser = strict(2);

        parser.accept(CHECK + " STEP 2: Send the list");
        assertThat(recorder.markers).isEmpty();
        parser.endOfStream();

        assertThat(recorder.markers).containsExactly("2: Send the list");
    }

    @Test
    void aStreamThatEndsInsideAMarkerReportsNothing() {
        StepMarkerParser parser = strict(2);

        parseWhole(parser, "text\n" + CHECK + " ST");
        parseWhole(parser, CHECK + " STEP 2");
        parseWhole(parser, "EP 1: not joined to the previous stream\n");

        assertThat(recorder.markers).isEmpty();
        assertThat(parser.warnings()).hasSize(1);
    }

    @Test
    void aRepeatedMarkerIsReportedOnce() {
        StepMarkerParser parser = strict(2);

        parseWhole(parser, CHECK + " STEP 1: a\n" + CHECK + " STEP 1: a again\n" + CHECK + " STEP 01: padded\n");
        parseWhole(parser, CHECK + " STEP 1: in a later stream\n");

        assertThat(recorder.markers).containsExactly("1: a");
        assertThat(parser.completedSteps()).containsExactly(1);
        assertThat(parser.isReported(1)).isTrue();
        assertThat(parser.isReported(2)).isFalse();
        assertThat(parser.warnings()).isEmpty();
    }

    @Test
    void stepZeroAndStepsBeyondTheLastAreIgnoredWithAWarning() {
        StepMarkerParser parser = strict(2);

        parseWhole(parser, CHECK + " STEP 0: zero\n" + CHECK + " STEP 3: three\n" + CHECK + " STEP 2: two\n");

        assertThat(recorder.markers).containsExactly("2: two");
        assertThat(parser.warnings())
                .containsExactly(
                        "Ignored the marker for step 0; steps are numbered 1..2",
                        "Ignored the marker for step 3; the task has 2 steps (1..2)");
    }

    @Test
    void hugeNumbersAreIgnoredWithAWarningNeverAnException() {
        StepMarkerParser parser = strict(5);
        String thirtyDigits = "123456789012345678901234567890";

        parseWhole(
                parser,
                CHECK + " STEP " + thirtyDigits + ": huge\n" + CHECK + " STEP 1000000000: ten digits\n" + CHECK
                        + " STEP 999999999: nine digits\n" + CHECK + " STEP 000000000000000000000000000001: x\n");

        assertThat(recorder.markers).isEmpty();
        assertThat(parser.warnings())
                .containsExactly(
                        "Ignored a step marker whose number has 30 digits; steps are numbered 1..5",
                        "Ignored a step marker whose number has 10 digits; steps are numbered 1..5",
                        "Ignored the marker for step 999999999; the task has 5 steps (1..5)",
                        "Ignored a step marker whose number has 30 digits; steps are numbered 1..5");
    }

    @Test
    void aCheckMarkSplitBetweenByteChunksStillMatches() {
        byte[] bytes = ("intro\n" + CHECK + " STEP 1: caf\u00e9 \uD83C\uDDF9\uD83C\uDDED\n" + CHECK + " STEP 2: b")
                .getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= bytes.length; split++) {
            for (int second = split; second <= bytes.length; second += 3) {
                Recorder chunked = new Recorder();
                StepMarkerParser parser = StepMarkerParser.builder(2, chunked).build();
                parser.acceptBytes(bytes, 0, split);
                parser.acceptBytes(bytes, split, second - split);
                parser.acceptBytes(
                        ByteBuffer.wrap(bytes, second, bytes.length - second).asReadOnlyBuffer());
                parser.endOfStream();

                assertThat(chunked.markers)
                        .as("split at %d and %d", split, second)
                        .containsExactly("1: caf\u00e9 \uD83C\uDDF9\uD83C\uDDED", "2: b");
            }
        }
    }

    @Test
    void bytesArrivingOneAtATimeAreDecodedWhole() {
        StepMarkerParser parser = strict(1);
        byte[] bytes = (CHECK + " STEP 1: \u4E2D\u6587\n").getBytes(StandardCharsets.UTF_8);

        for (int i = 0; i < bytes.length; i++) {
            parser.acceptBytes(bytes, i, 1);
        }
        parser.endOfStream();

        assertThat(recorder.markers).containsExactly("1: \u4E2D\u6587");
    }

    @Test
    void malformedBytesAndAStreamEndingInsideACharacterNeverThrow() {
        StepMarkerParser parser = strict(2);
        byte[] check = CHECK.getBytes(StandardCharsets.UTF_8);

        parser.acceptBytes(new byte[] {(byte) 0xff, (byte) 0xfe, '\n'}, 0, 3);
        parser.acceptBytes((CHECK + " STEP 1: ok\n").getBytes(StandardCharsets.UTF_8), 0, check.length + 12);
        parser.acceptBytes(check, 0, 2);
        parser.endOfStream();

        assertThat(recorder.markers).containsExactly("1: ok");
    }

    @Test
    void theLenientModeAcceptsTheCommonVariants() {
        String output = "\u2714 STEP 1: heavy check\n"
                + "\u2705 STEP 2: emoji check\n"
                + "\u2714\uFE0F STEP 3: with variation selector\n"
                + "   \t" + CHECK + " STEP 4: leading spaces\n"
                + "**" + CHECK + " STEP 5:** bold around the marker\n"
                + "**" + CHECK + " STEP 6**: bold before the colon\n"
                + CHECK + "  Step  7: any spacing and case\n"
                + "**" + CHECK + " STEP 8: bold around the line**\n";

        assertThat(parseWhole(lenient(8), output))
                .containsExactly(
                        "1: heavy check",
                        "2: emoji check",
                        "3: with variation selector",
                        "4: leading spaces",
                        "5: bold around the marker",
                        "6: bold before the colon",
                        "7: any spacing and case",
                        "8: bold around the line");
    }

    @Test
    void theLenientModeStillNeedsLineStartTheNumberAndTheColon() {
        StepMarkerParser parser = lenient(3);

        parseWhole(
                parser,
                "so " + CHECK + " STEP 1: not at start\n" + "\u2705 STEP: no number\n" + "**" + CHECK
                        + " STEP 2** no colon\n" + "\u2714 STEP 3 done\n");

        assertThat(recorder.markers).isEmpty();
        assertThat(parser.warnings()).hasSize(2);
    }

    @Test
    void aLongMarkerLineKeepsOnlyTheFirstThousandCharacters() {
        String longText = "x".repeat(100_000);

        parseWhole(strict(1), CHECK + " STEP 1: " + longText + "\n");

        assertThat(recorder.markers).containsExactly("1: " + "x".repeat(StepMarkerParser.MAX_MARKER_TEXT_LENGTH));
    }

    @Test
    void aHugeLineThatIsNotAMarkerIsSkippedAndTheNextLineStillCounts() {
        StepMarkerParser parser = strict(1);
        char[] noise = "Bangkok has many parks. ".repeat(50_000).toCharArray();

        parser.accept(noise, 0, noise.length);
        parser.accept(new StringBuilder("\n" + CHECK + " STEP 1: after the noise\n"));

        assertThat(recorder.markers).containsExactly("1: after the noise");
    }

    @Test
    void servesAsATextDeltaListener() {
        StepMarkerParser parser = strict(1);
        dev.taskagent.llm.TextDeltaListener listener = parser;

        listener.onTextDelta(CHECK + " STEP 1: via the listener\n");

        assertThat(recorder.markers).containsExactly("1: via the listener");
    }

    @Test
    void aListenerThatThrowsLeavesTheParserUsable() {
        java.util.concurrent.atomic.AtomicBoolean fail = new java.util.concurrent.atomic.AtomicBoolean(true);
        StepMarkerParser parser = StepMarkerParser.builder(2, (number, text) -> {
                    if (fail.getAndSet(false)) {
                        throw new IllegalStateException("store down");
                    }
                    recorder.onStepMarker(number, text);
                })
                .build();
        byte[] first = (CHECK + " STEP 1: a\n").getBytes(StandardCharsets.UTF_8);
        byte[] second = (CHECK + " STEP 2: b\n").getBytes(StandardCharsets.UTF_8);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parser.acceptBytes(first, 0, first.length))
                .hasMessage("store down");
        parser.acceptBytes(second, 0, second.length);

        assertThat(recorder.markers).containsExactly("2: b");
    }

    @Test
    void aMarkerInsideAFencedCodeBlockIsIgnoredWithAWarning() {
        StepMarkerParser parser = strict(2);
        String output = "The marker looks like this:\n```\n" + CHECK + " STEP 1: Research\n```\nResearching now.\n"
                + CHECK + " STEP 2: Send the list\n";

        parseWhole(parser, output);

        assertThat(recorder.markers).containsExactly("2: Send the list");
        assertThat(parser.warnings())
                .containsExactly("Ignored the marker for step 1: it is inside a fenced code block, where markers are"
                        + " quoted, not reported; write it on a line of its own outside code blocks");
    }

    @Test
    void aFenceClosesOnlyWithItsCharacterAtLeastAsLongAndNothingAfterIt() {
        String output = "~~~~\n" + CHECK + " STEP 1: a\n```\n~~~\n~~~~ not a closing fence\n" + CHECK
                + " STEP 1: b\n   ~~~~~  \r\n" + CHECK + " STEP 1: c\n";

        assertThat(parseWhole(strict(1), output)).containsExactly("1: c");
    }

    @Test
    void backticksWithABacktickAfterThemOrFewerThanThreeAreNoFence() {
        String output = "```not`a fence\n" + CHECK + " STEP 1: after inline code\n``\n" + CHECK
                + " STEP 2: after two backticks\n";

        assertThat(parseWhole(strict(2), output)).containsExactly("1: after inline code", "2: after two backticks");
    }

    @Test
    void anIndentedFenceInsideAListOfTheAnswerOpensACodeBlockToo() {
        String output = "1. Example:\n   ```text\n" + CHECK + " STEP 1: quoted\n   ```\n" + CHECK + " STEP 1: real\n";

        assertThat(parseWhole(strict(1), output)).containsExactly("1: real");
    }

    @Test
    void aCodeBlockLeftOpenEndsWithItsStream() {
        StepMarkerParser parser = strict(1);

        parseWhole(parser, "```\n" + CHECK + " STEP 1: inside the unclosed block");
        parseWhole(parser, CHECK + " STEP 1: the next answer\n");

        assertThat(recorder.markers).containsExactly("1: the next answer");
        assertThat(parser.warnings()).hasSize(1);
    }

    @Test
    void aRepeatedOrOutOfRangeMarkerInsideACodeBlockIsIgnoredSilently() {
        StepMarkerParser parser = strict(1);

        parseWhole(
                parser,
                CHECK + " STEP 1: done\n```\n" + CHECK + " STEP 1: done\n" + CHECK + " STEP 7: x\n" + CHECK
                        + " STEP 1 no colon\n```\n");

        assertThat(recorder.markers).containsExactly("1: done");
        assertThat(parser.warnings()).isEmpty();
    }

    @Test
    void markersInCodeBlocksCountWhenAskedFor() {
        StepMarkerParser parser =
                StepMarkerParser.builder(2, recorder).countMarkersInCodeBlocks().build();

        parseWhole(parser, "```\n" + CHECK + " STEP 1: in a block\n```\n" + CHECK + " STEP 2: outside\n");

        assertThat(recorder.markers).containsExactly("1: in a block", "2: outside");
        assertThat(parser.countsMarkersInCodeBlocks()).isTrue();
        assertThat(strict(1).countsMarkersInCodeBlocks()).isFalse();
    }

    @Test
    void theLenientModeFollowsIndentedFencesAndIndentedMarkers() {
        String output = "   ```\n   " + CHECK + " STEP 1: quoted\n   ```\n   **\u2705 STEP 1:** real\n";

        assertThat(parseWhole(lenient(1), output)).containsExactly("1: real");
    }

    @Test
    void everyChunkSizeGivesTheSameMarkersAroundCodeBlocks() {
        String output = "Example:\r\n````md\r\n" + CHECK + " STEP 1: quoted\r\n```\r\n" + CHECK
                + " STEP 2: still quoted\r\n````\r\n" + CHECK + " STEP 1: first \uD83D\uDCAC\r\n~~~\n" + CHECK
                + " STEP 3: quoted\n~~~\n" + CHECK + " STEP 2: second";
        for (int size = 1; size <= output.length(); size++) {
            Recorder chunked = new Recorder();
            StepMarkerParser parser = StepMarkerParser.builder(3, chunked).build();
            for (int start = 0; start < output.length(); start += size) {
                parser.accept(output.substring(start, Math.min(output.length(), start + size)));
            }
            parser.endOfStream();

            assertThat(chunked.markers).as("chunk size %d", size).containsExactly("1: first \uD83D\uDCAC", "2: second");
            assertThat(parser.warnings()).as("chunk size %d", size).hasSize(3);
        }
    }

    @Test
    void everyByteSplitGivesTheSameMarkersAroundCodeBlocks() {
        byte[] bytes = ("```\u00e9t\u00e9\n" + CHECK + " STEP 1: quoted\n```\n" + CHECK + " STEP 1: caf\u00e9\n")
                .getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= bytes.length; split++) {
            Recorder chunked = new Recorder();
            StepMarkerParser parser = StepMarkerParser.builder(1, chunked).build();
            parser.acceptBytes(bytes, 0, split);
            parser.acceptBytes(bytes, split, bytes.length - split);
            parser.endOfStream();

            assertThat(chunked.markers).as("split at %d", split).containsExactly("1: caf\u00e9");
        }
    }

    @Test
    void theFirstIgnoredMarkerIsLoggedAtWarnAndTheOthersAreOnlyKept() {
        StepMarkerParser parser = strict(2);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            parseWhole(parser, (CHECK + " STEP 0: zero\n" + CHECK + " STEP 9: nine\n").repeat(75));
        } finally {
            System.setErr(originalErr);
        }

        String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(logged.lines().filter(line -> line.contains("WARN"))).hasSize(1);
        assertThat(logged)
                .contains("WARN")
                .contains("Ignored the marker for step 0; steps are numbered 1..2 (later ignored step markers of"
                        + " this run are logged at DEBUG)");
        assertThat(parser.ignoredMarkerCount()).isEqualTo(150);
        assertThat(parser.warnings()).hasSize(StepMarkerParser.MAX_WARNINGS_KEPT);
        assertThat(parser.warnings().get(1)).isEqualTo("Ignored the marker for step 9; the task has 2 steps (1..2)");
    }
}
