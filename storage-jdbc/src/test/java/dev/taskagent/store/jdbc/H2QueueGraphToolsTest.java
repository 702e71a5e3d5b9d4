package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.QueueGraphToolsSuite;
import java.time.Clock;

class H2QueueGraphToolsTest extends QueueGraphToolsSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
