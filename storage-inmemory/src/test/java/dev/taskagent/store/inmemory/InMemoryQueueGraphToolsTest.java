package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.QueueGraphToolsSuite;
import java.time.Clock;

class InMemoryQueueGraphToolsTest extends QueueGraphToolsSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
