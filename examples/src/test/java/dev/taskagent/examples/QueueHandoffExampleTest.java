package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueHandoffExampleTest {

    @Test
    void aliceClaimsHerTopTaskHandsItToBobAndCannotMoveItAgain() {
        List<ToolResult> results =
                QueueHandoffExample.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(results.subList(0, 4)).noneMatch(ToolResult::isError);
        assertThat(results.get(0).text())
                .startsWith("Task #1 claimed and set to working status")
                .contains("Fix the login redirect loop")
                .contains("https://example.com/issues/42");
        assertThat(results.get(2).text()).startsWith("Task #1 transferred from alice to bob");
        assertThat(results.get(3).text())
                .startsWith("Task #1 claimed and set to working status")
                .contains("alice: Reproduced: the cookie path is /app")
                .contains("alice: Backend fix needed in SessionFilter");
        assertThat(results.get(4).isError()).isTrue();
        assertThat(results.get(4).text()).isEqualTo("Task 1 is not assigned to alice (currently assigned to: bob)");
    }
}
