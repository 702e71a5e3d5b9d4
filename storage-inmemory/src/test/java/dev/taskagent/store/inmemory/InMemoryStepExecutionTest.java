package dev.taskagent.store.inmemory;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.steps.StepExecutionSuite;
import java.time.Clock;

class InMemoryStepExecutionTest extends StepExecutionSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return new InMemoryTaskStore(clock);
    }
}
