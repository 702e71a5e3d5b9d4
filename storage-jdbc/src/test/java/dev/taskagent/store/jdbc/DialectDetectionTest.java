package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.taskagent.store.TaskStoreException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Detection of the database from its metadata, on the answers real drivers give. */
class DialectDetectionTest {

    private static DatabaseMetaData metaData(String product, String version, int major, int minor) throws SQLException {
        DatabaseMetaData metaData = mock(DatabaseMetaData.class);
        when(metaData.getDatabaseProductName()).thenReturn(product);
        when(metaData.getDatabaseProductVersion()).thenReturn(version);
        when(metaData.getDatabaseMajorVersion()).thenReturn(major);
        when(metaData.getDatabaseMinorVersion()).thenReturn(minor);
        return metaData;
    }

    @ParameterizedTest
    @CsvSource({
        "H2, 2.3.232 (2024-08-11), 2, 3, H2",
        "PostgreSQL, 12.0, 12, 0, POSTGRESQL",
        "PostgreSQL, 15.20 (Debian 15.20-0+deb12u1), 15, 20, POSTGRESQL",
        "MariaDB, 10.6.0-MariaDB, 10, 6, MARIADB",
        "MariaDB, 10.11.19-MariaDB-0+deb12u1, 10, 11, MARIADB",
        "MariaDB, 11.4.2-MariaDB, 11, 4, MARIADB",
        "MySQL, 5.5.5-10.11.6-MariaDB-0+deb12u1, 5, 5, MARIADB",
        "MySQL, 8.0.17, 8, 0, MYSQL",
        "MySQL, 8.4.3, 8, 4, MYSQL",
        "MySQL, 9.1.0-commercial, 9, 1, MYSQL",
    })
    void detectsSupportedDatabases(String product, String version, int major, int minor, JdbcDialect expected)
            throws SQLException {
        assertThat(Dialect.detect(metaData(product, version, major, minor))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "H2, 1.4.200 (2019-10-14), 1, 4",
        "PostgreSQL, 11.22, 11, 22",
        "MariaDB, 10.5.27-MariaDB, 10, 5",
        "MySQL, 5.5.5-10.4.34-MariaDB, 5, 5",
        "MySQL, 8.0.16, 8, 0",
        "MySQL, 5.7.44, 5, 7",
        "Oracle, Oracle Database 19c Enterprise Edition Release 19.0.0.0.0, 19, 0",
        "Microsoft SQL Server, 16.00.1000, 16, 0",
    })
    void refusesOtherDatabasesAndOlderVersions(String product, String version, int major, int minor) {
        assertThatThrownBy(() -> Dialect.detect(metaData(product, version, major, minor)))
                .isInstanceOf(TaskStoreException.class)
                .hasMessage("Unsupported database: found " + product + " " + version + " (from DatabaseMetaData)."
                        + " The JDBC TaskStore supports H2 2.x, PostgreSQL 12 or later, MariaDB 10.6 or later and"
                        + " MySQL 8.0.17 or later. Use one of these, or, if your database speaks one of their"
                        + " dialects, name it with JdbcTaskStore.builder(dataSource).dialect(JdbcDialect.…).");
    }

    @Test
    void aStoreOnAnUnsupportedDatabaseRefusesToStartAndSaysWhatItFound() throws SQLException {
        DatabaseMetaData metaData = metaData("PostgreSQL", "11.22", 11, 22);
        Connection connection = mock(Connection.class);
        when(connection.getMetaData()).thenReturn(metaData);
        DataSource dataSource = mock(DataSource.class);
        when(dataSource.getConnection()).thenReturn(connection);

        assertThatThrownBy(() -> new JdbcTaskStore(dataSource))
                .isInstanceOf(TaskStoreException.class)
                .hasMessageStartingWith("Unsupported database: found PostgreSQL 11.22 (from DatabaseMetaData).")
                .hasMessageContaining("PostgreSQL 12 or later");
    }
}
