package dev.taskagent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NewTaskTest {

    @Test
    void plainTaskHasNoPriorityAssigneeCreatorOrSteps() {
        NewTask task = NewTask.of("session", "Book a table");

        assertThat(task).isEqualTo(new NewTask("session", "Book a table", 0, null, null, null, 0));
    }

    @Test
    void builderSetsEveryValue() {
        NewTask task = NewTask.builder("session", "Book a table")
                .priority(-4)
                .assignee("bob")
                .createdBy("alice")
                .steps("- [ ] call")
                .maxAttempts(5)
                .build();

        assertThat(task).isEqualTo(new NewTask("session", "Book a table", -4, "bob", "alice", "- [ ] call", 5));
    }

    @Test
    void descriptionMustNotBeBlankNorOverTheLimit() {
        assertThatThrownBy(() -> NewTask.of("session", " \n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("description must not be blank");
        assertThatThrownBy(() -> NewTask.of("session", "x".repeat(Task.MAX_TEXT_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("description is 1048577 characters long; the limit is 1048576");
        assertThat(NewTask.of("session", "x".repeat(Task.MAX_TEXT_LENGTH)).description())
                .hasSize(Task.MAX_TEXT_LENGTH);
    }

    @Test
    void sessionIdMustNotBeNullBlankNorTooLong() {
        assertThatThrownBy(() -> NewTask.builder(null, "d"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("sessionId");
        assertThatThrownBy(() -> NewTask.of("", "d"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId must not be blank");
        assertThatThrownBy(() -> NewTask.of("s".repeat(256), "d"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId is 256 characters long; the limit is 255");
    }

    @Test
    void builderChecksNamesAtOnce() {
        NewTask.Builder builder = NewTask.builder("session", "d");

        assertThatThrownBy(() -> builder.assignee(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("assignee must not be blank");
        assertThatThrownBy(() -> builder.createdBy("c".repeat(256)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("createdBy is 256 characters long; the limit is 255");
        assertThat(builder.assignee(null).createdBy(null).build().assignee()).isNull();
    }

    @Test
    void stepsOverTheLimitAreRefused() {
        NewTask.Builder builder = NewTask.builder("session", "d").steps("x".repeat(Task.MAX_TEXT_LENGTH + 1));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("steps is 1048577 characters long; the limit is 1048576");
    }

    @Test
    void textsNoStoreCanKeepAreRefusedNamingTheField() {
        assertThatThrownBy(() -> NewTask.of("session", "Book\u0000 a table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("description contains a NUL character (U+0000) at index 4, which no store can keep;"
                        + " remove it");
        assertThatThrownBy(() -> NewTask.of("sess\uD800ion", "Book a table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId contains an unpaired UTF-16 surrogate (U+D800) at index 4, which no store can"
                        + " keep; remove it");
        assertThatThrownBy(() -> NewTask.builder("session", "x").assignee("b\u0000b"))
                .hasMessageStartingWith("assignee contains a NUL character");
        assertThatThrownBy(() -> NewTask.builder("session", "x").createdBy("\uDC00"))
                .hasMessageStartingWith("createdBy contains an unpaired UTF-16 surrogate (U+DC00) at index 0");
        assertThatThrownBy(() ->
                        NewTask.builder("session", "x").steps("- [ ] a\u0000").build())
                .hasMessageStartingWith("steps contains a NUL character");
    }

    @Test
    void emojiAndOtherSupplementaryCharactersAreKept() {
        NewTask task = NewTask.of("s\uD83D\uDE00", "Plan the trip \uD83C\uDFD6\uFE0F for \uD842\uDFB7");

        assertThat(task.description()).isEqualTo("Plan the trip \uD83C\uDFD6\uFE0F for \uD842\uDFB7");
        assertThat(task.sessionId()).isEqualTo("s\uD83D\uDE00");
    }

    @Test
    void maxAttemptsIsOneToAThousandOrZeroForTheQueuesDefault() {
        assertThat(NewTask.of("session", "x").maxAttempts()).isZero();
        assertThat(NewTask.builder("session", "x").maxAttempts(1000).build().maxAttempts())
                .isEqualTo(1000);
        assertThatThrownBy(() -> NewTask.builder("session", "x").maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxAttempts must be between 1 and 1000, was 0");
        assertThatThrownBy(() -> NewTask.builder("session", "x").maxAttempts(1001))
                .hasMessage("maxAttempts must be between 1 and 1000, was 1001");
        assertThatThrownBy(() -> new NewTask("session", "x", 0, null, null, null, -1))
                .hasMessage("maxAttempts must be between 1 and 1000, was -1");
    }
}
