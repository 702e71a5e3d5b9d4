package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DotenvTest {

    @Test
    void readsPlainQuotedAndExportedValues() {
        String content = "# comment\n"
                + "PLAIN=value with spaces # trailing comment\n"
                + "export EXPORTED=yes\n"
                + "SINGLE='$literal # kept'\n"
                + "DOUBLE=\"line\\nbreak \\\"quoted\\\"\"\n"
                + "EMPTY=\n"
                + "PLAIN=second value is ignored\n";
        assertThat(Dotenv.parse(content))
                .containsExactly(
                        java.util.Map.entry("PLAIN", "value with spaces"),
                        java.util.Map.entry("EXPORTED", "yes"),
                        java.util.Map.entry("SINGLE", "$literal # kept"),
                        java.util.Map.entry("DOUBLE", "line\nbreak \"quoted\""),
                        java.util.Map.entry("EMPTY", ""));
    }

    @Test
    void refusesExpansionAndMalformedLinesWithTheirLineNumber() {
        assertThatThrownBy(() -> Dotenv.parse("A=1\nB=$A\n")).hasMessageStartingWith("line 2: variable expansion");
        assertThatThrownBy(() -> Dotenv.parse("no equals sign")).hasMessage("line 1: expected NAME=value");
        assertThatThrownBy(() -> Dotenv.parse("A='open\n")).hasMessageContaining("not closed");
        assertThatThrownBy(() -> Dotenv.parse("1A=x")).hasMessageContaining("not a valid variable name");
    }
}
