package dev.taskagent.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.internal.json.TaskJson.View;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskJsonTest {
    private static final int LISTING = 120;
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
        assertThat(TaskJson.render(task().build(), View.COMPACT))
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

        assertThat(TaskJson.render(task, View.COMPACT))
                .isEqualTo("{\"id\":7,\"status\":\"running\",\"priority\":-2,\"assignee\":\"bob\","
                        + "\"previous_assignee\":\"alice\",\"created_by\":\"carol\",\"description\":\"Fix the login\","
                        + "\"steps\":\"- [x] one\\n- [ ] two\",\"current_step\":1,\"progress\":[\"did one\"],"
                        + "\"preference\":\"short | polite\",\"comments\":[\"alice: Over to you.\"],"
                        + "\"links\":[\"[the PR](https://example.com/pr/1) by alice\",\"https://example.com/log by bob\"],"
                        + "\"archived\":true}");
    }

    @Test
    void aListingLineKeepsADescriptionOnOneShortLine() {
        assertThat(TaskJson.listingLine(
                        task().priority(3)
                                .description("  First line\n\tsecond line  ")
                                .build(),
                        LISTING))
                .isEqualTo("#7 pending p3: First line second line");
        String cut = TaskJson.listingLine(task().description("y".repeat(300)).build(), LISTING);
        assertThat(cut).isEqualTo("#7 pending p0: " + "y".repeat(119) + "…");
    }

    @Test
    void aListingLineShowsStepProgressForATaskWithSteps() {
        assertThat(TaskJson.listingLine(
                        task().description("Plan the trip")
                                .steps("- [x] Research\n- [ ] Send the list on WhatsApp\n")
                                .build(),
                        LISTING))
                .isEqualTo("#7 pending p0 (Steps 1/2): Plan the trip");
    }

    @Test
    void aListingLineNeverCutsAnEmojiInHalf() {
        String description = "y".repeat(118) + "🚀🚀🚀"; // the cut falls between the halves of the first rocket
        String line = TaskJson.listingLine(task().description(description).build(), LISTING);
        assertThat(line).isEqualTo("#7 pending p0: " + "y".repeat(118) + "…");
    }

    @Test
    void aPendingTaskThatWaitsShowsItsTimeInTheListingAndTheCompactView() {
        Task waiting =
                task().notBefore(Instant.parse("2026-12-01T09:00:00.250Z")).build();

        assertThat(TaskJson.listingLine(waiting, LISTING))
                .isEqualTo("#7 pending p0 not before 2026-12-01T09:00:00Z: Fix the login");
        assertThat(TaskJson.render(waiting, View.COMPACT)).contains("\"not_before\":\"2026-12-01T09:00:00.250Z\"");
        Task running = task().notBefore(Instant.parse("2026-12-01T09:00:00Z"))
                .status(TaskStatus.RUNNING)
                .build();
        assertThat(TaskJson.listingLine(running, LISTING)).isEqualTo("#7 running p0: Fix the login");
        assertThat(TaskJson.render(running, View.COMPACT)).doesNotContain("not_before");
    }

    @Test
    void theStepsViewListsEachStepAsDoneOrNot() {
        Task task = task().steps("- [x] Research\n- [ ] Book")
                .progresses(List.of("Found fares"))
                .build();

        assertThat(TaskJson.render(task, View.STEPS))
                .isEqualTo("{\"id\":7,\"session_id\":\"queue\",\"order\":1,\"status\":\"pending\","
                        + "\"description\":\"Fix the login\",\"steps_done\":1,\"steps_total\":2,"
                        + "\"steps\":[{\"number\":1,\"text\":\"Research\",\"done\":true},"
                        + "{\"number\":2,\"text\":\"Book\",\"done\":false}],\"progress\":[\"Found fares\"]}");
    }

    @Test
    void theCardViewShowsEveryFieldUnderTheSameNames() {
        Task task = task().assignee("bob")
                .steps("- [ ] Book")
                .comments(List.of(new Comment("alice", "Over to you.", NOW)))
                .build();

        assertThat(TaskJson.render(task, View.CARD))
                .isEqualTo("{\"id\":7,\"session_id\":\"queue\",\"order\":1,\"description\":\"Fix the login\","
                        + "\"status\":\"pending\",\"assignee\":\"bob\",\"previous_assignee\":null,"
                        + "\"created_by\":null,\"priority\":0,\"archived\":false,\"attempt\":0,"
                        + "\"max_attempts\":" + task.maxAttempts() + ",\"lease_until\":null,"
                        + "\"not_before\":null,\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\","
                        + "\"version\":1,\"parent_id\":null,\"blocked_by\":[],\"open_blockers\":0,\"ready\":true,"
                        + "\"tags\":[],\"metadata\":null,"
                        + "\"preference\":\"\",\"current_step\":0,\"steps_done\":0,"
                        + "\"steps_total\":1,\"steps\":[{\"number\":1,\"text\":\"Book\",\"done\":false,"
                        + "\"depth\":0}],\"progress_total\":0,\"progress\":[],\"comments_total\":1,"
                        + "\"comments\":[{\"author\":\"alice\",\"text\":\"Over to you.\","
                        + "\"created_at\":\"2026-01-01T00:00:00Z\"}],\"links_total\":0,\"links\":[],"
                        + "\"message_count\":0,\"truncated\":[]}");
    }

    @Test
    void aQueueEntryCutsItsDescriptionAndSaysSo() {
        Task task = task().description("x".repeat(201)).build();

        var entry = TaskJson.node(task, View.QUEUE_ENTRY);

        assertThat(entry.get("description").asText()).isEqualTo("x".repeat(200) + "…");
        assertThat(entry.get("description_length").asInt()).isEqualTo(201);
        assertThat(entry.get("truncated").toString()).isEqualTo("[\"description\"]");
        assertThat(entry.has("steps")).isFalse();
    }

    @Test
    void theCreatedEventViewIsSmall() {
        assertThat(TaskJson.render(task().description("d".repeat(1_000)).build(), View.CREATED_EVENT))
                .startsWith("{\"version\":1,\"order\":1,\"status\":\"pending\",\"priority\":0,\"description\":\"ddd")
                .hasSizeLessThan(1_000);
    }

    @Test
    void theCompactViewIsBoundedWhateverTheTaskHolds() {
        List<Comment> comments = new java.util.ArrayList<>();
        List<Link> links = new java.util.ArrayList<>();
        List<String> progress = new java.util.ArrayList<>();
        for (int number = 1; number <= 5_000; number++) {
            comments.add(new Comment("reaper", "Comment " + number + " " + "c".repeat(2_000), NOW));
            links.add(new Link("https://example.com/" + number, "l".repeat(2_000), "bob", NOW));
            progress.add("Note " + number + " " + "p".repeat(2_000));
        }
        Task huge = task().description("d".repeat(50_000))
                .steps("- [ ] " + "s".repeat(50_000))
                .userPreferences(List.of("u".repeat(50_000)))
                .comments(comments)
                .links(links)
                .progresses(progress)
                .build();

        var node = TaskJson.node(huge, View.COMPACT);

        assertThat(node.toString()).hasSizeLessThan(4 * 2_010 + 30 * 510 + 1_000);
        assertThat(node.path("description").asText()).hasSize(2_001).endsWith("\u2026");
        assertThat(node.path("description_length").asInt()).isEqualTo(50_000);
        assertThat(node.path("steps_length").asInt()).isEqualTo(50_006);
        assertThat(node.path("comments")).hasSize(10);
        assertThat(node.path("comments").get(9).asText()).startsWith("reaper: Comment 5000 ");
        assertThat(node.path("comments_total").asInt()).isEqualTo(5_000);
        assertThat(node.path("comments_from").asInt()).isEqualTo(4_991);
        assertThat(node.path("links_total").asInt()).isEqualTo(5_000);
        assertThat(node.path("progress_from").asInt()).isEqualTo(4_991);
        assertThat(node.path("truncated").toString())
                .isEqualTo("[\"description\",\"steps\",\"progress\",\"preference\",\"comments\",\"links\"]");

        var page = TaskJson.paged(huge, View.COMPACT, 3);
        assertThat(page.path("comments")).hasSize(2);
        assertThat(page.path("comments_from").asInt()).isEqualTo(1);
        assertThat(page.path("comments").get(0).asText()).startsWith("reaper: Comment 1 ");

        var full = TaskJson.node(huge, View.FULL);
        assertThat(full.path("description").asText()).hasSize(50_000);
        assertThat(full.path("comments")).hasSize(50);
        assertThat(full.path("comments").get(49).asText()).endsWith("c".repeat(2_000));
    }

    @Test
    void aSmallTaskIsShownWholeInTheCompactViewWithoutCounts() {
        Task small = task().comments(List.of(new Comment("alice", "Hi.", NOW))).build();
        assertThat(TaskJson.render(small, View.COMPACT))
                .contains("\"comments\":[\"alice: Hi.\"]")
                .doesNotContain("_total")
                .doesNotContain("truncated");
    }

    @Test
    void everyViewNamesAFieldTheSameWay() {
        Task task = task().assignee("bob")
                .steps("- [ ] Book")
                .progresses(List.of("p"))
                .build();
        for (View view : View.values()) {
            var node = TaskJson.node(task, view);
            node.fieldNames()
                    .forEachRemaining(
                            name -> assertThat(name).as(view + " field").matches("[a-z]+(_[a-z]+)*"));
        }
    }

    @Test
    void theResultSchemasDescribeEveryFieldTheirViewsWrite() throws Exception {
        Task full = task().status(TaskStatus.RUNNING)
                .assignee("bob")
                .previousAssignee("alice")
                .createdBy("carol")
                .attempt(1)
                .leaseExpiresAt(NOW)
                .steps("- [x] one\n- [ ] two")
                .currentStep(2)
                .progresses(List.of("did one"))
                .userPreferences(List.of("short"))
                .archived(true)
                .comments(List.of(new Comment("alice", "Over to you.", NOW)))
                .links(List.of(new Link("https://example.com/pr/1", "the PR", "alice", NOW)))
                .build();
        for (View view : List.of(View.COMPACT, View.STEPS)) {
            var task = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(TaskJson.resultSchema(view))
                    .path("properties")
                    .path("task");
            List<String> described = new java.util.ArrayList<>();
            task.path("properties").fieldNames().forEachRemaining(described::add);
            List<String> written = new java.util.ArrayList<>();
            TaskJson.node(full, view).fieldNames().forEachRemaining(written::add);

            assertThat(described).as(view + " schema").containsAll(written);
            task.path("required")
                    .forEach(name -> assertThat(written).as(view + " required").contains(name.asText()));
        }
    }
}
