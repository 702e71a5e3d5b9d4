package com.example.consumer;

import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.testkit.TaskStoreConformanceTest;
import java.time.Clock;
import java.util.UUID;

/** The conformance kit, subclassed as the README shows, run from a consumer's build. */
class H2ConformanceTest extends TaskStoreConformanceTest {
    @Override
    protected TaskStore createStore(Clock clock) {
        return JdbcTaskStore.builder("jdbc:h2:mem:" + UUID.randomUUID()).clock(clock).build();
    }
}
