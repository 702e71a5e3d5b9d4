package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.event.FeedEvent;
import dev.taskagent.event.TaskEvent;
import dev.taskagent.store.spi.FeedEncoding;
import dev.taskagent.task.NewTask;
import dev.taskagent.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On PostgreSQL the claim's statement writes the claim's event itself, its payload built in SQL. It must
 * come out exactly as {@link FeedEncoding} writes it in Java on every other store, byte for byte: a
 * subscriber comparing payloads across stores, or a test, sees no difference.
 */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresClaimedEventTest {
    private final DataSource dataSource = TestDatabase.POSTGRES.newDataSource();
    private final JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build();

    @AfterEach
    void close() {
        store.close();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-11-25T04:50:12Z",
                "2026-11-25T04:50:12.100Z",
                "2026-11-25T04:50:12.120Z",
                "2026-11-25T04:50:12.123Z",
                "2026-11-25T04:50:12.000001Z",
                "2026-11-25T04:50:12.000100Z",
                "2026-11-25T04:50:12.123400Z",
                "2026-11-25T04:50:12.999999Z",
                "0001-01-01T00:00:00.001Z",
                "9999-12-31T23:59:59.999999Z"
            })
    void theLeaseEndIsWrittenAsInstantToStringWritesIt(String text) throws SQLException {
        Instant instant = Instant.parse(text);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT " + Claims.Postgres.LEASE_UNTIL
                        + " FROM (SELECT CAST(? AS TIMESTAMP) AS lease_expires_at) claimed CROSS JOIN LATERAL "
                        + Claims.Postgres.LEASE_FRACTION)) {
            statement.setObject(1, LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo(instant.toString()).isEqualTo(text);
            }
        }
    }

    @Test
    void theClaimsEventIsTheOneFeedEncodingWritesEvenForAnAgentNameThatNeedsEscaping() {
        String agent = "Zoë \"the\" \\ agent ✓ {\"x\": 1}";
        Task task = store.inTransaction(tx -> tx.appendTask(
                NewTask.builder("claimed-event", "Ship it").assignee(agent).build()));
        long start = store.eventFeed().lastPosition();

        Task claimed = store.claimNext(agent, Duration.ofMinutes(7)).orElseThrow();

        List<FeedEvent> events = store.eventFeed().read(start, 10);
        assertThat(events).hasSize(1);
        FeedEvent event = events.get(0);
        FeedEncoding.Encoded expected = FeedEncoding.encode(new TaskEvent.Claimed(claimed, agent));
        assertThat(event.kind()).isEqualTo("claimed");
        assertThat(event.taskId()).isEqualTo(task.id());
        assertThat(event.sessionId()).isEqualTo("claimed-event");
        assertThat(event.payload()).isEqualTo(expected.payload());
        assertThat(event.time()).isEqualTo(claimed.updatedAt());
    }
}
