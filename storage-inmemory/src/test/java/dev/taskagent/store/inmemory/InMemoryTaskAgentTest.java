package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.extraction.TaskAgentSuite;
import java.time.Clock;

class InMemoryTaskAgentTest extends TaskAgentSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
