package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.dialect.ClaudeTaskToolsSuite;
import java.time.Clock;

class InMemoryClaudeTaskToolsTest extends ClaudeTaskToolsSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
