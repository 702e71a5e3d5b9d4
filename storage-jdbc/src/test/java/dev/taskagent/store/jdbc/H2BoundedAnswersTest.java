package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import java.time.Clock;

class H2BoundedAnswersTest extends BoundedAnswersSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.H2.newStore(clock);
    }
}
