package dev.taskagent.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Connections from the caller's {@code DataSource}, usually a pool; closing one gives it back. */
final class DataSourceConnections implements ConnectionSource {
    private final DataSource dataSource;

    DataSourceConnections(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Connection acquire() throws SQLException {
        return dataSource.getConnection();
    }

    @Override
    public void release(Connection connection, boolean reusable) {
        JdbcSupport.closeQuietly(connection);
    }

    @Override
    public void close() {
        // The caller owns the data source.
    }

    @Override
    public String description() {
        return "DataSource " + dataSource.getClass().getName();
    }
}
