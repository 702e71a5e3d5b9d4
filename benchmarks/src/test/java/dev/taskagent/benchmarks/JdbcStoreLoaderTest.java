package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The loader writes what the store would: a loaded task carries the template's comments and links, written
 * by the store, and a claim of it returns what a read does, before and after a recycle.
 */
class JdbcStoreLoaderTest {
    private static final Duration LEASE = Duration.ofMinutes(5);

    @Test
    void aLoadedTaskIsClaimedAsTheStoreReadsIt() {
        try (BenchDatabase database = BenchDatabase.create(BenchDatabase.Kind.H2, "loader", 2);
                JdbcTaskStore store = new JdbcTaskStore(database.dataSource())) {
            JdbcStoreLoader loader = new JdbcStoreLoader(database.dataSource(), "loader");
            long[] ids = loader.addTasks("agent", 3);
            JdbcStoreLoader.verify(store, ids[0], "agent");

            Task claimed = store.claimNext("agent", LEASE).orElseThrow();
            assertThat(claimed).isEqualTo(store.findTask(claimed.id()).orElseThrow());
            assertThat(claimed.comments()).hasSize(2);
            assertThat(claimed.links()).hasSize(2);

            loader.makePending(new long[] {claimed.id()}, 1);
            Task again = store.claimNext("agent", LEASE).orElseThrow();
            assertThat(again.id()).isEqualTo(claimed.id());
            assertThat(again).isEqualTo(store.findTask(again.id()).orElseThrow());
        }
    }
}
