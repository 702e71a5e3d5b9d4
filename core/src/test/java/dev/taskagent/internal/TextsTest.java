package dev.taskagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextsTest {
    @Test
    void aTextForTheLogKeepsItsLineAndShowsEveryControlCharacterAsAnEscape() {
        assertThat(Texts.forLog("a\nb\r\tc\u001b[31md\u0085e\u2028f\u202eg\\h"))
                .isEqualTo("a\\nb\\r\\tc\\u001B[31md\\u0085e\\u2028f\\u202Eg\\\\h");
    }

    @Test
    void aTextForTheLogKeepsPrintableTextAndEmojiVerbatimAndEscapesALoneSurrogate() {
        assertThat(Texts.forLog("Grüße 😀 ok")).isEqualTo("Grüße 😀 ok");
        assertThat(Texts.forLog("x\ud800y")).isEqualTo("x\\uD800y");
        assertThat(Texts.forLog(null)).isEqualTo("null");
    }
}
