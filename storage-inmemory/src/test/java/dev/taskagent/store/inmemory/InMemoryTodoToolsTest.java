package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.dialect.TodoToolsSuite;
import java.time.Clock;

class InMemoryTodoToolsTest extends TodoToolsSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
