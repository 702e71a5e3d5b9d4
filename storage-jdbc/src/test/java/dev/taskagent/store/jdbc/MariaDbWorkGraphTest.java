package dev.taskagent.store.jdbc;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbWorkGraphTest extends JdbcWorkGraphTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
