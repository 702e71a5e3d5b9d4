package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CappedOutputTest {

    @Test
    void keepsEverythingBelowTheLimit() {
        CappedOutput output = new CappedOutput(16);
        output.write("hello ");
        output.write("world");
        assertThat(output.render()).isEqualTo("hello world");
        assertThat(output.isTruncated()).isFalse();
        assertThat(output.totalBytes()).isEqualTo(11);
    }

    @Test
    void keepsHeadAndTailAndCountsTheDroppedBytes() {
        CappedOutput output = new CappedOutput(8);
        for (char c = 'a'; c <= 'z'; c++) {
            output.write(String.valueOf(c));
        }
        assertThat(output.droppedBytes()).isEqualTo(18);
        assertThat(output.render())
                .isEqualTo("abcd\n[... 18 bytes dropped: the output was longer than the limit ...]\nwxyz");
    }

    @Test
    void keepsTheTailOfOneLargeWrite() {
        CappedOutput output = new CappedOutput(6);
        byte[] bytes = "0123456789".getBytes(StandardCharsets.UTF_8);
        output.write(bytes, 0, bytes.length);
        output.write(bytes, 0, 2);
        assertThat(output.render()).startsWith("012\n[... 6 bytes").endsWith("]\n901");
    }

    @Test
    void rawTextSpansHeadAndTailWhenNothingWasDropped() {
        CappedOutput output = new CappedOutput(10);
        output.write("12345678");
        assertThat(output.rawText()).isEqualTo("12345678");
    }

    @Test
    void neutralisesControlCharactersButKeepsLinesAndTabs() {
        String raw =
                "\u001b[31mred\u001b[0m\tok\r\nbell\u0007 nul\u0000 progress\rdone \u001b]0;title\u0007x \u202Eevil";
        assertThat(CappedOutput.neutralise(raw)).isEqualTo("red\tok\nbell\uFFFD nul\uFFFD progress\ndone x \uFFFDevil");
    }

    @Test
    void badUtf8BecomesReplacementCharacters() {
        CappedOutput output = new CappedOutput(16);
        output.write(new byte[] {'a', (byte) 0xC3, 'b'}, 0, 3);
        assertThat(output.render()).isEqualTo("a\uFFFDb");
    }
}
