package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.taskagent.store.TaskStoreException;
import dev.taskagent.task.NewTask;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the store makes H2 write every commit before the commit returns ({@code WRITE_DELAY=0}), on each way
 * of opening it; that it then survives a kill -9 is the durability kit's part.
 */
class H2WriteDelayTest {
    @TempDir
    Path folder;

    private String url() {
        return "jdbc:h2:file:" + folder.resolve("tasks").toAbsolutePath();
    }

    @Test
    void anH2UrlOfADatabaseInFilesGetsWriteDelayZero() {
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:file:./data/tasks"))
                .isEqualTo("jdbc:h2:file:./data/tasks;WRITE_DELAY=0");
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:./data/tasks;USER=sa;PASSWORD=secret"))
                .isEqualTo("jdbc:h2:./data/tasks;USER=sa;PASSWORD=secret;WRITE_DELAY=0");
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:file:./data/tasks;"))
                .isEqualTo("jdbc:h2:file:./data/tasks;WRITE_DELAY=0");
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:tcp://localhost:9092/~/tasks"))
                .isEqualTo("jdbc:h2:tcp://localhost:9092/~/tasks;WRITE_DELAY=0");
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:file:C:\\data\\tasks;AUTO_SERVER=TRUE"))
                .isEqualTo("jdbc:h2:file:C:\\data\\tasks;AUTO_SERVER=TRUE;WRITE_DELAY=0");
        // A backslash escapes a semicolon within a setting, as in H2.
        assertThat(H2WriteDelay.durableUrl("jdbc:h2:file:./t;INIT=CREATE SCHEMA IF NOT EXISTS S\\;SET SCHEMA S"))
                .isEqualTo("jdbc:h2:file:./t;INIT=CREATE SCHEMA IF NOT EXISTS S\\;SET SCHEMA S;WRITE_DELAY=0");
    }

    @Test
    void urlsThatNameAWriteDelayOrNeedNoneAreLeftAsGiven() {
        List<String> urls = List.of(
                "jdbc:h2:mem:tasks",
                "jdbc:h2:mem:tasks;DB_CLOSE_DELAY=-1",
                "jdbc:h2:tcp://localhost/mem:tasks",
                "jdbc:h2:file:./data/tasks;write_delay=100",
                "jdbc:h2:file:./data/tasks;WRITE_DELAY=0",
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

        assertThat(urls)
                .allSatisfy(
                        url -> assertThat(H2WriteDelay.durableUrl(url)).as(url).isEqualTo(url));
    }

    @Test
    void aStoreOpenedWithAnH2FileUrlWritesEveryCommitBeforeItReturns() throws Exception {
        try (JdbcTaskStore store = JdbcTaskStore.open(url());
                Connection connection = DriverManager.getConnection(url())) {
            assertThat(writeDelays(connection)).containsOnly("0");
            assertThat(store.toString()).endsWith(";WRITE_DELAY=0]");
        }
    }

    @Test
    void aStoreOnAnH2ServerMakesTheServersDatabaseWriteEveryCommitBeforeItReturns() throws Exception {
        Server server = Server.createTcpServer("-tcpPort", "0", "-baseDir", folder.toString(), "-ifNotExists")
                .start();
        try {
            String url = "jdbc:h2:tcp://localhost:" + server.getPort() + "/tasks";
            try (JdbcTaskStore store = JdbcTaskStore.open(url);
                    Connection connection = DriverManager.getConnection(url)) {
                store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "over TCP")));
                assertThat(writeDelays(connection)).containsOnly("0");
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aStoreOnAnH2DataSourceSetsItsWriteDelayToZeroAndWarnsThatTheUrlShouldSaySo() throws Exception {
        try (HikariDataSource pool = pool(url())) {
            try (Connection connection = pool.getConnection()) {
                assertThat(writeDelays(connection)).containsOnly("500");
            }
            new JdbcTaskStore(pool).close();

            try (Connection connection = pool.getConnection()) {
                assertThat(writeDelays(connection)).containsOnly("0");
            }
        }
        // The warning, word for word.
        try (Connection connection = DriverManager.getConnection(url())) {
            String path = databasePath(connection);
            assertThat(H2WriteDelay.ensureDurable(connection, null))
                    .contains("The H2 database " + path + " wrote committed units of work to its files up to 500"
                            + " ms after they returned (WRITE_DELAY=500); the store set WRITE_DELAY to 0, so that a"
                            + " unit of work that returned survives the process being killed. H2 goes back to the"
                            + " delay of the URL (500 ms when it names none) whenever it opens the database again,"
                            + " after its last connection closed: add ;WRITE_DELAY=0 to the URL of the DataSource to"
                            + " keep every commit durable.");
            assertThat(writeDelays(connection)).containsOnly("0");
        }
    }

    @Test
    void anH2DataSourceWhoseUrlSaysWriteDelayZeroNeedsNothingFromTheStore() throws Exception {
        try (HikariDataSource pool = pool(url() + ";WRITE_DELAY=0");
                Connection connection = pool.getConnection()) {
            assertThat(H2WriteDelay.ensureDurable(connection, null)).isEmpty();
        }
    }

    @Test
    void anH2UrlThatAsksForAWriteDelayKeepsItWithAWarning() throws Exception {
        String delayed = url() + ";WRITE_DELAY=300";
        try (JdbcTaskStore store = JdbcTaskStore.open(delayed);
                Connection connection = DriverManager.getConnection(url())) {
            store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "written up to 300 ms later")));
            assertThat(writeDelays(connection)).containsOnly("300");
            assertThat(H2WriteDelay.ensureDurable(connection, delayed))
                    .contains("The H2 URL asks for WRITE_DELAY=300: H2 writes committed units of work to the files of "
                            + databasePath(connection) + " up to 300 ms after they returned, and those that returned in"
                            + " the last 300 ms before the process is killed are lost. Remove WRITE_DELAY from the"
                            + " URL to make every unit of work durable once it returns.");
            assertThat(writeDelays(connection)).containsOnly("300");
        }
    }

    @Test
    void aUserWhoMayNotChangeTheWriteDelayIsRefusedWithTheRemedy() throws Exception {
        // The admin's connection keeps the database open with H2's default delay.
        try (Connection admin = DriverManager.getConnection(url());
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE USER BOB PASSWORD 'bob'");
            String refusal = "The H2 database " + databasePath(admin) + " writes committed units of work to its"
                    + " files up to 500 ms after they returned (WRITE_DELAY=500), so a unit of work that returned"
                    + " could be lost when the process is killed, and user 'BOB' may not change that: H2 lets only"
                    + " admin users set WRITE_DELAY. Connect as an admin user of the database (its creator is one;"
                    + " ALTER USER \"BOB\" ADMIN TRUE makes another), or add ;WRITE_DELAY=0 to the URL of the"
                    + " connection that opens the database.";

            assertThatThrownBy(() -> JdbcTaskStore.open(url() + ";USER=BOB;PASSWORD=bob"))
                    .isInstanceOf(TaskStoreException.class)
                    .hasMessage(refusal);
            try (HikariDataSource bobs = pool(url() + ";USER=BOB;PASSWORD=bob")) {
                assertThatThrownBy(() -> new JdbcTaskStore(bobs))
                        .isInstanceOf(TaskStoreException.class)
                        .hasMessage(refusal);
            }
            assertThat(writeDelays(admin)).containsOnly("500");
        }
    }

    @Test
    void aUserWhoMayNotChangeTheWriteDelayIsServedWhenTheDatabaseWritesAtOnceAlready() throws Exception {
        try (Connection admin = DriverManager.getConnection(url() + ";WRITE_DELAY=0");
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE USER BOB PASSWORD 'bob'");
            statement.execute("CREATE SCHEMA BOBS AUTHORIZATION BOB");

            try (JdbcTaskStore store = JdbcTaskStore.open(url() + ";USER=BOB;PASSWORD=bob;SCHEMA=BOBS")) {
                long id = store.inTransaction(tx -> tx.appendTask(NewTask.of("s", "by bob")))
                        .id();
                assertThat(store.findTask(id)).isPresent();
            }
            assertThat(writeDelays(admin)).containsOnly("0");
        }
    }

    @Test
    void anInMemoryH2DatabaseNeedsNothing() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:" + TestDatabase.newSchemaName())) {
            assertThat(H2WriteDelay.ensureDurable(connection, null)).isEmpty();
        }
    }

    private static HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(2);
        return new HikariDataSource(config);
    }

    /** Every WRITE_DELAY row H2 lists: the delay in force, and the one stored by the last SET, if any. */
    private static List<String> writeDelays(Connection connection) throws SQLException {
        List<String> delays = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
            while (rows.next()) {
                delays.add(rows.getString(1));
            }
        }
        return delays;
    }

    private static String databasePath(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT DATABASE_PATH()")) {
            rows.next();
            return rows.getString(1);
        }
    }
}
