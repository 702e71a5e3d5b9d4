package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.SearchToolSuite;
import java.time.Clock;

class InMemorySearchToolTest extends SearchToolSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
