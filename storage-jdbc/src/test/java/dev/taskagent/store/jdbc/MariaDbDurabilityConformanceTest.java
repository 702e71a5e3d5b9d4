package dev.taskagent.store.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_MARIADB_URL", matches = ".+")
class MariaDbDurabilityConformanceTest extends JdbcDurabilityConformanceTest {
    @Override
    protected Class<? extends StoreFactory> storeFactory() {
        return OnUrl.class;
    }

    /** The server holds a commit once it returned: a few rounds show the store keeps nothing back. */
    @Override
    protected int rounds() {
        return 5;
    }

    @Override
    protected String newLocation(Path directory) {
        return TestDatabase.MARIADB.newUrl();
    }
}
