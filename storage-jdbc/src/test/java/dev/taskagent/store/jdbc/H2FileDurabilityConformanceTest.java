package dev.taskagent.store.jdbc;

import java.nio.file.Path;

/**
 * The embedded default: an H2 file database opened with a URL that names no write delay, and with {@code
 * REUSE_SPACE=FALSE}: see {@link JdbcDurabilityConformanceTest#H2_KEEPS_EVERY_COMMIT}.
 */
class H2FileDurabilityConformanceTest extends JdbcDurabilityConformanceTest {
    @Override
    protected Class<? extends StoreFactory> storeFactory() {
        return OnUrl.class;
    }

    @Override
    protected String newLocation(Path directory) {
        return "jdbc:h2:file:" + directory.resolve("tasks").toAbsolutePath() + H2_KEEPS_EVERY_COMMIT;
    }
}
