package dev.taskagent.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.store.jdbc.JdbcTaskStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The H2 database of the benchmarks is the durable one the store runs on, for the store and the floor. */
class BenchDatabaseTest {

    @Test
    void theH2DatabaseOfTheBenchmarksWritesEveryCommitBeforeItReturns() throws Exception {
        try (BenchDatabase database = BenchDatabase.create(BenchDatabase.Kind.H2, "durable", 2)) {
            assertThat(writeDelays(database)).containsOnly("0");

            // The store finds nothing to change, and the floor's table lives on the same pool.
            new JdbcTaskStore(database.dataSource()).close();
            FloorClaimTarget.create(database).close();
            assertThat(writeDelays(database)).containsOnly("0");
        }
    }

    /** Every WRITE_DELAY row H2 lists: the delay in force, and the one a SET stored, if any. */
    private static List<String> writeDelays(BenchDatabase database) throws SQLException {
        List<String> delays = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
            while (rows.next()) {
                delays.add(rows.getString(1));
            }
        }
        return delays;
    }
}
