package dev.taskagent.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.store.PageCursorException;
import dev.taskagent.store.QueueQuery;
import dev.taskagent.store.SearchCursorException;
import dev.taskagent.store.SearchQuery;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SearchCursorsTest {
    private static final SearchCursors.QueuePosition QUEUE_POSITION =
            new SearchCursors.QueuePosition(99, -3, Instant.parse("2026-03-01T10:00:00.123456Z"), 42);

    @Test
    void aQueueCursorCarriesTheClaimOrderKeyOfTheLastTaskAndTheWatermark() {
        QueueQuery query = QueueQuery.of("alice").ready().withTag("backend");
        String cursor = SearchCursors.encode(query, QUEUE_POSITION);

        assertThat(cursor).matches("[A-Za-z0-9_-]+").hasSizeLessThan(QueueQuery.MAX_CURSOR_LENGTH);
        assertThat(SearchCursors.decode(query.withLimit(5).withCursor(cursor))).contains(QUEUE_POSITION);
        assertThat(SearchCursors.decode(query)).isEmpty();
    }

    @Test
    void aQueueCursorIsRefusedByAnotherAgentOrFilterAndWhenChangedOrCut() {
        QueueQuery query = QueueQuery.of("alice");
        String cursor = SearchCursors.encode(query, QUEUE_POSITION);
        String changed = cursor.substring(0, 20) + (cursor.charAt(20) == 'A' ? 'B' : 'A') + cursor.substring(21);

        assertThatThrownBy(() -> SearchCursors.decode(QueueQuery.of("bob").withCursor(cursor)))
                .isExactlyInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor belongs to another listing (another agent or filter)");
        assertThatThrownBy(() -> SearchCursors.decode(query.blocked().withCursor(cursor)))
                .isExactlyInstanceOf(PageCursorException.class);
        assertThatThrownBy(() -> SearchCursors.decode(query.withCursor(changed)))
                .isExactlyInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor cannot be used: it was changed or cut.");
        assertThatThrownBy(() -> SearchCursors.decode(query.withCursor(cursor.substring(1))))
                .isExactlyInstanceOf(PageCursorException.class);
        assertThatThrownBy(() -> query.withCursor(" ")).isExactlyInstanceOf(PageCursorException.class);
        assertThatThrownBy(() -> query.withCursor("A".repeat(QueueQuery.MAX_CURSOR_LENGTH + 1)))
                .isExactlyInstanceOf(PageCursorException.class);
    }

    @Test
    void theKindsOfCursorNeverContinueOneAnother() {
        SearchQuery search = SearchQuery.of("invoice");
        String searchCursor = SearchCursors.encode(search, new SearchCursors.Position(10, 2.5, 7));
        QueueQuery queue = QueueQuery.of("alice");
        String queueCursor = SearchCursors.encode(queue, QUEUE_POSITION);
        String listingCursor = SearchCursors.encode("dead-letters", new SearchCursors.ListingPosition(10, 7));

        assertThatThrownBy(() -> SearchCursors.decode(queue.withCursor(searchCursor)))
                .isExactlyInstanceOf(PageCursorException.class)
                .hasMessageContaining("not a cursor a queue listing returned");
        assertThatThrownBy(() -> SearchCursors.decode(search.withCursor(queueCursor)))
                .isExactlyInstanceOf(SearchCursorException.class)
                .hasMessageContaining("not a cursor a search returned");
        assertThatThrownBy(() -> SearchCursors.decode("dead-letters", queueCursor))
                .isExactlyInstanceOf(PageCursorException.class);
        assertThatThrownBy(() -> SearchCursors.decode("session\u0000trip", listingCursor))
                .isExactlyInstanceOf(PageCursorException.class)
                .hasMessageStartingWith("The cursor belongs to another listing (other filters)");
        assertThat(SearchCursors.decode("dead-letters", listingCursor))
                .contains(new SearchCursors.ListingPosition(10, 7));
        assertThat(SearchCursors.decode("dead-letters", null)).isEmpty();
        assertThatThrownBy(() -> SearchCursors.decode("dead-letters", "A".repeat(100_000)))
                .isExactlyInstanceOf(PageCursorException.class)
                .hasMessageContaining("too long");
    }

    @Test
    void aQueuePositionPrecedesTheTasksAfterItInClaimOrderUpToTheWatermark() {
        SearchCursors.QueuePosition position = new SearchCursors.QueuePosition(50, 3, Instant.ofEpochSecond(100), 20);

        assertThat(position.precedes(task(21, 3, 100))).isTrue();
        assertThat(position.precedes(task(19, 3, 101))).isTrue();
        assertThat(position.precedes(task(30, 2, 1))).isTrue();
        assertThat(position.precedes(task(20, 3, 100))).isFalse();
        assertThat(position.precedes(task(19, 3, 100))).isFalse();
        assertThat(position.precedes(task(10, 4, 200))).isFalse();
        assertThat(position.precedes(task(51, 0, 200)))
                .as("above the watermark")
                .isFalse();
    }

    private static dev.taskagent.task.Task task(long id, int priority, long createdSecond) {
        Instant created = Instant.ofEpochSecond(createdSecond);
        return TaskBuilder.newBuilder()
                .id(id)
                .sessionId("s")
                .order(1)
                .description("task " + id)
                .priority(priority)
                .createdAt(created)
                .updatedAt(created)
                .version(1)
                .build();
    }
}
