package dev.taskagent.store.jdbc;

class H2TaskStoreConformanceTest extends JdbcTaskStoreConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
