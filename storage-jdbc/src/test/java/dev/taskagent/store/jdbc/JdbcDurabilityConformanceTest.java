package dev.taskagent.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import dev.taskagent.testkit.DurabilityConformanceTest;

/**
 * The kit's TS-1.8 check on one database: units of work that returned survive a kill -9 of the JVM that
 * ran them. Subclassed once per database, and for H2 once per way of opening it.
 */
abstract class JdbcDurabilityConformanceTest extends DurabilityConformanceTest {

    /**
     * What the H2 URLs of these tests add: H2 (2.5.252, and 2.2 to 2.4 by their source) writes every commit
     * to its file before it returns once its write delay is 0, but when it writes a commit into free space
     * before the end of the file where it did not expect to, the file's header goes on naming the chunk
     * before it, from which reopening cannot reach it. Until H2 rewrites its header, up to 20 commits later,
     * a kill leaves a file that opens without the commits since. With space reuse off, every commit goes
     * to the end of the file, where reopening finds it. The store's own part, writing before it returns, is
     * what these tests check; the loss and this setting's cost are in the module's README.
     */
    static final String H2_KEEPS_EVERY_COMMIT = ";REUSE_SPACE=FALSE";

    /** Opens the store with {@link JdbcTaskStore#open(String)}: the location is the JDBC URL. */
    public static final class OnUrl implements StoreFactory {
        @Override
        public TaskStore open(String location) {
            return JdbcTaskStore.open(location);
        }
    }

    /**
     * Opens the store on a HikariCP pool of the JDBC URL that is the location, as an application passes its
     * own {@code DataSource}; closing the store closes the pool.
     */
    public static final class OnPool implements StoreFactory {
        @Override
        public TaskStore open(String location) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(location);
            config.setMaximumPoolSize(2);
            config.setPoolName("ts18");
            HikariDataSource pool = new HikariDataSource(config);
            try {
                return new PoolStore(new JdbcTaskStore(pool), pool);
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
        }
    }

    /** A store that closes its pool with it. */
    private record PoolStore(JdbcTaskStore store, HikariDataSource pool) implements TaskStore {
        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            return store.inTransaction(work);
        }

        @Override
        public void close() {
            try {
                store.close();
            } finally {
                pool.close();
            }
        }
    }
}
