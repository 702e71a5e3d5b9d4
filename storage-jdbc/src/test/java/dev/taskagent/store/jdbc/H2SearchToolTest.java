package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.SearchToolSuite;
import java.time.Clock;

class H2SearchToolTest extends SearchToolSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
