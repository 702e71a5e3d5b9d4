package dev.taskagent.store.jdbc;

class H2JdbcTaskStoreTest extends JdbcTaskStoreTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    protected JdbcDialect expectedDialect() {
        return JdbcDialect.H2;
    }
}
