package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import java.time.Clock;

class InMemoryBoundedAnswersTest extends BoundedAnswersSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
