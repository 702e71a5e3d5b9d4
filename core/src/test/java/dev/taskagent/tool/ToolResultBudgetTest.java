package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.internal.Texts;
import dev.taskagent.llm.ToolCall;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ToolResultBudgetTest {
    private static Tool echo(String text) {
        return Tool.of(
                        "echo",
                        "Returns a fixed text.",
                        JsonSchema.object(),
                        "{\"type\":\"object\"}",
                        arguments -> ToolResult.ok(text, "{\"size\":" + text.length() + "}"))
                .withHints(ToolHints.readOnly("Echo"));
    }

    private static ToolResult call(Toolbox tools) {
        return tools.call(new ToolCall("c1", "echo", "{}"));
    }

    @Test
    void aResultWithinTheBudgetIsUnchanged() {
        Toolbox tools = Toolbox.of(echo("short")).withResultBudget(100);
        assertThat(call(tools)).isEqualTo(ToolResult.ok("short", "{\"size\":5}"));
    }

    @Test
    void aLongerResultIsCutAtALineEndWithANoteAndItsStructuredContentKept() {
        String lines = IntStream.rangeClosed(1, 1_000)
                .mapToObj(number -> "#" + number + " pending p0: a task in a long queue")
                .collect(Collectors.joining("\n"));
        Toolbox tools = Toolbox.of(echo(lines)).withResultBudget(500);

        ToolResult result = call(tools);

        assertThat(Texts.estimateTokens(result.text())).isLessThanOrEqualTo(500);
        String[] kept = result.text().split("\n");
        assertThat(kept[kept.length - 1])
                .startsWith("[… cut here: this answer is over its budget of 500 tokens, and about ")
                .endsWith(
                        " tokens of it were left out. Ask for less: a filter, a smaller limit, or one task by its id.]");
        assertThat(kept[kept.length - 2])
                .as("the last line kept is whole")
                .matches("#\\d+ pending p0: a task in a long queue");
        assertThat(lines).startsWith(result.text().substring(0, result.text().lastIndexOf("\n[")));
        assertThat(result.isError()).isFalse();
        assertThat(result.structuredContent()).isEqualTo("{\"size\":" + lines.length() + "}");
    }

    @Test
    void aLongLineIsCutWithinItNeverInsideASurrogatePair() {
        Toolbox tools = Toolbox.of(echo("😀".repeat(10_000))).withResultBudget(200);

        String text = call(tools).text();

        assertThat(Texts.estimateTokens(text)).isLessThanOrEqualTo(200);
        String kept = text.substring(0, text.indexOf("\n[… cut here"));
        assertThat(kept).isNotEmpty().matches("(😀)+");
    }

    @Test
    void eachToolKeepsItsOwnBudgetWhenToolboxesAreCombinedAndANewBudgetReplacesTheOld() {
        Tool other = Tool.of(
                        "other",
                        "Returns a long text.",
                        JsonSchema.object(),
                        arguments -> ToolResult.ok("z".repeat(30_000)))
                .withHints(ToolHints.readOnly("Other"));
        Toolbox combined =
                Toolbox.of(echo("y".repeat(30_000))).withResultBudget(1_000).with(Toolbox.of(other));

        assertThat(Texts.estimateTokens(call(combined).text())).isBetween(900, 1_000);
        assertThat(combined.call(new ToolCall("c2", "other", "{}")).text()).hasSize(30_000);
        assertThat(combined.tool("echo").orElseThrow().resultBudget()).contains(1_000);
        assertThat(combined.tool("other").orElseThrow().resultBudget()).isEmpty();

        Toolbox wider = combined.withResultBudget(4_000);
        assertThat(Texts.estimateTokens(call(wider).text())).isBetween(3_900, 4_000);
        assertThat(wider.tool("echo").orElseThrow().hints()).isPresent();
        assertThat(wider.tool("echo").orElseThrow().outputSchema()).contains("{\"type\":\"object\"}");
    }

    @Test
    void aBudgetTooSmallForTheNoteIsRefused() {
        assertThatThrownBy(() -> Toolbox.of(echo("x")).withResultBudget(99))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A tool result budget must be at least 100 tokens, was 99");
    }
}
