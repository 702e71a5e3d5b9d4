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

    @Test
    void theWorkerToolsetCostsFewerTokensPerRequestAndOverAWholeTask() {
        List<TokenEconomy.Toolset> toolsets = TokenEconomy.measureToolsets();

        assertThat(toolsets).extracting(TokenEconomy.Toolset::name).containsExactly("queue", "worker");
        TokenEconomy.Toolset full = toolsets.get(0);
        TokenEconomy.Toolset worker = toolsets.get(1);
        assertThat(worker.tools()).isEqualTo(5).isLessThan(full.tools());
        assertThat(worker.definitions()).isLessThan(full.definitions());
        assertThat(worker.billed()).isLessThan(full.billed());
        assertThat(full.billed() - worker.billed())
                .as("four requests each carry the definitions the worker toolset leaves out")
                .isEqualTo(4 * (full.definitions() - worker.definitions()));
        assertThat(TokenEconomy.toolsetTable(toolsets)).contains("| queue | " + full.tools() + " | ");
    }
}
