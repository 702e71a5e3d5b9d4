package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskWorkerSuite;
import java.time.Clock;

class H2TaskWorkerTest extends TaskWorkerSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
