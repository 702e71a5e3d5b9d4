package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import java.time.Clock;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresBoundedAnswersTest extends BoundedAnswersSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.POSTGRES.newStore(clock);
    }
}
