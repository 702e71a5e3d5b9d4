package dev.taskagent.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownStepsTest {

    private static final String TRIP = "- [ ] Research family-friendly attractions in Bangkok for kids 5 & 3\n"
            + "- [ ] Send the list to Hanan on WhatsApp\n";

    private static List<String> texts(String document) {
        return MarkdownSteps.parse(document).steps().stream().map(Step::text).toList();
    }

    @Test
    void readsTheChecklistOfTheSpecAsTwoUncheckedTopLevelSteps() {
        MarkdownSteps steps = MarkdownSteps.parse(TRIP);

        assertThat(steps.steps())
                .containsExactly(
                        new Step(1, "Research family-friendly attractions in Bangkok for kids 5 & 3", false, 0, 1, 2),
                        new Step(2, "Send the list to Hanan on WhatsApp", false, 0, 2, 71));
        assertThat(steps.total()).isEqualTo(2);
        assertThat(steps.done()).isZero();
        assertThat(steps.progressLabel()).isEqualTo("Steps 0/2");
    }

    @Test
    void recognisesEveryBulletAndOrderedMarker() {
        String document = "- [ ] dash\n* [ ] star\n+ [ ] plus\n1. [ ] dot\n2) [ ] paren\n123456789. [ ] nine digits\n";

        assertThat(texts(document)).containsExactly("dash", "star", "plus", "dot", "paren", "nine digits");
    }

    @Test
    void anOrderedMarkerWithTenDigitsIsNotAListItem() {
        assertThat(texts("1234567890. [ ] too long\n")).isEmpty();
    }

    @Test
    void readsLowerAndUpperCaseXAsChecked() {
        MarkdownSteps steps = MarkdownSteps.parse("- [x] lower\n- [X] upper\n- [ ] open\n");

        assertThat(steps.steps()).extracting(Step::checked).containsExactly(true, true, false);
        assertThat(steps.done()).isEqualTo(2);
        assertThat(steps.firstUnchecked()).map(Step::number).contains(3);
    }

    @Test
    void numbersNestedStepsInDocumentOrderAcrossDepths() {
        String document = "- [ ] Plan the trip\n"
                + "  - [ ] Pick dates\n"
                + "    - [x] Ask Hanan about school holidays\n"
                + "  - [ ] Book flights\n"
                + "1. [ ] Pack\n"
                + "   - [ ] Sunscreen\n";

        assertThat(MarkdownSteps.parse(document).steps())
                .containsExactly(
                        new Step(1, "Plan the trip", false, 0, 1, 2),
                        new Step(2, "Pick dates", false, 1, 2, 24),
                        new Step(3, "Ask Hanan about school holidays", true, 2, 3, 45),
                        new Step(4, "Book flights", false, 1, 4, 85),
                        new Step(5, "Pack", false, 0, 5, 105),
                        new Step(6, "Sunscreen", false, 1, 6, 119));
    }

    @Test
    void stepsNestedUnderAPlainListItemOrOnTheSameLineCountTheirDepth() {
        String document = "- Trip\n  - [ ] Research\n- - [ ] Nested on one line\n";

        assertThat(MarkdownSteps.parse(document).steps())
                .extracting(Step::text, Step::depth)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("Research", 1),
                        org.assertj.core.groups.Tuple.tuple("Nested on one line", 1));
    }

    @Test
    void linesInsideABacktickFenceAreNotSteps() {
        String document = "- [ ] before\n```markdown\n- [ ] inside\n```\n- [ ] after\n";

        assertThat(texts(document)).containsExactly("before", "after");
    }

    @Test
    void aFenceClosesOnlyWithTheSameCharacterAndAtLeastTheSameLength() {
        String document = "~~~~\n- [ ] a\n```\n- [ ] b\n~~~\n- [ ] c\n~~~~~ \n- [ ] d\n";

        assertThat(texts(document)).containsExactly("d");
    }

    @Test
    void anUnclosedFenceRunsToTheEndOfTheDocument() {
        assertThat(texts("- [ ] a\n````\n- [ ] b\n```\n- [ ] c\n")).containsExactly("a");
    }

    @Test
    void backticksWithABacktickInTheInfoStringAreInlineCodeNotAFence() {
        assertThat(texts("```not`a fence\n- [ ] step\n")).containsExactly("step");
    }

    @Test
    void aFenceOpenedInsideAListItemHidesItsLines() {
        assertThat(texts("- ```\n  - [ ] in code\n  ```\n- [ ] real\n")).containsExactly("real");
    }

    @Test
    void aFenceOpenedInsideAListItemEndsWithTheItem() {
        String document = "- Example:\n  ```markdown\n  - [ ] quoted in the code\n- [ ] Research\n"
                + "- ~~~~\n  - [ ] quoted again\n- [ ] Send the list\n";

        assertThat(texts(document)).containsExactly("Research", "Send the list");
    }

    @Test
    void aFenceOpenedInsideANestedItemEndsWithThatItemOnly() {
        String document = "- [ ] Plan\n  - ```\n    - [ ] quoted\n  - [ ] Pick dates\n";

        assertThat(MarkdownSteps.parse(document).steps())
                .extracting(Step::text, Step::depth)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("Plan", 0),
                        org.assertj.core.groups.Tuple.tuple("Pick dates", 1));
    }

    @Test
    void anHtmlCommentOpenedInsideAListItemEndsWithTheItem() {
        String document = "- [ ] Research <!-- not a comment: inline -->\n- <!-- draft\n  - [ ] hidden\n"
                + "- [ ] Send the list\n";

        assertThat(texts(document)).containsExactly("Research <!-- not a comment: inline -->", "Send the list");
    }

    @Test
    void linesInsideHtmlBlocksAreNotSteps() {
        String document = "<details>\n<summary>Old plan</summary>\n- [ ] in details\n</details>\n\n"
                + "<div class=\"note\">\n- [ ] in a div\n\n"
                + "<pre>\n- [ ] in pre\n\n- [ ] still in pre, blank lines and all\n</pre>\n"
                + "<custom-card data-id='7'>\n- [ ] in a line of one tag\n\n"
                + "<?php\n- [ ] in a processing instruction\n?>\n"
                + "<![CDATA[\n- [ ] in CDATA\n]]>\n"
                + "- [ ] Research\n";

        assertThat(texts(document)).containsExactly("Research");
    }

    @Test
    void aBlankLineEndsABlockLevelHtmlBlockButNotARawOne() {
        assertThat(texts("<div>\n- [ ] hidden\n\n- [ ] after the blank line\n"))
                .containsExactly("after the blank line");
        assertThat(texts("<script>\n\n- [ ] hidden\n</script> - [ ] still the script's line\n- [ ] after\n"))
                .containsExactly("after");
    }

    @Test
    void anHtmlBlockInsideAListItemEndsWithTheItem() {
        assertThat(texts("- <div>\n  - [ ] hidden\n- [ ] Send the list\n")).containsExactly("Send the list");
    }

    @Test
    void aTagAloneOnALineCannotInterruptAParagraphButABlockTagCan() {
        assertThat(texts("Intro\n<span>\n- [ ] a step: the span was text\n"))
                .containsExactly("a step: the span was text");
        assertThat(texts("Intro\n<div>\n- [ ] hidden in the div\n")).isEmpty();
    }

    @Test
    void anOrderedItemNumberedOtherThanOneCannotInterruptAParagraph() {
        assertThat(texts("Intro\n2. [ ] continues the paragraph\n")).isEmpty();
        assertThat(texts("Intro\n1. [ ] interrupts it\n")).containsExactly("interrupts it");
        assertThat(texts("Intro\n\n2. [ ] after a blank line\n")).containsExactly("after a blank line");
        assertThat(texts("- [ ] a\n2. [ ] a new list, not the paragraph of a\n"))
                .containsExactly("a", "a new list, not the paragraph of a");
    }

    @Test
    void aClosingFenceIndentedFourColumnsOrMoreDoesNotCloseTheFence() {
        String document = "```\n    ```\n- [ ] still in the code\n   ```\n- [ ] after the fence\n";

        assertThat(texts(document)).containsExactly("after the fence");
        assertThat(texts("- ```\n      ```\n  - [ ] still in the item's code\n"))
                .isEmpty();
    }

    @Test
    void anEmptyListItemFollowedByABlankLineEnds() {
        assertThat(MarkdownSteps.parse("-\n\n  - [ ] top level\n").steps())
                .extracting(Step::depth)
                .containsExactly(0);
        assertThat(MarkdownSteps.parse("-\n  - [ ] nested\n").steps())
                .extracting(Step::depth)
                .containsExactly(1);
    }

    @Test
    void aFormFeedOrAVerticalTabAfterTheBoxCountsAsWhitespace() {
        assertThat(texts("- [ ]\fafter a form feed\n- [x]\u000Bafter a vertical tab\n"))
                .containsExactly("after a form feed", "after a vertical tab");
    }

    @Test
    void aStepUnderlinedIntoAHeadingIsNotAStep() {
        assertThat(texts("- [ ] a heading\n  ---\n- [x] another\n  ===\n- [ ] Research\n"))
                .containsExactly("Research");
        assertThat(MarkdownSteps.parse("- [x] a heading\n  ---\n").done()).isZero();
    }

    @Test
    void theBoxMustBeOnTheLineOfItsListMarker() {
        assertThat(texts("-\n  [ ] below the marker\n")).isEmpty();
    }

    @Test
    void aCheckedBoxIsAStepEvenWhereTheDocumentDefinesTheLinkLabelX() {
        assertThat(texts("- [x] Research\n\n[x]: https://example.com\n")).containsExactly("Research");
    }

    @Test
    void markDoneKeepsEveryByteOfTheConstructsAroundTheStep() {
        String document =
                "<details>\r\n- [ ] hidden\r\n</details>\r\n\r\n- ```\r\n  - [ ] quoted\r\n" + "- [ ]\fResearch\r\n";

        MarkdownSteps ticked = MarkdownSteps.parse(document).markDone(1);

        assertThat(ticked.document()).isEqualTo(document.replace("- [ ]\fResearch", "- [x]\fResearch"));
        assertThat(ticked.steps())
                .isEqualTo(MarkdownSteps.parse(ticked.document()).steps());
    }

    @Test
    void linesInsideHtmlCommentsAreNotSteps() {
        String document = "<!-- - [ ] one-line comment -->\n"
                + "- [ ] a\n"
                + "<!--\n"
                + "- [ ] hidden\n"
                + "- [ ] hidden too\n"
                + "-->\n"
                + "  <!-- indented\n- [ ] hidden three\n  --> - [ ] still in the comment line\n"
                + "<!-->\n"
                + "- [ ] b\n";

        assertThat(texts(document)).containsExactly("a", "b");
    }

    @Test
    void aCommentInsideAStepsTextDoesNotHideTheNextLines() {
        assertThat(texts("- [ ] a <!-- note\n- [ ] b\n")).containsExactly("a <!-- note", "b");
    }

    @Test
    void aBoxWithABlankDescriptionIsNotAStep() {
        assertThat(texts("- [ ]\n- [ ]   \n- [x] \t\n- [ ] \u2003\n- [ ] real\n"))
                .containsExactly("real");
    }

    @Test
    void malformedBoxesAreNotSteps() {
        String document = "- [-] dash\n- [  ] two spaces\n- [\t] tab inside\n- [] empty\n- [xx] two\n- [y] other\n"
                + "- ( ) round\n";

        assertThat(texts(document)).isEmpty();
    }

    @Test
    void aMissingSpaceAfterTheBulletOrAfterTheBoxIsNotAStep() {
        assertThat(texts("-[ ] no space after bullet\n1.[ ] nor here\n- [ ]no space after box\n- [x]done\n"))
                .isEmpty();
    }

    @Test
    void aTabAfterTheBulletOrAfterTheBoxCountsAsTheSpace() {
        assertThat(texts("-\t[ ] tab after bullet\n- [ ]\ttab after box\n"))
                .containsExactly("tab after bullet", "tab after box");
    }

    @Test
    void blockQuotesAreNotSteps() {
        assertThat(texts("> - [ ] quoted\n>- [ ] quoted too\n   > - [x] indented quote\n- [ ] real\n"))
                .containsExactly("real");
    }

    @Test
    void indentedCodeAndParagraphContinuationsAreNotSteps() {
        String document = "Intro\n\n    - [ ] indented code\n\n- [ ] a\n      - [ ] continues a's paragraph\n";

        assertThat(texts(document)).containsExactly("a");
    }

    @Test
    void headingsThematicBreaksAndPlainTextAreNotSteps() {
        assertThat(texts("# [ ] heading\n---\n* * *\n[ ] no bullet\nSome text - [ ] inline\n"))
                .isEmpty();
    }

    @Test
    void theStepTextIsTheRestOfTheFirstLineTrimmed() {
        assertThat(texts("- [ ]    spaced out   \t\n  continued on the next line\n"))
                .containsExactly("spaced out");
    }

    @Test
    void readsLfCrlfAndLoneCrLineEndingsAndABom() {
        assertThat(texts("\uFEFF- [ ] a\r\n- [ ] b\r- [ ] c\n- [ ] d")).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aStepKnowsItsLineAndTheOffsetOfItsBoxWhateverTheLineEndings() {
        String document = "\uFEFF# Trip\r\n- [ ] a\r\n\r  * [x] b\n\n1. [ ] c";

        List<Step> steps = MarkdownSteps.parse(document).steps();

        assertThat(steps).extracting(Step::line).containsExactly(2, 4, 6);
        assertThat(steps).extracting(Step::boxOffset).containsExactly(11, 23, 33);
        assertThat(steps).allSatisfy(step -> assertThat(document.charAt(step.boxOffset()))
                .isEqualTo('['));
    }

    @Test
    void aStepRefusesAPositionOutsideTheDocument() {
        assertThatThrownBy(() -> new Step(1, "a", false, 0, 0, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line must be at least 1, was 0");
        assertThatThrownBy(() -> new Step(1, "a", false, 0, 1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("boxOffset must not be negative, was -1");
    }

    @Test
    void markDoneChangesExactlyOneCharacterAndKeepsEverythingElseByteForByte() {
        String document = "\uFEFF# Trip \uD83C\uDDF9\uD83C\uDDED  \r\n"
                + "- [ ] Research \uD83E\uDDD2 attractions, caf\u00e9s & parks   \r\n"
                + "\r\n"
                + "  - [X] nested \u4E2D\u6587\t\r\n"
                + "- [ ] Send to Hanan \uD83D\uDCAC";
        byte[] before = document.getBytes(StandardCharsets.UTF_8);

        MarkdownSteps ticked = MarkdownSteps.parse(document).markDone(3);
        byte[] after = ticked.document().getBytes(StandardCharsets.UTF_8);

        assertThat(after).hasSameSizeAs(before);
        List<Integer> differences = new ArrayList<>();
        for (int i = 0; i < before.length; i++) {
            if (before[i] != after[i]) {
                differences.add(i);
            }
        }
        assertThat(differences).hasSize(1);
        int at = differences.get(0);
        assertThat((char) before[at]).isEqualTo(' ');
        assertThat((char) after[at]).isEqualTo('x');
        assertThat(ticked.document()).endsWith("- [x] Send to Hanan \uD83D\uDCAC");
        assertThat(ticked.steps()).extracting(Step::checked).containsExactly(false, true, true);
    }

    @Test
    void markDoneReturnsAParsedDocumentThatAgreesWithAFreshParse() {
        MarkdownSteps ticked = MarkdownSteps.parse(TRIP).markDone(1);

        assertThat(ticked.document())
                .isEqualTo("- [x] Research family-friendly attractions in Bangkok for kids 5 & 3\n"
                        + "- [ ] Send the list to Hanan on WhatsApp\n");
        assertThat(ticked.steps())
                .isEqualTo(MarkdownSteps.parse(ticked.document()).steps());
        assertThat(ticked.progressLabel()).isEqualTo("Steps 1/2");
        assertThat(ticked.firstUnchecked()).map(Step::number).contains(2);
    }

    @Test
    void markingACheckedStepDoneChangesNothing() {
        MarkdownSteps steps = MarkdownSteps.parse("- [X] Already done\n- [ ] Open\n");

        assertThat(steps.markDone(1)).isSameAs(steps);
        assertThat(steps.markDone(1).document()).isEqualTo("- [X] Already done\n- [ ] Open\n");
        assertThat(steps.markUndone(2)).isSameAs(steps);
    }

    @Test
    void markUndoneUnticksLowerAndUpperCaseX() {
        MarkdownSteps steps = MarkdownSteps.parse("- [x] a\n- [X] b\n");

        MarkdownSteps unticked = steps.markUndone(1).markUndone(2);

        assertThat(unticked.document()).isEqualTo("- [ ] a\n- [ ] b\n");
        assertThat(unticked.done()).isZero();
        assertThat(unticked.allDone()).isFalse();
    }

    @Test
    void aStepNumberOutOfRangeIsRefusedWithTheRange() {
        MarkdownSteps steps = MarkdownSteps.parse(TRIP);

        assertThatThrownBy(() -> steps.markDone(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("There is no step 3: the document has 2 steps (1..2)");
        assertThatThrownBy(() -> steps.markDone(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkdownSteps.parse("no steps").markDone(1))
                .hasMessage("There is no step 1: the document has no steps");
    }

    @Test
    void countsAndTheFirstUncheckedStepFollowTheTicks() {
        MarkdownSteps steps = MarkdownSteps.parse(TRIP);

        MarkdownSteps all = steps.markDone(2).markDone(1);

        assertThat(steps.firstUnchecked()).map(Step::number).contains(1);
        assertThat(steps.markDone(1).unchecked()).extracting(Step::number).containsExactly(2);
        assertThat(all.allDone()).isTrue();
        assertThat(all.firstUnchecked()).isEmpty();
        assertThat(all.unchecked()).isEmpty();
        assertThat(MarkdownSteps.parse("").allDone()).isFalse();
    }

    @Test
    void rendersNumberedStepsForAPromptWithNestedStepsIndented() {
        MarkdownSteps steps = MarkdownSteps.parse("* [x] Research\n  + [ ] Museums\n3) [ ] Send the list\n");

        assertThat(steps.renderForPrompt()).isEqualTo("1. [x] Research\n   2. [ ] Museums\n3. [ ] Send the list\n");
    }

    @Test
    void aChecklistHasOneStepPerTextWhateverTheTextHolds() {
        MarkdownSteps steps = MarkdownSteps.checklist(
                List.of("Research\n  attractions", "  Send <!-- the list", "```", "> quote", "[ ] box"));

        assertThat(steps.document())
                .isEqualTo("- [ ] Research attractions\n- [ ] Send <!-- the list\n- [ ] ```\n- [ ] > quote\n"
                        + "- [ ] [ ] box\n");
        assertThat(steps.total()).isEqualTo(5);
    }

    @Test
    void aChecklistRefusesABlankStepOrNoStepAtAll() {
        assertThatThrownBy(() -> MarkdownSteps.checklist(List.of("Research", " \n ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Step 2 of 2 is blank; give every step a description");
        assertThatThrownBy(() -> MarkdownSteps.checklist(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tenThousandStepsParseAndToggleInOnePass() {
        StringBuilder document = new StringBuilder();
        for (int i = 1; i <= 10_000; i++) {
            document.append(i % 3 == 0 ? "  " : "")
                    .append("- [ ] Step number ")
                    .append(i)
                    .append('\n');
        }

        MarkdownSteps steps = MarkdownSteps.parse(document.toString());
        MarkdownSteps ticked = steps.markDone(10_000).markDone(1);

        assertThat(steps.total()).isEqualTo(10_000);
        assertThat(steps.step(9_999).depth()).isEqualTo(1);
        assertThat(ticked.done()).isEqualTo(2);
        assertThat(ticked.step(10_000).text()).isEqualTo("Step number 10000");
        assertThat(ticked.document()).startsWith("- [x] Step number 1\n").endsWith("- [x] Step number 10000\n");
    }

    @Test
    void aStepOfHundredKilobytesKeepsItsWholeText() {
        String longText = "attraction ".repeat(10_000).strip();
        String document = "- [ ] " + longText + "\n- [ ] Send it\n";

        MarkdownSteps ticked = MarkdownSteps.parse(document).markDone(1);

        assertThat(ticked.step(1).text()).hasSize(longText.length()).isEqualTo(longText);
        assertThat(ticked.document()).hasSize(document.length());
    }

    @Test
    void pathologicalNestingAndUnclosedCommentsStayCorrect() {
        StringBuilder nested = new StringBuilder();
        for (int depth = 0; depth < 500; depth++) {
            nested.append("  ".repeat(depth))
                    .append("- [ ] level ")
                    .append(depth)
                    .append('\n');
        }
        nested.append("lazy continuation line\n".repeat(2_000));
        nested.append("\n".repeat(20_000)).append("  ".repeat(499)).append("- [ ] after blank lines\n");
        String comments = "<!--\n" + "- [ ] hidden\n".repeat(20_000);

        MarkdownSteps steps = MarkdownSteps.parse(nested.toString());
        assertThat(steps.step(500).depth()).isEqualTo(499);
        assertThat(steps.step(501).depth()).isEqualTo(499);
        assertThat(MarkdownSteps.parse(comments).isEmpty()).isTrue();
    }

    @Test
    void aLineOfManyListMarkersIsReadInOnePass() {
        String document = "- ".repeat(100_000) + "[ ] at the bottom\n";

        MarkdownSteps steps = MarkdownSteps.parse(document);

        assertThat(steps.total()).isEqualTo(1);
        assertThat(steps.step(1).depth()).isEqualTo(99_999);
    }

    @Test
    void twoParsesOfTheSameDocumentAreEqual() {
        assertThat(MarkdownSteps.parse(TRIP)).isEqualTo(MarkdownSteps.parse(TRIP));
        assertThat(MarkdownSteps.parse(TRIP))
                .isNotEqualTo(MarkdownSteps.parse(TRIP).markDone(1));
    }
}
