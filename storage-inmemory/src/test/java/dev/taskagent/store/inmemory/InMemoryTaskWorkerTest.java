package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskWorkerSuite;
import java.time.Clock;

class InMemoryTaskWorkerTest extends TaskWorkerSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
