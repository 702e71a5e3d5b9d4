package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.TaskWorkerSuite;
import java.time.Clock;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresTaskWorkerTest extends TaskWorkerSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.POSTGRES.newStore(clock);
    }
}
