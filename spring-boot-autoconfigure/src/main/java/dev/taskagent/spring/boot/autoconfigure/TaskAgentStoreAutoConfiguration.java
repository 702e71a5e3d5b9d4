package dev.taskagent.spring.boot.autoconfigure;

import dev.taskagent.spring.boot.autoconfigure.TaskAgentProperties.StoreType;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The {@link TaskStore} bean, unless the application defines one: a {@link JdbcTaskStore} on the
 * application's {@link DataSource} when there is one (it creates or migrates its tables at start), otherwise
 * an {@link InMemoryTaskStore}, with a warning that nothing is persisted. {@code taskagent.store.type} forces
 * one or the other; {@code taskagent.store.enabled=false} creates none.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBooleanProperty(name = "taskagent.store.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TaskAgentProperties.class)
// In this order: the in-memory store is the fallback when the JDBC one was not made.
@Import({StoreConfigurations.Jdbc.class, StoreConfigurations.InMemory.class})
public class TaskAgentStoreAutoConfiguration {
    static final Logger LOG = LoggerFactory.getLogger(TaskAgentStoreAutoConfiguration.class);

    /** Creates nothing itself; see the imported configurations. */
    public TaskAgentStoreAutoConfiguration() {}

    /** Matches unless {@code taskagent.store.type} is {@code in-memory}. */
    static final class JdbcWanted extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            StoreType type = Binder.get(context.getEnvironment())
                    .bind("taskagent.store.type", StoreType.class)
                    .orElse(StoreType.AUTO);
            return type == StoreType.IN_MEMORY
                    ? ConditionOutcome.noMatch("taskagent.store.type is in-memory")
                    : ConditionOutcome.match("taskagent.store.type is " + type);
        }
    }
}
