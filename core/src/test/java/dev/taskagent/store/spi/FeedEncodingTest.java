package dev.taskagent.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The feed's payloads: the task's fields under the task model's names, and the claim's payload described once. */
class FeedEncodingTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static TaskBuilder task() {
        return TaskBuilder.newBuilder()
                .id(7)
                .sessionId("queue")
                .order(2)
                .description("Fix the login")
                .createdAt(NOW)
                .updatedAt(NOW)
                .version(3);
    }

    @Test
    void aCreatedPayloadIsTheTaskModelsCreatedView() {
        FeedEncoding.Encoded encoded = FeedEncoding.encode(
                new TaskEvent.Created(task().assignee("bob").priority(1).build()));

        assertThat(encoded.kind()).isEqualTo("created");
        assertThat(encoded.payload())
                .isEqualTo("{\"version\":3,\"order\":2,\"status\":\"pending\",\"assignee\":\"bob\",\"priority\":1,"
                        + "\"description\":\"Fix the login\"}");
    }

    @Test
    void aClaimedPayloadListsVersionAgentAttemptAndLeaseEnd() {
        Task claimed = task().status(TaskStatus.RUNNING)
                .assignee("bob")
                .attempt(2)
                .leaseExpiresAt(Instant.parse("2026-01-01T00:05:00.123Z"))
                .build();

        FeedEncoding.Encoded encoded = FeedEncoding.encode(new TaskEvent.Claimed(claimed, "bob"));

        assertThat(encoded.kind()).isEqualTo(FeedEncoding.CLAIMED);
        assertThat(encoded.payload())
                .isEqualTo(
                        "{\"version\":3,\"agent\":\"bob\",\"attempt\":2,\"lease_until\":\"2026-01-01T00:05:00.123Z\"}");
    }

    @Test
    void theSqlOfAClaimedPayloadIsBuiltFromTheSameFieldsInTheSameOrder() {
        String sql = FeedEncoding.claimedPayloadSql(field -> "v_" + field.name().toLowerCase(java.util.Locale.ROOT));

        assertThat(sql)
                .isEqualTo("'{\"version\":' || v_version || ',\"agent\":' || v_agent || ',\"attempt\":' || v_attempt"
                        + " || ',\"lease_until\":' || v_lease_until || '}'");
    }

    @Test
    void aLeaseExpiryPayloadSaysWhetherTheTaskWasRequeuedOrDeadLettered() {
        Task requeued = task().status(TaskStatus.PENDING).build();
        Task failed = task().status(TaskStatus.FAILED).build();

        assertThat(FeedEncoding.encode(new TaskEvent.LeaseExpired(requeued, 1)).payload())
                .isEqualTo("{\"version\":3,\"attempt\":1,\"outcome\":\"requeued\"}");
        assertThat(FeedEncoding.encode(new TaskEvent.LeaseExpired(failed, 3)).payload())
                .isEqualTo("{\"version\":3,\"attempt\":3,\"outcome\":\"dead_lettered\"}");
        assertThat(new TaskEvent.LeaseExpired(failed, 3).deadLettered()).isTrue();
    }
}
