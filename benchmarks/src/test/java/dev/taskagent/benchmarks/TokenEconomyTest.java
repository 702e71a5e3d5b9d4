package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.benchmarks.TokenEconomy.Comparison;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenEconomyTest {
    private final List<Comparison> comparisons = TokenEconomy.measure();

    @Test
    void measuresSignupAndMoveEachAgainstTheirThreeCallWorkflow() {
        assertThat(comparisons).extracting(Comparison::name).containsExactly("signup", "move");
        assertThat(comparisons).allSatisfy(comparison -> {
            assertThat(comparison.threeCalls().calls()).isEqualTo(3);
            assertThat(comparison.oneCall().calls()).isEqualTo(1);
        });
    }

    @Test
    void theOneCallToolsUseFewerTokensThanTheWorkflowsTheyReplace() {
        assertThat(comparisons).allSatisfy(comparison -> {
            assertThat(comparison.oneCall().total())
                    .as(comparison.name() + ", counted once")
                    .isLessThan(comparison.threeCalls().total());
            assertThat(comparison.oneCall().billed())
                    .as(comparison.name() + ", billed over the round trips")
                    .isLessThan(comparison.threeCalls().billed());
        });
    }

    @Test
    void overTheRoundTripsEachOneCallToolSavesAtLeastTheEstimatedFortyPercent() {
        assertThat(comparisons).allSatisfy(comparison -> assertThat(comparison.billedSaving())
                .as(comparison.name())
                .isGreaterThanOrEqualTo(0.40));
    }

    @Test
    void theTableListsEveryWorkflowWithItsFigures() {
        String table = TokenEconomy.table(comparisons);

        assertThat(table)
                .contains("| signup: get_my_queue + update_task + get_task | 3 |")
                .contains("| signup: signup_for_task | 1 |")
                .contains("| move: update_task + add_comment + get_task | 3 |")
                .contains("| move: move_task | 1 |");
    }
}
