package dev.taskagent.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.taskagent.steps.GfmReference.Observed;
import dev.taskagent.steps.GfmReference.Reading;
import dev.taskagent.steps.GfmReference.ReferenceStep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compares the steps {@link MarkdownSteps} finds with the task-list items of a reference GitHub-flavoured
 * Markdown parser (commonmark-java and its task-list extension) over thousands of generated documents.
 * Every step must agree in line, box offset, state, text and depth; a difference is either listed below as
 * accepted, with its reason, or a bug of ours.
 *
 * <p>The run is reproducible: the seed is fixed and reported. Run with another with {@code
 * -Dtaskagent.steps.seed=n}, and more documents with {@code -Dtaskagent.steps.documents=n}.
 */
class MarkdownStepsDifferentialTest {
    private static final long DEFAULT_SEED = 20_260_801L;
    private static final int DEFAULT_DOCUMENTS = 5_000;
    private static final int FAILURES_SHOWN = 5;

    /**
     * Where we knowingly read a document differently from the reference. Each names the steps one side
     * reads and the other does not, says why, and shows it in an example; {@code docs/steps.md} lists the
     * same differences for users.
     */
    enum AcceptedDifference {
        QUOTED_ITEM(
                "a checklist in a block quote quotes someone else's plan; it is not the task's",
                "> - [ ] quoted\n",
                ReferenceStep::inBlockQuote),
        WHITESPACE_OTHER_THAN_A_SPACE_IN_THE_BOX(
                "only [ ], [x] and [X] are boxes, as GitHub's own renderer reads them; a tab or a form feed"
                        + " between the brackets is more likely a slip than an answer",
                "- [\t] tab in the box\n",
                step -> step.boxContent() != ' ' && step.boxContent() != 'x' && step.boxContent() != 'X'),
        BLANK_DESCRIPTION(
                "a step needs something to do; a box followed only by whitespace (a form feed, an em space) is"
                        + " not one",
                "- [ ] \u2003\n",
                step -> step.text().isBlank()),
        BOX_BELOW_AN_EMPTY_LIST_MARKER(
                "the box belongs on its list marker's line, as GitHub's own renderer reads it; commonmark-java"
                        + " also takes a box at the start of the next line",
                "-\n  [ ] below the marker\n",
                ReferenceStep::belowItsMarker),
        LINK_REFERENCE_DEFINITIONS(
                "commonmark-java reads link reference definitions ([x]: /url) while it reads the blocks: [x]"
                        + " turns into a link, and a list may start right after a definition where a paragraph"
                        + " would go on. GitHub's own renderer reads boxes and blocks first, and so do we; a"
                        + " document with definitions is compared with the reference's reading of it without them",
                "- [x] done\n\n[x]: /url\n",
                step -> false);

        final String reason;
        final String example;
        /** The steps of the reference that we do not read; none for a difference of the whole document. */
        final Predicate<ReferenceStep> readOnlyByTheReference;

        AcceptedDifference(String reason, String example, Predicate<ReferenceStep> readOnlyByTheReference) {
            this.reason = reason;
            this.example = example;
            this.readOnlyByTheReference = readOnlyByTheReference;
        }

        static AcceptedDifference of(ReferenceStep step) {
            for (AcceptedDifference difference : values()) {
                if (difference.readOnlyByTheReference.test(step)) {
                    return difference;
                }
            }
            return null;
        }
    }

    /** The two readings of one document, the accepted differences taken out of the reference's. */
    record Comparison(List<Observed> ours, List<Observed> reference, Map<AcceptedDifference, Integer> accepted) {

        static Comparison of(String document) {
            Map<AcceptedDifference, Integer> accepted = new EnumMap<>(AcceptedDifference.class);
            Reading reading = GfmReference.read(document);
            if (!reading.definitionColons().isEmpty()) {
                Reading withoutDefinitions = GfmReference.readWithoutLinkReferenceDefinitions(document, reading);
                if (!withoutDefinitions.steps().equals(reading.steps())) {
                    accepted.merge(AcceptedDifference.LINK_REFERENCE_DEFINITIONS, 1, Integer::sum);
                }
                reading = withoutDefinitions;
            }
            List<Observed> reference = new ArrayList<>();
            for (ReferenceStep step : reading.steps()) {
                AcceptedDifference difference = AcceptedDifference.of(step);
                if (difference == null) {
                    reference.add(step.observed());
                } else {
                    accepted.merge(difference, 1, Integer::sum);
                }
            }
            List<Observed> ours = MarkdownSteps.parse(document).steps().stream()
                    .map(Observed::of)
                    .toList();
            return new Comparison(ours, reference, accepted);
        }

        boolean agrees() {
            return ours.equals(reference);
        }
    }

    @Test
    void findsTheSameStepsAsTheGitHubFlavouredReferenceInThousandsOfGeneratedDocuments(TestReporter reporter) {
        long seed = Long.getLong("taskagent.steps.seed", DEFAULT_SEED);
        int documents = Integer.getInteger("taskagent.steps.documents", DEFAULT_DOCUMENTS);
        MarkdownGenerator generator = new MarkdownGenerator(seed);
        List<String> disagreeing = new ArrayList<>();
        Map<AcceptedDifference, Integer> accepted = new EnumMap<>(AcceptedDifference.class);
        int steps = 0;
        int nestedSteps = 0;
        for (int i = 0; i < documents; i++) {
            String document = generator.document();
            Comparison comparison = Comparison.of(document);
            steps += comparison.ours().size();
            nestedSteps += (int)
                    comparison.ours().stream().filter(step -> step.depth() > 0).count();
            comparison.accepted().forEach((difference, count) -> accepted.merge(difference, count, Integer::sum));
            if (!comparison.agrees()) {
                disagreeing.add(document);
            }
        }
        String summary = documents + " documents from seed " + seed + ": " + steps + " steps (" + nestedSteps
                + " nested), " + disagreeing.size() + " documents disagreeing, accepted differences " + accepted;
        reporter.publishEntry("differential run", summary);
        System.out.println("MarkdownSteps vs commonmark-java: " + summary);

        if (!disagreeing.isEmpty()) {
            fail(report(seed, documents, disagreeing));
        }
        assertThat(steps).as("steps in the generated documents").isGreaterThan(documents / 4);
        assertThat(nestedSteps).as("nested steps in the generated documents").isGreaterThan(documents / 50);
    }

    @ParameterizedTest
    @EnumSource(value = AcceptedDifference.class, mode = EnumSource.Mode.EXCLUDE, names = "LINK_REFERENCE_DEFINITIONS")
    void everyAcceptedDifferenceOfAStepIsStillADifference(AcceptedDifference difference) {
        List<ReferenceStep> reference = GfmReference.steps(difference.example);

        assertThat(reference).as("the reference's steps").hasSize(1);
        assertThat(AcceptedDifference.of(reference.get(0))).isEqualTo(difference);
        assertThat(MarkdownSteps.parse(difference.example).steps())
                .as("ours: %s", difference.reason)
                .isEmpty();
    }

    @Test
    void linkReferenceDefinitionsAreStillADifference() {
        String document = AcceptedDifference.LINK_REFERENCE_DEFINITIONS.example;
        Reading reading = GfmReference.read(document);

        assertThat(reading.steps()).as("the reference's steps").isEmpty();
        assertThat(Comparison.of(document).agrees()).isTrue();
        assertThat(Comparison.of(document).accepted())
                .containsExactly(Map.entry(AcceptedDifference.LINK_REFERENCE_DEFINITIONS, 1));
        assertThat(MarkdownSteps.parse(document).steps()).extracting(Step::text).containsExactly("done");
    }

    private static String report(long seed, int documents, List<String> disagreeing) {
        Set<String> minimal = new LinkedHashSet<>();
        for (String document : disagreeing.subList(0, Math.min(20, disagreeing.size()))) {
            minimal.add(minimise(document));
        }
        String examples = minimal.stream()
                .sorted(Comparator.comparingInt(String::length))
                .limit(FAILURES_SHOWN)
                .map(document -> {
                    Comparison comparison = Comparison.of(document);
                    return "  \"" + Escaping.javaString(document) + "\"\n    ours:      " + comparison.ours()
                            + "\n    reference: " + comparison.reference();
                })
                .collect(Collectors.joining("\n"));
        return disagreeing.size() + " of " + documents + " documents (seed " + seed + ") disagree with the"
                + " reference; fix ours, or add an AcceptedDifference with its reason. The shortest, minimised:\n"
                + examples + "\nRun again with -Dtaskagent.steps.seed=" + seed;
    }

    /** Deletes lines, then single characters, as long as the document still disagrees. */
    static String minimise(String document) {
        String current = document;
        boolean shrunk = true;
        while (shrunk) {
            shrunk = false;
            List<Integer> lineStarts = lineStarts(current);
            for (int i = lineStarts.size() - 1; i >= 0; i--) {
                int start = lineStarts.get(i);
                int end = i + 1 < lineStarts.size() ? lineStarts.get(i + 1) : current.length();
                String candidate = current.substring(0, start) + current.substring(end);
                if (!Comparison.of(candidate).agrees()) {
                    current = candidate;
                    shrunk = true;
                }
            }
            for (int i = current.length() - 1; i >= 0; i--) {
                String candidate = current.substring(0, i) + current.substring(i + 1);
                if (!Comparison.of(candidate).agrees()) {
                    current = candidate;
                    shrunk = true;
                }
            }
        }
        return current;
    }

    private static List<Integer> lineStarts(String document) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < document.length(); i++) {
            char c = document.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 == document.length() || document.charAt(i + 1) != '\n'))) {
                if (i + 1 < document.length()) {
                    starts.add(i + 1);
                }
            }
        }
        return starts;
    }
}
