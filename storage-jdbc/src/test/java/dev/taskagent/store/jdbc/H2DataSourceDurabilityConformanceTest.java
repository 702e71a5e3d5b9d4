package dev.taskagent.store.jdbc;

import java.nio.file.Path;

/**
 * An H2 file database behind the application's own pool, whose URL names no write delay: the store sets
 * it to 0 at start. With {@code REUSE_SPACE=FALSE}: see {@link JdbcDurabilityConformanceTest#H2_KEEPS_EVERY_COMMIT}.
 */
class H2DataSourceDurabilityConformanceTest extends JdbcDurabilityConformanceTest {
    @Override
    protected Class<? extends StoreFactory> storeFactory() {
        return OnPool.class;
    }

    @Override
    protected String newLocation(Path directory) {
        return "jdbc:h2:file:" + directory.resolve("tasks").toAbsolutePath() + H2_KEEPS_EVERY_COMMIT;
    }
}
