package dev.taskagent.store.jdbc;

class H2SearchTest extends JdbcSearchTest {
    @Override
    protected TestDatabase database() {
        return TestDatabase.H2;
    }
}
