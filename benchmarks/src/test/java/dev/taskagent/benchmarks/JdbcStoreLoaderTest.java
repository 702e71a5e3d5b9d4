package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The loader writes what the store would: a claim of a loaded task, which returns the children from the
 * row's copy, returns what the store reads from the child tables, before and after a recycle.
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
            loader.verifyChildrenText(ids[0]);

            Task claimed = store.claimNext("agent", LEASE).orElseThrow();
            assertThat(claimed).isEqualTo(store.findTask(claimed.id()).orElseThrow());
            assertThat(claimed.comments()).hasSize(2);
            assertThat(claimed.links()).hasSize(2);

            loader.makePending(new long[] {claimed.id()}, 1);
            loader.verifyChildrenText(claimed.id());
            Task again = store.claimNext("agent", LEASE).orElseThrow();
            assertThat(again.id()).isEqualTo(claimed.id());
            assertThat(again).isEqualTo(store.findTask(again.id()).orElseThrow());
        }
    }
}
