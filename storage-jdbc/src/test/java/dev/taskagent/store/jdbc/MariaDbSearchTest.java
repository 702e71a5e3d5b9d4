package dev.taskagent.store.jdbc;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbSearchTest extends JdbcSearchTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
