package dev.taskagent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.spi.TaskBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskTest {
    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant UPDATED = Instant.parse("2026-01-01T11:00:00Z");

    @Test
    void builderKeepsEveryValueAndToBuilderCopiesThemAll() {
        Task task = full().build();

        assertThat(task.id()).isEqualTo(7);
        assertThat(task.sessionId()).isEqualTo("session");
        assertThat(task.order()).isEqualTo(2);
        assertThat(task.description()).isEqualTo("Plan the offsite");
        assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(task.progresses()).containsExactly("booked");
        assertThat(task.userPreferences()).containsExactly("vegetarian");
        assertThat(task.steps()).isEqualTo("- [x] book\n- [ ] invite");
        assertThat(task.currentStep()).isEqualTo(1);
        assertThat(task.priority()).isEqualTo(3);
        assertThat(task.assignee()).isEqualTo("bob");
        assertThat(task.previousAssignee()).isEqualTo("alice");
        assertThat(task.createdBy()).isEqualTo("carol");
        assertThat(task.archived()).isTrue();
        assertThat(task.comments()).containsExactly(new Comment("alice", "yours", UPDATED));
        assertThat(task.links()).containsExactly(new Link("https://example.org", "venue", "bob", UPDATED));
        assertThat(task.messageIds()).containsExactly("m1");
        assertThat(task.createdAt()).isEqualTo(CREATED);
        assertThat(task.updatedAt()).isEqualTo(UPDATED);
        assertThat(task.version()).isEqualTo(5);
        assertThat(TaskBuilder.from(task).build()).isEqualTo(task);
    }

    @Test
    void newBuilderStartsPendingWithEmptyLists() {
        Task task = minimal().build();

        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(task.progresses()).isEmpty();
        assertThat(task.userPreferences()).isEmpty();
        assertThat(task.comments()).isEmpty();
        assertThat(task.links()).isEmpty();
        assertThat(task.messageIds()).isEmpty();
        assertThat(task.assignee()).isNull();
        assertThat(task.archived()).isFalse();
    }

    @Test
    void idMustBePositive() {
        assertThatThrownBy(() -> minimal().id(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("id must be positive, was 0");
    }

    @Test
    void sessionIdMustBePresentNotBlankAndShort() {
        assertThatThrownBy(() -> minimal().sessionId(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("sessionId");
        assertThatThrownBy(() -> minimal().sessionId(" ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId must not be blank");
        assertThatThrownBy(() -> minimal().sessionId("s".repeat(256)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId is 256 characters long; the limit is 255");
        assertThat(minimal().sessionId("s".repeat(255)).build().sessionId()).hasSize(255);
    }

    @Test
    void orderStartsAtOne() {
        assertThatThrownBy(() -> minimal().order(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("order must be at least 1, was 0");
    }

    @Test
    void currentStepAndVersionMustNotBeNegative() {
        assertThatThrownBy(() -> minimal().currentStep(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("currentStep must not be negative, was -1");
        assertThatThrownBy(() -> minimal().version(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("version must not be negative, was -1");
    }

    @Test
    void requiredValuesMustNotBeNull() {
        assertThatThrownBy(() -> minimal().description(null).build()).hasMessage("description");
        assertThatThrownBy(() -> minimal().status(null).build()).hasMessage("status");
        assertThatThrownBy(() -> minimal().createdAt(null).build()).hasMessage("createdAt");
        assertThatThrownBy(() -> minimal().updatedAt(null).build()).hasMessage("updatedAt");
        assertThatThrownBy(() -> minimal().progresses(null).build()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void listsAreCopiedAndCannotBeChanged() {
        List<String> progresses = new ArrayList<>(List.of("first"));
        Task task = minimal().progresses(progresses).build();

        progresses.add("added later");

        assertThat(task.progresses()).containsExactly("first");
        assertThatThrownBy(() -> task.progresses().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> task.messageIds().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void userPreferenceTextJoinsLegacyListsWithAPipe() {
        assertThat(minimal()
                        .userPreferences(List.of("no meat", "window seat"))
                        .build()
                        .userPreferenceText())
                .isEqualTo("no meat | window seat");
        assertThat(minimal().build().userPreferenceText()).isEmpty();
    }

    @Test
    void hasStepsOnlyWithANonBlankDocument() {
        assertThat(minimal().steps("- [ ] one").build().hasSteps()).isTrue();
        assertThat(minimal().steps(" \n").build().hasSteps()).isFalse();
        assertThat(minimal().steps(null).build().hasSteps()).isFalse();
    }

    @Test
    void commentsAndLinksNeedAnAuthorAndText() {
        assertThatThrownBy(() -> new Comment(" ", "text", CREATED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("author must not be blank");
        assertThatThrownBy(() -> new Comment("author", "", CREATED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("text must not be blank");
        assertThatThrownBy(() -> new Link("", "d", "a", CREATED)).hasMessage("url must not be blank");
        assertThatThrownBy(() -> new Link("u", null, "a", CREATED)).hasMessage("description");
        assertThat(new Link("u", "", "a", CREATED).description()).isEmpty();
    }

    static TaskBuilder minimal() {
        return TaskBuilder.newBuilder()
                .id(1)
                .sessionId("session")
                .order(1)
                .description("a task")
                .createdAt(CREATED)
                .updatedAt(CREATED)
                .version(1);
    }

    private static TaskBuilder full() {
        return TaskBuilder.newBuilder()
                .id(7)
                .sessionId("session")
                .order(2)
                .description("Plan the offsite")
                .status(TaskStatus.RUNNING)
                .progresses(List.of("booked"))
                .userPreferences(List.of("vegetarian"))
                .steps("- [x] book\n- [ ] invite")
                .currentStep(1)
                .priority(3)
                .assignee("bob")
                .previousAssignee("alice")
                .createdBy("carol")
                .archived(true)
                .comments(List.of(new Comment("alice", "yours", UPDATED)))
                .links(List.of(new Link("https://example.org", "venue", "bob", UPDATED)))
                .messageIds(List.of("m1"))
                .createdAt(CREATED)
                .updatedAt(UPDATED)
                .version(5);
    }
}
