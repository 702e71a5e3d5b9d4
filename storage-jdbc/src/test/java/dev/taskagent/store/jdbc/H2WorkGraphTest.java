package dev.taskagent.store.jdbc;

class H2WorkGraphTest extends JdbcWorkGraphTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
