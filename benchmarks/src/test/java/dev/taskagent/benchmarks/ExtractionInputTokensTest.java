package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The extraction input stays bounded as a session grows (counted with jtokkit, not timed): a session whose
 * tasks are finished but the newest 20 grows at most 1.3 times from 100 to 10,000 tasks, and a session of
 * 5,000 open tasks stays within 12,000 tokens; below the budget the listing is today's, whole.
 */
class ExtractionInputTokensTest {

    @Test
    void aLongSessionsInputGrowsAtMostAThirdFromAHundredToTenThousandTasks() {
        int hundred = ExtractionInputTokens.measure(100, false, true).tokens();
        int tenThousand = ExtractionInputTokens.measure(10_000, false, true).tokens();

        assertThat((double) tenThousand / hundred)
                .as("%d tokens at 10,000 tasks against %d at 100", tenThousand, hundred)
                .isLessThanOrEqualTo(1.3);
    }

    @Test
    void fiveThousandOpenTasksStayWithinTwelveThousandTokens() {
        assertThat(ExtractionInputTokens.measure(5_000, true, true).tokens()).isLessThanOrEqualTo(12_000);
    }

    @Test
    void belowTheBudgetTheInputIsTheUnboundedOne() {
        assertThat(ExtractionInputTokens.measure(100, false, true).tokens())
                .isEqualTo(ExtractionInputTokens.measure(100, false, false).tokens());
    }
}
