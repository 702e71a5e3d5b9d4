package dev.taskagent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.store.spi.TaskSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TaskUpdateTest {

    @Test
    void updateNeedsAPositiveTaskId() {
        assertThatThrownBy(() -> TaskUpdate.of(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskId must be positive, was 0");
    }

    @Test
    void updateThatSetsNoFieldIsRefused() {
        assertThatThrownBy(() -> TaskUpdate.of(7).expectVersion(3).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("TaskUpdate for task 7 sets no field");
    }

    @Test
    void updateRecordsTheFieldsItSets() {
        TaskUpdate update = TaskUpdate.of(7).description("new").priority(2).build();

        assertThat(update.taskId()).isEqualTo(7);
        assertThat(update.fields()).containsExactlyInAnyOrder(TaskUpdate.Field.DESCRIPTION, TaskUpdate.Field.PRIORITY);
        assertThat(update.changes(TaskUpdate.Field.DESCRIPTION)).isTrue();
        assertThat(update.changes(TaskUpdate.Field.STATUS)).isFalse();
        assertThat(update.expectedVersion()).isEmpty();
        assertThatThrownBy(() -> update.fields().add(TaskUpdate.Field.STATUS))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(update.toString())
                .contains("taskId=7")
                .contains("DESCRIPTION")
                .contains("PRIORITY");
    }

    @Test
    void applyToChangesOnlyTheFieldsSet() {
        Task task = TaskTest.minimal()
                .id(7)
                .assignee("alice")
                .priority(1)
                .userPreferences(List.of("old"))
                .build();

        Task applied = TaskSnapshots.applied(
                        TaskUpdate.of(7).status(TaskStatus.SUCCESS).build(), task)
                .build();

        assertThat(applied)
                .isEqualTo(TaskBuilder.from(task).status(TaskStatus.SUCCESS).build());
    }

    @Test
    void applyToSetsEveryFieldButLeavesIdentityTimesAndVersion() {
        Task task = TaskTest.minimal().id(7).assignee("alice").steps("- [ ] a").build();

        Task applied = TaskSnapshots.applied(
                        TaskUpdate.of(7)
                                .description("new description")
                                .status(TaskStatus.FAILED)
                                .priority(9)
                                .assignee(null)
                                .previousAssignee("alice")
                                .userPreference("merged preference")
                                .steps(null)
                                .currentStep(3)
                                .archived(true)
                                .build(),
                        task)
                .build();

        assertThat(applied)
                .isEqualTo(TaskBuilder.from(task)
                        .description("new description")
                        .status(TaskStatus.FAILED)
                        .priority(9)
                        .assignee(null)
                        .previousAssignee("alice")
                        .userPreferences(List.of("merged preference"))
                        .steps(null)
                        .currentStep(3)
                        .archived(true)
                        .build());
        assertThat(applied.id()).isEqualTo(task.id());
        assertThat(applied.version()).isEqualTo(task.version());
        assertThat(applied.updatedAt()).isEqualTo(task.updatedAt());
    }

    @Test
    void applyToAnotherTaskIsRefused() {
        TaskUpdate update = TaskUpdate.of(7).priority(1).build();
        Task other = TaskTest.minimal().id(8).build();

        assertThatThrownBy(() -> TaskSnapshots.applied(update, other))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("update is for task 7, not 8");
    }

    @Test
    void expectedVersionIsOptionalAndNotNegative() {
        assertThat(TaskUpdate.of(7).expectVersion(4).priority(1).build().expectedVersion())
                .isEqualTo(OptionalLong.of(4));
        assertThatThrownBy(() -> TaskUpdate.of(7).expectVersion(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("version must not be negative, was -1");
    }

    @Test
    void userPreferenceReplacesTheWholeListWithOneEntry() {
        TaskUpdate update =
                TaskUpdate.of(7).userPreference("window seat, no meat").build();

        assertThat(update.userPreferences()).containsExactly("window seat, no meat");
        assertThatThrownBy(() -> TaskUpdate.of(7).userPreference(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("userPreference must not be blank");
    }

    @Test
    void userPreferencesListIsCopiedAndChecked() {
        List<String> preferences = new ArrayList<>(List.of("a", "b"));
        TaskUpdate update = TaskUpdate.of(7).userPreferences(preferences).build();
        preferences.add("c");

        assertThat(update.userPreferences()).containsExactly("a", "b");
        assertThatThrownBy(() -> TaskUpdate.of(7).userPreferences(List.of("x".repeat(Task.MAX_TEXT_LENGTH + 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("userPreference is 1048577 characters long; the limit is 1048576");
    }

    @Test
    void settersRefuseBadValuesAtOnce() {
        TaskUpdate.Builder builder = TaskUpdate.of(7);

        assertThatThrownBy(() -> builder.description(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("description must not be blank");
        assertThatThrownBy(() -> builder.description("x".repeat(Task.MAX_TEXT_LENGTH + 1)))
                .hasMessage("description is 1048577 characters long; the limit is 1048576");
        assertThatThrownBy(() -> builder.status(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("status");
        assertThatThrownBy(() -> builder.assignee(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("assignee must not be blank");
        assertThatThrownBy(() -> builder.previousAssignee("p".repeat(256)))
                .hasMessage("previousAssignee is 256 characters long; the limit is 255");
        assertThatThrownBy(() -> builder.currentStep(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("currentStep must not be negative, was -1");
        assertThatThrownBy(() -> builder.steps("x".repeat(Task.MAX_TEXT_LENGTH + 1)))
                .hasMessage("steps is 1048577 characters long; the limit is 1048576");
        assertThatThrownBy(builder::build)
                .as("no failed setter counts as a set field")
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void clearingSettersCountAsSetFields() {
        TaskUpdate update = TaskUpdate.of(7)
                .assignee(null)
                .steps(null)
                .previousAssignee(null)
                .build();

        assertThat(update.fields())
                .containsExactlyInAnyOrder(
                        TaskUpdate.Field.ASSIGNEE, TaskUpdate.Field.STEPS, TaskUpdate.Field.PREVIOUS_ASSIGNEE);
        assertThat(update.assignee()).isNull();
        assertThat(update.steps()).isNull();
    }

    @Test
    void settersRefuseTextsNoStoreCanKeepNamingTheField() {
        TaskUpdate.Builder update = TaskUpdate.of(1);

        assertThatThrownBy(() -> update.description("a\u0000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("description contains a NUL character (U+0000) at index 1, which no store can keep;"
                        + " remove it");
        assertThatThrownBy(() -> update.userPreference("\uD83D"))
                .hasMessageStartingWith("userPreference contains an unpaired UTF-16 surrogate (U+D83D) at index 0");
        assertThatThrownBy(() -> update.userPreferences(List.of("ok", "x\u0000")))
                .hasMessageStartingWith("userPreference contains a NUL character");
        assertThatThrownBy(() -> update.steps("- [ ] \uDE00"))
                .hasMessageStartingWith("steps contains an unpaired UTF-16 surrogate (U+DE00) at index 6");
        assertThatThrownBy(() -> update.assignee("\u0000")).hasMessageStartingWith("assignee contains a NUL character");
        assertThatThrownBy(() -> update.previousAssignee("a\uD800b"))
                .hasMessageStartingWith("previousAssignee contains an unpaired UTF-16 surrogate");
        assertThatThrownBy(update::build).as("no refused value was set").isInstanceOf(IllegalStateException.class);
    }
}
