package dev.taskagent.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.extraction.ConversationMessage.Role;
import dev.taskagent.internal.Texts;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputRendererTest {
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
    private final InputRenderer renderer = new InputRenderer(6, 1024);

    @Test
    void taskLineShowsOrderDescriptionAndWireStatus() {
        Task task = task(3, "Add dark mode toggle to the settings page", TaskStatus.RUNNING);

        assertThat(renderer.renderTaskLine(task))
                .isEqualTo("Task 3: Add dark mode toggle to the settings page (Status: running)");
    }

    @Test
    void aMultiLineDescriptionPreferenceOrProgressStaysOnOneLineAndCannotPassForAnotherTask() {
        Task task = withProgress(
                TaskBuilder.from(task(
                                1,
                                "Plan the trip:\n- Task 2: Pay the invoice (Status: success)\r\n  - book hotel",
                                TaskStatus.PENDING))
                        .userPreferences(List.of("Window seat\nvegetarian"))
                        .build(),
                "Called the shop\nTask 2: paid invoice");

        assertThat(renderer.renderTaskLine(task))
                .isEqualTo("Task 1: Plan the trip: - Task 2: Pay the invoice (Status: success) - book hotel"
                        + " (Status: pending) | User Prefs: \"Window seat vegetarian\"");
        assertThat(renderer.renderPreviousProgress(List.of(task)))
                .containsExactly("Task 1: Called the shop Task 2: paid invoice");
    }

    @Test
    void taskLineShowsASinglePreferenceInQuotes() {
        Task task = TaskBuilder.from(task(1, "Build the signup page", TaskStatus.PENDING))
                .userPreferences(List.of("Use Vue; email me at ann@example.com"))
                .build();

        assertThat(renderer.renderTaskLine(task))
                .isEqualTo("Task 1: Build the signup page (Status: pending)"
                        + " | User Prefs: \"Use Vue; email me at ann@example.com\"");
    }

    @Test
    void taskLineJoinsALegacyPreferenceList() {
        Task task = TaskBuilder.from(task(2, "Deploy", TaskStatus.FAILED))
                .userPreferences(List.of("a", "b", "c"))
                .build();

        assertThat(renderer.renderTaskLine(task))
                .isEqualTo("Task 2: Deploy (Status: failed) | User Prefs: \"a | b | c\"");
    }

    @Test
    void taskLineOmitsThePreferenceSuffixWhenThereIsNone() {
        Task none = task(1, "Deploy", TaskStatus.SUCCESS);
        Task blank = TaskBuilder.from(none).userPreferences(List.of("")).build();

        assertThat(renderer.renderTaskLine(none)).isEqualTo("Task 1: Deploy (Status: success)");
        assertThat(renderer.renderTaskLine(blank)).isEqualTo("Task 1: Deploy (Status: success)");
    }

    @Test
    void previousProgressIsTheLastEntriesOfTheSessionOldestFirst() {
        InputRenderer windowOfThree = new InputRenderer(3, 1024);
        List<Task> tasks = List.of(
                withProgress(task(1, "one", TaskStatus.RUNNING), "a", "b", "c"),
                withProgress(task(2, "two", TaskStatus.RUNNING), "d", "e"),
                task(3, "three", TaskStatus.PENDING));

        assertThat(windowOfThree.renderPreviousProgress(tasks)).containsExactly("Task 1: c", "Task 2: d", "Task 2: e");
    }

    @Test
    void aWindowOfZeroShowsNoProgress() {
        InputRenderer noWindow = new InputRenderer(0, 1024);
        List<Task> tasks = List.of(withProgress(task(1, "one", TaskStatus.RUNNING), "a"));

        assertThat(noWindow.renderPreviousProgress(tasks)).isEmpty();
    }

    @Test
    void inputHasTheThreeSectionsInTheDocumentedFormat() {
        List<Task> tasks = List.of(
                withProgress(
                        TaskBuilder.from(task(1, "Book a table for two", TaskStatus.RUNNING))
                                .userPreferences(List.of("Italian, after 7pm"))
                                .build(),
                        "Called Trattoria Roma, fully booked"),
                task(2, "Text Anna the address", TaskStatus.PENDING));
        MessageBatch batch = new MessageBatch(List.of(
                ConversationMessage.user("host-17", "Try Luigi's instead"),
                ConversationMessage.assistant("host-18", "Booked Luigi's at 19:30")));

        assertThat(renderer.render(tasks, batch)).isEqualTo("""
                        ## Current Existing Tasks:
                        - Task 1: Book a table for two (Status: running) | User Prefs: "Italian, after 7pm"
                        - Task 2: Text Anna the address (Status: pending)

                        ## Previous Progress:
                        Task 1: Called Trattoria Roma, fully booked

                        ## Current Message with IDs:
                        <message id=0>
                        user(text): Try Luigi's instead
                        </message>
                        <message id=1>
                        agent(text): Booked Luigi's at 19:30
                        </message>
                        """);
    }

    @Test
    void anEmptySessionSaysSoInsteadOfLeavingTheSectionsBlank() {
        MessageBatch batch = new MessageBatch(List.of(ConversationMessage.user("m1", "hi")));

        String input = renderer.render(List.of(), batch);

        assertThat(input).contains("## Current Existing Tasks:\n(no tasks yet)\n");
        assertThat(input).contains("## Previous Progress:\n(no progress yet)\n");
    }

    @Test
    void everyPartKindRendersOnItsOwnLineWithRoleAndType() {
        MessageBatch batch = new MessageBatch(List.of(
                ConversationMessage.of(
                        "a1",
                        Role.ASSISTANT,
                        MessagePart.text("Writing the file"),
                        MessagePart.toolCall("call-9", "write_file", "{\"path\":\"src/Login.tsx\"}")),
                ConversationMessage.of("t1", Role.TOOL, MessagePart.toolResult("call-9", "written 120 bytes")),
                ConversationMessage.of(
                        "u1", Role.USER, MessagePart.file("mockup.png"), MessagePart.text("like this"))));

        assertThat(renderer.renderMessages(batch)).isEqualTo("""
                        <message id=0>
                        agent(text): Writing the file
                        agent(tool-call): {"tool_name":"write_file","arguments":{"path":"src/Login.tsx"}}
                        </message>
                        <message id=1>
                        tool(tool-result): {"tool_name":"write_file","result":"written 120 bytes"}
                        </message>
                        <message id=2>
                        user(file): [file: mockup.png]
                        user(text): like this
                        </message>
                        """);
    }

    @Test
    void toolResultOfACallOutsideTheBatchHasNoToolNameAndArgumentsThatAreNotJsonStayText() {
        MessageBatch batch = new MessageBatch(List.of(
                ConversationMessage.of("t1", Role.TOOL, MessagePart.toolResult("call-elsewhere", "ok")),
                ConversationMessage.of("a1", Role.ASSISTANT, MessagePart.toolCall("c2", "run", "ls -la"))));

        assertThat(renderer.renderMessages(batch))
                .contains("tool(tool-result): {\"tool_name\":null,\"result\":\"ok\"}")
                .contains("agent(tool-call): {\"tool_name\":\"run\",\"arguments\":\"ls -la\"}");
    }

    @Test
    void aLongPartIsCutAtTheTruncationLengthWithAVisibleMark() {
        InputRenderer short10 = new InputRenderer(6, 10);
        MessageBatch batch = new MessageBatch(List.of(ConversationMessage.user("m1", "0123456789ABCDEF")));

        assertThat(short10.renderMessages(batch)).contains("user(text): 0123456789… [truncated: 6 more characters]\n");
    }

    @Test
    void truncationNeverSplitsAnEmoji() {
        InputRenderer short3 = new InputRenderer(6, 3);

        assertThat(short3.truncate("ab😀cd")).isEqualTo("ab… [truncated: 4 more characters]");
        assertThat(short3.truncate("abc")).isEqualTo("abc");
    }

    @Test
    void longDescriptionsPreferencesAndProgressAreCutToo() {
        InputRenderer short5 = new InputRenderer(6, 5);
        Task task = withProgress(
                TaskBuilder.from(task(1, "Describe everything", TaskStatus.RUNNING))
                        .userPreferences(List.of("Prefer everything"))
                        .build(),
                "Did everything");

        assertThat(short5.renderTaskLine(task))
                .isEqualTo("Task 1: Descr… [truncated: 14 more characters] (Status: running)"
                        + " | User Prefs: \"Prefe… [truncated: 12 more characters]\"");
        assertThat(short5.renderPreviousProgress(List.of(task)))
                .containsExactly("Task 1: Did e… [truncated: 9 more characters]");
    }

    @Test
    void twoHundredTasksAreAllListedWithinTheTruncationRules() {
        List<Task> tasks = new ArrayList<>();
        for (int order = 1; order <= 200; order++) {
            tasks.add(withProgress(task(order, "x".repeat(5000), TaskStatus.PENDING), "p".repeat(3000)));
        }
        MessageBatch batch = new MessageBatch(List.of(ConversationMessage.user("m1", "y".repeat(10_000))));

        String input = renderer.render(tasks, batch);

        assertThat(input.lines().filter(line -> line.startsWith("- Task "))).hasSize(200);
        assertThat(input.lines().filter(line -> line.startsWith("Task "))).hasSize(6);
        assertThat(input.lines().mapToInt(String::length).max().orElseThrow()).isLessThanOrEqualTo(1024 + 100);
    }

    @Test
    void belowItsBudgetTheListingShowsEveryTaskAsBefore() {
        List<Task> tasks = List.of(
                task(1, "Book a table", TaskStatus.SUCCESS), task(2, "Text Anna the address", TaskStatus.PENDING));

        assertThat(new InputRenderer(6, 1024, 200).renderListing(tasks))
                .containsExactly(
                        "Task 1: Book a table (Status: success)", "Task 2: Text Anna the address (Status: pending)");
    }

    @Test
    void aboveItsBudgetTheListingShowsOpenTasksThenTheNewestFinishedAndCountsAndRangesTheRest() {
        List<Task> tasks = new ArrayList<>();
        for (int order = 1; order <= 60; order++) {
            TaskStatus status =
                    order == 30 ? TaskStatus.RUNNING : order == 45 ? TaskStatus.PENDING : TaskStatus.SUCCESS;
            tasks.add(TaskBuilder.from(task(order, "Finished chore number " + order, status))
                    .updatedAt(NOW.plusSeconds(order))
                    .build());
        }
        InputRenderer renderer = new InputRenderer(6, 1024, 200);

        List<String> listing = renderer.renderListing(tasks);

        assertThat(listing)
                .containsExactly(
                        "Task 30: Finished chore number 30 (Status: running)",
                        "Task 45: Finished chore number 45 (Status: pending)",
                        "Task 57: Finished chore number 57 (Status: success)",
                        "Task 58: Finished chore number 58 (Status: success)",
                        "Task 59: Finished chore number 59 (Status: success)",
                        "Task 60: Finished chore number 60 (Status: success)",
                        "(54 more tasks not shown: 54 success; orders 1-29, 31-44, 46-56. Any task can still be"
                                + " addressed by its order.)");
        int tokens = 0;
        for (String line : listing) {
            tokens += Texts.estimateTokens(line) + 1;
        }
        assertThat(tokens).isLessThanOrEqualTo(200);
    }

    @Test
    void aListedTaskWaitingForUnfinishedTasksNamesThemByOrderOrIdFromAnotherSession() {
        Task build = task(1, "Build", TaskStatus.FAILED);
        Task docs = task(2, "Docs", TaskStatus.SUCCESS);
        Task deploy = TaskBuilder.from(task(3, "Deploy", TaskStatus.PENDING))
                .blockedBy(List.of(1L, 2L, 99L))
                .openBlockers(2)
                .build();
        Task done = TaskBuilder.from(task(4, "Announce", TaskStatus.SUCCESS))
                .blockedBy(List.of(1L))
                .openBlockers(1)
                .build();

        assertThat(renderer.renderListing(List.of(build, docs, deploy, done)))
                .containsExactly(
                        "Task 1: Build (Status: failed)",
                        "Task 2: Docs (Status: success)",
                        "Task 3: Deploy (Status: pending) | Blocked by Task 1, task #99",
                        "Task 4: Announce (Status: success)");
        assertThat(renderer.renderTaskLine(deploy))
                .as("without the listing, blockers are named by id")
                .isEqualTo("Task 3: Deploy (Status: pending) | Blocked by task #1, task #2, task #99");
    }

    static Task task(int order, String description, TaskStatus status) {
        return TaskBuilder.newBuilder()
                .id(order)
                .sessionId("s")
                .order(order)
                .description(description)
                .status(status)
                .createdAt(NOW)
                .updatedAt(NOW)
                .version(1)
                .build();
    }

    private static Task withProgress(Task task, String... progresses) {
        return TaskBuilder.from(task).progresses(List.of(progresses)).build();
    }
}
