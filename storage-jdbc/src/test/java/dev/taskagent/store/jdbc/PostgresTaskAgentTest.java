package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.extraction.TaskAgentSuite;
import java.time.Clock;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresTaskAgentTest extends TaskAgentSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.POSTGRES.newStore(clock);
    }
}
