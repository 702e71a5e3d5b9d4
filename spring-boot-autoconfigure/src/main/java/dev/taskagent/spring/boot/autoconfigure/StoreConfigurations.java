package dev.taskagent.spring.boot.autoconfigure;

import static dev.taskagent.spring.boot.autoconfigure.TaskAgentStoreAutoConfiguration.LOG;

import dev.taskagent.spring.boot.autoconfigure.TaskAgentProperties.StoreType;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The store configurations that {@link TaskAgentStoreAutoConfiguration} imports in order. Not nested in it:
 * Spring processes the member classes of a configuration before its imports, in no promised order.
 */
final class StoreConfigurations {
    private StoreConfigurations() {}

    /** The JDBC store on the application's data source. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JdbcTaskStore.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    @Conditional(TaskAgentStoreAutoConfiguration.JdbcWanted.class)
    static class Jdbc {
        @Bean
        @ConditionalOnMissingBean(TaskStore.class)
        JdbcTaskStore taskStore(DataSource dataSource) {
            JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build();
            LOG.info("taskagent stores its tasks in {} through the application's DataSource", store.dialect());
            return store;
        }
    }

    /** The in-memory store, when no other store was made. */
    @Configuration(proxyBeanMethods = false)
    static class InMemory {
        @Bean
        @ConditionalOnMissingBean(TaskStore.class)
        InMemoryTaskStore taskStore(TaskAgentProperties properties) {
            if (properties.getStore().getType() == StoreType.JDBC) {
                throw new IllegalStateException("taskagent.store.type is jdbc, but the application has no single"
                        + " DataSource bean (or taskagent-storage-jdbc is not on the class path): add"
                        + " spring-boot-starter-jdbc and spring.datasource.url, mark one DataSource @Primary, or set"
                        + " taskagent.store.type=auto");
            }
            if (properties.getStore().getType() == StoreType.AUTO) {
                LOG.warn("taskagent keeps its tasks in memory: nothing is persisted, and every task is lost when the"
                        + " application stops. Give the application a DataSource (spring.datasource.url) to store"
                        + " them in its database, or set taskagent.store.type=in-memory to silence this warning.");
            }
            return new InMemoryTaskStore();
        }
    }
}
