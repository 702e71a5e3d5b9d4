package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskJsonTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static TaskBuilder task() {
        return TaskBuilder.newBuilder()
                .id(7)
                .sessionId("queue")
                .order(1)
                .description("Fix the login")
                .createdAt(NOW)
                .updatedAt(NOW)
                .version(1);
    }

    @Test
    void aBareTaskShowsOnlyIdStatusPriorityAndDescription() {
        assertThat(TaskJson.render(task().build()))
                .isEqualTo("{\"id\":7,\"status\":\"pending\",\"priority\":0,\"description\":\"Fix the login\"}");
    }

    @Test
    void everyFieldAModelNeedsIsShownAndBookkeepingIsNot() {
        Task task = task().status(TaskStatus.RUNNING)
                .priority(-2)
                .assignee("bob")
                .previousAssignee("alice")
                .createdBy("carol")
                .steps("- [x] one\n- [ ] two")
                .currentStep(1)
                .progresses(List.of("did one"))
                .userPreferences(List.of("short", "polite"))
                .archived(true)
                .comments(List.of(new Comment("alice", "Over to you.", NOW)))
                .links(List.of(
                        new Link("https://example.com/pr/1", "the PR", "alice", NOW),
                        new Link("https://example.com/log", "", "bob", NOW)))
                .messageIds(List.of("m1"))
                .build();

        assertThat(TaskJson.render(task))
                .isEqualTo("{\"id\":7,\"status\":\"running\",\"priority\":-2,\"assignee\":\"bob\","
                        + "\"previous_assignee\":\"alice\",\"created_by\":\"carol\",\"description\":\"Fix the login\","
                        + "\"steps\":\"- [x] one\\n- [ ] two\",\"current_step\":1,\"progress\":[\"did one\"],"
                        + "\"preference\":\"short | polite\",\"comments\":[\"alice: Over to you.\"],"
                        + "\"links\":[\"[the PR](https://example.com/pr/1) by alice\",\"https://example.com/log by bob\"],"
                        + "\"archived\":true}");
    }

    @Test
    void aListingLineKeepsADescriptionOnOneShortLine() {
        assertThat(TaskJson.listingLine(task().priority(3)
                        .description("  First line\n\tsecond line  ")
                        .build()))
                .isEqualTo("#7 pending p3: First line second line");
        String cut = TaskJson.listingLine(task().description("y".repeat(300)).build());
        assertThat(cut).isEqualTo("#7 pending p0: " + "y".repeat(119) + "…");
    }

    @Test
    void aListingLineShowsStepProgressForATaskWithSteps() {
        assertThat(TaskJson.listingLine(task().description("Plan the trip")
                        .steps("- [x] Research\n- [ ] Send the list on WhatsApp\n")
                        .build()))
                .isEqualTo("#7 pending p0 (Steps 1/2): Plan the trip");
    }

    @Test
    void aListingLineNeverCutsAnEmojiInHalf() {
        String description = "y".repeat(118) + "🚀🚀🚀"; // the cut falls between the halves of the first rocket
        String line = TaskJson.listingLine(task().description(description).build());
        assertThat(line).isEqualTo("#7 pending p0: " + "y".repeat(118) + "…");
    }
}
