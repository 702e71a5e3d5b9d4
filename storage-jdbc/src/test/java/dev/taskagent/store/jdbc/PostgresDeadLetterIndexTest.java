package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/** The dead letters' page reads PostgreSQL's partial index of failed tasks, not every task of its id range. */
@EnabledIfEnvironmentVariable(named = "TASKAGENT_TEST_POSTGRES_URL", matches = ".+")
class PostgresDeadLetterIndexTest {

    @Test
    void theDeadLetterPageIsReadFromThePartialIndexOfFailedTasks() throws SQLException {
        DataSource dataSource = TestDatabase.POSTGRES.newDataSource();
        try (JdbcTaskStore store = JdbcTaskStore.builder(dataSource).build();
                Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            assertThat(store.countTasks().pending()).isZero(); // migrated when the store opened
            // A table this small is read whole otherwise; what matters is which index can serve the page.
            statement.execute("SET enable_seqscan = off");
            String plan = explain(
                    statement,
                    "EXPLAIN "
                            + DeadLetterPages.sql(20)
                                    .replaceFirst("\\?", "0")
                                    .replaceFirst("\\?", "1000")
                                    .replaceFirst("\\?", "3"));

            assertThat(plan).as(plan).contains("taskagent_tasks_dead_letters").doesNotContain("Seq Scan");
        }
    }

    private static String explain(Statement statement, String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }
}
