package dev.taskagent.store.jdbc;

import dev.taskagent.store.TaskStore;
import dev.taskagent.testkit.queue.BoundedAnswersSuite;
import java.time.Clock;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbBoundedAnswersTest extends BoundedAnswersSuite {
    @Override
    protected TaskStore createStore(Clock clock) {
        return TestDatabase.MARIADB.newStore(clock);
    }
}
