package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskQueueGraphSuite;
import java.time.Clock;

class InMemoryTaskQueueGraphTest extends TaskQueueGraphSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
