package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.dialect.ClaudeTaskToolsSuite;
import java.time.Clock;

class H2ClaudeTaskToolsTest extends ClaudeTaskToolsSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
