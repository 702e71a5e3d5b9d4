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

    @Test
    void aDurationIsWrittenInItsTwoLargestUnits() {
        assertThat(Texts.duration(java.time.Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(Texts.duration(java.time.Duration.ofSeconds(12))).isEqualTo("12 s");
        assertThat(Texts.duration(java.time.Duration.ofSeconds(185))).isEqualTo("3 min 5 s");
        assertThat(Texts.duration(java.time.Duration.ofMinutes(10))).isEqualTo("10 min");
        assertThat(Texts.duration(java.time.Duration.ofMinutes(62).plusSeconds(9)))
                .isEqualTo("1 h 2 min");
        assertThat(Texts.duration(java.time.Duration.ofHours(51))).isEqualTo("2 d 3 h");
    }
}
