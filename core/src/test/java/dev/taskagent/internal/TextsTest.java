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

    @Test
    void theTokenEstimateCountsUtf8BytesInThrees() {
        assertThat(Texts.estimateTokens("")).isZero();
        assertThat(Texts.estimateTokens("abc")).isEqualTo(1);
        assertThat(Texts.estimateTokens("abcd")).isEqualTo(2);
        assertThat(Texts.estimateTokens("日本語")).isEqualTo(3);
        assertThat(Texts.estimateTokens("😀")).isEqualTo(2);
    }
}
