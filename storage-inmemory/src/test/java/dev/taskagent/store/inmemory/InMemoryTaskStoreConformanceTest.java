package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.TaskStoreConformanceTest;
import java.time.Clock;

class InMemoryTaskStoreConformanceTest extends TaskStoreConformanceTest {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
