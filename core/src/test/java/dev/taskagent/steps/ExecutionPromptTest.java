package dev.taskagent.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Task;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutionPromptTest {

    private static Task task(String steps, List<String> preferences) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return TaskBuilder.newBuilder()
                .id(7)
                .sessionId("family")
                .order(1)
                .description("Family trip research")
                .userPreferences(preferences)
                .steps(steps)
                .createdAt(now)
                .updatedAt(now)
                .version(1)
                .build();
    }

    @Test
    void theTaskMessageNumbersTheStepsAndSaysWhereToStart() {
        Task task = task(
                "- [ ] Research family-friendly attractions in Bangkok for kids 5 & 3\n"
                        + "- [ ] Send the list to Hanan on WhatsApp\n",
                List.of("kids are 5 and 3; no late evenings"));

        assertThat(StepExecutor.taskMessage(task))
                .isEqualTo("Task: Family trip research\n"
                        + "User preference: kids are 5 and 3; no late evenings\n"
                        + "\n"
                        + "Steps:\n"
                        + "1. [ ] Research family-friendly attractions in Bangkok for kids 5 & 3\n"
                        + "2. [ ] Send the list to Hanan on WhatsApp\n"
                        + "\n"
                        + "Start with step 1.\n");
    }

    @Test
    void aResumedTaskShowsTheDoneStepsAndContinuesAtTheFirstOpenOne() {
        Task task = task("- [x] Research\n- [ ] Send the list\n", List.of());

        assertThat(StepExecutor.taskMessage(task))
                .isEqualTo("Task: Family trip research\n\nSteps:\n1. [x] Research\n2. [ ] Send the list\n\n"
                        + "Steps shown as [x] are done. Continue with step 2.\n");
    }

    @Test
    void theRulesAskForMarkersInOrderWithoutSkippingAndForASummary() {
        assertThat(StepExecutor.systemPrompt())
                .contains("in order")
                .contains("\u2713 STEP <number>: <the step's text>")
                .contains("on a line of its own")
                .contains("Never skip a step")
                .contains("blocked")
                .contains("summarise the result")
                .contains("never inside a code block");
    }

    @Test
    void aTaskWithoutStepsHasNoExecutionPrompt() {
        assertThatThrownBy(() -> StepExecutor.taskMessage(task(null, List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Task 7 has no steps; give it a checklist first with TaskSteps.setSteps(taskId, markdown)");
        assertThatThrownBy(() -> StepExecutor.taskMessage(task("Just prose, no checklist.", List.of())))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
