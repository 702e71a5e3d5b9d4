package dev.taskagent.store.jdbc;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresSearchTest extends JdbcSearchTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
