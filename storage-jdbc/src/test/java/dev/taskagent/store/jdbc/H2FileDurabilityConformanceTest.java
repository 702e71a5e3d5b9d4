package dev.taskagent.store.jdbc;

import java.nio.file.Path;

/**
 * The embedded default, opened by URL: an H2 file database whose URL names no write delay, with {@code
 * REUSE_SPACE=FALSE} added (see {@link JdbcDurabilityConformanceTest#H2_KEEPS_EVERY_COMMIT}).
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
