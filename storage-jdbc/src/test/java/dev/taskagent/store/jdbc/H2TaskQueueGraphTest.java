package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskQueueGraphSuite;
import java.time.Clock;

class H2TaskQueueGraphTest extends TaskQueueGraphSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
