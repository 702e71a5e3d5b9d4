package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.SearchToolSuite;
import java.time.Clock;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbSearchToolTest extends SearchToolSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.MARIADB.newStore(clock);
    }
}
