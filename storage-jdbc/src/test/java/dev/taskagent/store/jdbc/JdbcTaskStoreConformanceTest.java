package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.TaskStoreConformanceTest;
import java.time.Clock;
import java.util.Optional;

/**
 * The conformance kit on one database, each test on a fresh schema, with storage faults injected through
 * the data source (TS-1.6). Subclassed once per database.
 */
abstract class JdbcTaskStoreConformanceTest extends TaskStoreConformanceTest {
    private FaultSwitchDataSource dataSource;

    /** @return the database under test */
    protected abstract TestDatabase database();

    @Override
    protected TaskStore createStore(Clock clock) {
        dataSource = new FaultSwitchDataSource(database().newDataSource());
        return JdbcTaskStore.builder(dataSource).clock(clock).build();
    }

    @Override
    protected Optional<StorageFault> storageFault(TaskStore store) {
        return Optional.of(dataSource);
    }
}
