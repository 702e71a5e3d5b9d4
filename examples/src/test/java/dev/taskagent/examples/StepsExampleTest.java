package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.steps.StepRun;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StepsExampleTest {

    private static Task task(String steps) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return TaskBuilder.newBuilder()
                .id(1)
                .sessionId("family-chat")
                .order(1)
                .description("Family trip research")
                .steps(steps)
                .createdAt(now)
                .updatedAt(now)
                .version(1)
                .build();
    }

    @Test
    void theCardOfATaskHalfwayThroughIsTheCardOfTheSpec() {
        String card =
                StepsExample.renderCard(task("- [x] Research family-friendly attractions in Bangkok for kids 5 & 3\n"
                        + "- [ ] Send the list to Hanan on WhatsApp\n"));

        assertThat(card)
                .isEqualTo("Task: Family trip research                   Steps 1/2  \u2588\u2588\u2588\u2588\u2588"
                        + "\u2591\u2591\u2591\u2591\u2591\n"
                        + "  \u2611 Research family-friendly attractions\u2026\n"
                        + "  \u2610 Send the list to Hanan on WhatsApp\n");
    }

    @Test
    void aTaskWithoutStepsShowsOnlyItsTitle() {
        assertThat(StepsExample.renderCard(task(null))).isEqualTo("Task: Family trip research\n");
    }

    @Test
    void theExamplePrintsTheCardBeforeLiveAndAfterExecution() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        StepRun run = StepsExample.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(run.allStepsDone()).isTrue();
        assertThat(run.task().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(output)
                .containsSubsequence(
                        "Before:",
                        "Steps 0/2  \u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591\u2591",
                        "Step 1 ticked while the model is still writing:",
                        "Steps 1/2  \u2588\u2588\u2588\u2588\u2588\u2591\u2591\u2591\u2591\u2591",
                        "[tool] send_whatsapp to Hanan: Bangkok with the kids",
                        "Step 2 ticked while the model is still writing:",
                        "Steps 2/2  \u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588",
                        "After (2 of 2 steps done; task marked success):",
                        "  \u2611 Send the list to Hanan on WhatsApp");
    }
}
