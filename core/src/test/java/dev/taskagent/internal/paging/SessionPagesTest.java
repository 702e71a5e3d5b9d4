package dev.taskagent.internal.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.internal.Texts;
import dev.taskagent.store.spi.TaskBuilder;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolArgumentException;
import dev.taskagent.tool.ToolArguments;
import dev.taskagent.tool.ToolResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The paging of the dialects' listings on its own, with sessions a store could not produce through the SPI. */
class SessionPagesTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final String LISTING = "dialect TaskList\u0000s";

    private static Task task(int id, String description) {
        return TaskBuilder.newBuilder()
                .id(id)
                .sessionId("s")
                .order(id)
                .description(description)
                .status(TaskStatus.PENDING)
                .createdAt(NOW)
                .updatedAt(NOW)
                .version(1)
                .build();
    }

    private static List<Task> session(int size, String description) {
        return IntStream.rangeClosed(1, size)
                .mapToObj(id -> task(id, description))
                .toList();
    }

    private static String text(SessionPages.Page page) {
        String lines = page.tasks().stream()
                .map(task -> "#" + task.id() + " "
                        + (page.shortened() ? SessionPages.shorten(task.description(), 50) : task.description()))
                .collect(Collectors.joining("\n"));
        return lines + "\nremaining " + page.remaining() + " cursor " + page.nextCursor();
    }

    private static String cursorOf(ToolResult result) {
        String text = result.text();
        return text.substring(text.lastIndexOf("cursor ") + "cursor ".length());
    }

    private static SessionPages.Request request(String json) {
        return SessionPages.request(ToolArguments.parse(json), LISTING);
    }

    @Test
    void aCursorWhoseTaskWasRemovedForGoodAsksToListAgain() {
        List<Task> session = session(5, "write the report");
        ToolResult first = SessionPages.render(request("{\"limit\": 2}"), session, SessionPagesTest::text);
        String cursor = cursorOf(first);
        List<Task> withoutTwo = new ArrayList<>(session);
        withoutTwo.remove(1);

        ToolResult next = SessionPages.render(
                request("{\"limit\": 2, \"cursor\": \"" + cursor + "\"}"), withoutTwo, SessionPagesTest::text);

        assertThat(first.text()).startsWith("#1 write the report\n#2 write the report\nremaining 3");
        assertThat(next.isError()).isTrue();
        assertThat(next.text())
                .isEqualTo("The cursor ends at a task that is no longer in this list (it was removed for good);"
                        + " list again without a cursor.");
    }

    @Test
    void aPageOfLongTasksHoldsFewerSoThatItsCursorFits() {
        List<Task> session = session(60, "a long description ".repeat(20).strip());

        ToolResult page = SessionPages.render(request("{\"limit\": 60}"), session, SessionPagesTest::text);

        assertThat(Texts.estimateTokens(page.text())).isLessThanOrEqualTo(SessionPages.PAGE_TOKENS);
        assertThat(page.text()).contains("cursor ").doesNotEndWith("cursor null");
        int shown =
                (int) page.text().lines().filter(line -> line.startsWith("#")).count();
        assertThat(shown).isBetween(2, 59);
        assertThat(page.text()).contains("remaining " + (60 - shown));
    }

    @Test
    void oneTaskTooLongForTheBudgetIsShownShortened() {
        List<Task> session = List.of(task(1, "x".repeat(40_000)), task(2, "short"));

        ToolResult page = SessionPages.render(request("{}"), session, SessionPagesTest::text);

        assertThat(Texts.estimateTokens(page.text())).isLessThanOrEqualTo(SessionPages.PAGE_TOKENS);
        assertThat(page.text()).startsWith("#1 x").contains("…").contains("remaining 1 cursor ");
    }

    @Test
    void limitsOutOfRangeAndForeignCursorsAreRefusedWithWhatToSend() {
        assertThatThrownBy(() -> request("{\"limit\": 0}"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'limit' must be between 1 and 500, not 0.");
        assertThatThrownBy(() -> request("{\"limit\": 1000000000}"))
                .hasMessage("Argument 'limit' must be between 1 and 500, not 1000000000.");
        String cursor =
                cursorOf(SessionPages.render(request("{\"limit\": 1}"), session(3, "a"), SessionPagesTest::text));
        assertThatThrownBy(() -> SessionPages.request(
                        ToolArguments.parse("{\"cursor\": \"" + cursor + "\"}"), "dialect TodoRead\u0000s"))
                .isInstanceOf(ToolArgumentException.class);
        assertThatThrownBy(() -> request("{\"cursor\": \"" + cursor.substring(0, cursor.length() - 3) + "\"}"))
                .isInstanceOf(ToolArgumentException.class);
    }
}
