package dev.taskagent.store.jdbc;

import dev.taskagent.testkit.TaskStoreConformanceTest.StorageFault;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source whose storage can be made to fail (the conformance kit's TS-1.6): while the fault is on,
 * new connections are refused and connections already handed out throw on every statement and on
 * commit, as if the database had gone away. Rolling back and closing still work, so nothing is left
 * open. Thread-safe.
 */
final class FaultSwitchDataSource implements DataSource, StorageFault {
    /** What still works on a failing connection: cleaning up. */
    private static final Set<String> CLEANUP = Set.of("rollback", "close", "isClosed", "setAutoCommit");

    private final DataSource real;
    private final AtomicBoolean failing = new AtomicBoolean();

    FaultSwitchDataSource(DataSource real) {
        this.real = real;
    }

    @Override
    public void inject() {
        failing.set(true);
    }

    @Override
    public void clear() {
        failing.set(false);
    }

    private SQLException storageFailure() {
        return new SQLException("The database went away (fault injected by the test)", "08006");
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (failing.get()) {
            throw storageFailure();
        }
        Connection connection = real.getConnection();
        InvocationHandler handler = (proxy, method, arguments) -> invoke(connection, method, arguments);
        return (Connection)
                Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    private Object invoke(Connection connection, Method method, Object[] arguments) throws Throwable {
        if (failing.get() && !CLEANUP.contains(method.getName())) {
            throw storageFailure();
        }
        try {
            return method.invoke(connection, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("credentials come from the URL");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
