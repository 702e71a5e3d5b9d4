package dev.taskagent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskStatusTest {

    @Test
    void wireNamesAreLowerCase() {
        assertThat(TaskStatus.values())
                .extracting(TaskStatus::wireName)
                .containsExactly("pending", "running", "success", "failed", "cancelled");
        assertThat(TaskStatus.RUNNING).hasToString("running");
        assertThat(TaskStatus.wireNames()).isEqualTo("pending, running, success, failed, cancelled");
    }

    @Test
    void parsingIgnoresCaseAndSurroundingSpace() {
        assertThat(TaskStatus.fromWireName("pending")).isEqualTo(TaskStatus.PENDING);
        assertThat(TaskStatus.fromWireName(" Running\n")).isEqualTo(TaskStatus.RUNNING);
        assertThat(TaskStatus.fromWireName("SUCCESS")).isEqualTo(TaskStatus.SUCCESS);
        for (TaskStatus status : TaskStatus.values()) {
            assertThat(TaskStatus.fromWireName(status.wireName())).isEqualTo(status);
        }
    }

    @Test
    void unknownNameIsRefusedWithTheNamesToUse() {
        assertThatThrownBy(() -> TaskStatus.fromWireName("done"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown task status 'done'; expected one of pending, running, success, failed, cancelled");
        assertThatThrownBy(() -> TaskStatus.fromWireName(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("value");
    }

    @Test
    void successFailedAndCancelledAreTerminalAndOnlySuccessAndFailedEndAClaim() {
        assertThat(TaskStatus.values())
                .filteredOn(TaskStatus::isTerminal)
                .containsExactly(TaskStatus.SUCCESS, TaskStatus.FAILED, TaskStatus.CANCELLED);
        assertThat(TaskStatus.values())
                .filteredOn(TaskStatus::isOutcome)
                .containsExactly(TaskStatus.SUCCESS, TaskStatus.FAILED);
    }
}
