package dev.taskagent.examples;

import dev.taskagent.examples.CustomStoreExample.CountingTaskStore;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.testkit.TaskStoreConformanceTest;
import java.time.Clock;

/** The custom store of {@link CustomStoreExample} proves it keeps the TaskStore contract. */
class CountingTaskStoreConformanceTest extends TaskStoreConformanceTest {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new CountingTaskStore(new InMemoryTaskStore(clock));
    }
}
