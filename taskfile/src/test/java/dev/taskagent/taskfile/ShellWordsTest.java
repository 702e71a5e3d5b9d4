package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordsTest {

    @Test
    void splitsOnBlanksAndHonoursQuotesWithoutExpandingAnything() {
        assertThat(ShellWords.split("  -v  'two words' \"it's\" $(touch pwned) a;b ~ * $HOME `id`"))
                .containsExactly("-v", "two words", "it's", "$(touch", "pwned)", "a;b", "~", "*", "$HOME", "`id`");
    }

    @Test
    void keepsEmptyQuotedWordsAndJoinsAdjacentParts() {
        assertThat(ShellWords.split("'' \"\" a'b'\"c\"")).containsExactly("", "", "abc");
    }

    @Test
    void backslashEscapesOutsideQuotesAndSomeCharactersInDoubleQuotes() {
        assertThat(ShellWords.split("a\\ b \"x\\\"y\\$z\\n\" 'no\\escape'"))
                .containsExactly("a b", "x\"y$z\\n", "no\\escape");
    }

    @Test
    void unclosedQuotesAreRefused() {
        assertThatThrownBy(() -> ShellWords.split("it's")).hasMessageContaining("single quote");
        assertThatThrownBy(() -> ShellWords.split("\"open")).hasMessageContaining("double quote");
        assertThatThrownBy(() -> ShellWords.split("end\\")).hasMessageContaining("backslash");
    }

    @Test
    void quotingProducesOneLiteralWordPerArgument() {
        assertThat(ShellWords.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(ShellWords.quote("")).isEqualTo("''");
        assertThat(ShellWords.quoteAll(List.of("a b", "$(x)"))).isEqualTo("'a b' '$(x)'");
        assertThat(ShellWords.quoteAll(List.of())).isEmpty();
    }

    @Test
    void splittingQuotedWordsGivesThemBack() {
        List<String> words = List.of("it's", "", "a;b", "$(touch pwned)", "\"q\"", "tab\there", "new\nline");
        assertThat(ShellWords.split(ShellWords.quoteAll(words))).isEqualTo(words);
    }
}
