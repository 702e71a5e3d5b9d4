package dev.taskagent.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The floor: the plainest hand-written claim over plain JDBC, on one minimal table that holds the
 * comments and links as JSON text, so that a claim returns as much data as the store's does. What the
 * store costs above this is the price of its schema, its SPI and its checks.
 *
 * <ul>
 *   <li>PostgreSQL: one {@code UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING …}, in
 *       auto-commit;
 *   <li>MariaDB: {@code SELECT … FOR UPDATE SKIP LOCKED}, then {@code UPDATE}, in one transaction;
 *   <li>H2: {@code SELECT} the first candidate, then a conditional {@code UPDATE … AND status =
 *       'pending'}, retried when another claimer won the row (H2's SKIP LOCKED with ORDER BY … LIMIT locks
 *       every matching row). Like the store, it commits durably: the database has no write delay ({@link
 *       BenchDatabase#H2_SETTINGS}).
 * </ul>
 */
abstract class FloorClaimTarget implements ClaimTarget {
    static final String COLUMNS = "id, assignee, priority, created_at, description, comments, links";
    static final String CANDIDATE = "SELECT " + COLUMNS + " FROM floor_task WHERE assignee = ? AND status = 'pending'"
            + " ORDER BY priority DESC, created_at, id LIMIT 1";

    /**
     * H2 reads the index in order only when the ORDER BY starts with the index's leading columns, even
     * when the WHERE fixes them; otherwise it sorts every pending row of the assignee on every claim.
     */
    static final String H2_CANDIDATE = "SELECT " + COLUMNS + " FROM floor_task WHERE assignee = ? AND status ="
            + " 'pending' ORDER BY assignee, status, priority DESC, created_at, id LIMIT 1";

    private static final int BATCH = 500;

    /** A claimed row: what the floor hands back. */
    record FloorTask(
            long id,
            String assignee,
            int priority,
            Timestamp createdAt,
            String description,
            String comments,
            String links) {}

    final DataSource dataSource;
    private final String name;
    private final AtomicLong tasksCreated = new AtomicLong();

    private FloorClaimTarget(DataSource dataSource, String name, String... schema) {
        this.dataSource = dataSource;
        this.name = name;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            for (String sql : schema) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the floor table on " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The floor of a database.
     *
     * @param database the fresh database
     * @return its floor, with its table created
     */
    static FloorClaimTarget create(BenchDatabase database) {
        return switch (database.kind()) {
            case POSTGRES -> new Postgres(database.dataSource());
            case MARIADB -> new MariaDb(database.dataSource());
            case H2 -> new H2(database.dataSource());
        };
    }

    static FloorTask read(ResultSet row) throws SQLException {
        return new FloorTask(
                row.getLong(1),
                row.getString(2),
                row.getInt(3),
                row.getTimestamp(4),
                row.getString(5),
                row.getString(6),
                row.getString(7));
    }

    @Override
    public long claim(String assignee, Blackhole blackhole) {
        try (Connection connection = dataSource.getConnection()) {
            FloorTask task = claim(connection, assignee);
            if (task == null) {
                return -1;
            }
            blackhole.consume(task);
            return task.id();
        } catch (SQLException e) {
            throw new IllegalStateException("Floor claim failed on " + name + ": " + e.getMessage(), e);
        }
    }

    /** One claim on a connection from the pool (auto-commit on). */
    abstract FloorTask claim(Connection connection, String assignee) throws SQLException;

    @Override
    public void recycle(long[] ids, int count) {
        batch(
                "UPDATE floor_task SET status = 'pending' WHERE id = ?",
                count,
                (statement, index) -> statement.setLong(1, ids[index]));
    }

    @Override
    public void addTasks(String assignee, int count) {
        long first = tasksCreated.getAndAdd(count);
        long now = System.currentTimeMillis();
        batch(
                "INSERT INTO floor_task (assignee, status, priority, created_at, description, comments, links)"
                        + " VALUES (?, 'pending', ?, ?, ?, ?, ?)",
                count,
                (statement, index) -> {
                    long number = first + index;
                    statement.setString(1, assignee);
                    statement.setInt(2, (int) (number % 3));
                    statement.setTimestamp(3, new Timestamp(now + number));
                    statement.setString(4, Fixtures.description(number));
                    statement.setString(5, Fixtures.COMMENTS_JSON);
                    statement.setString(6, Fixtures.LINKS_JSON);
                });
    }

    private interface Binder {
        void bind(PreparedStatement statement, int index) throws SQLException;
    }

    private void batch(String sql, int count, Binder binder) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                for (int index = 0; index < count; index++) {
                    binder.bind(statement, index);
                    statement.addBatch();
                    if ((index + 1) % BATCH == 0 || index + 1 == count) {
                        statement.executeBatch();
                        connection.commit();
                    }
                }
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Stocking the floor table failed on " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // The table goes with the database.
    }

    @Override
    public String toString() {
        return "floor " + name;
    }

    private static final class Postgres extends FloorClaimTarget {
        private static final String CLAIM = "UPDATE floor_task SET status = 'running' WHERE id = (SELECT id FROM"
                + " floor_task WHERE assignee = ? AND status = 'pending' ORDER BY priority DESC, created_at, id"
                + " LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS;

        Postgres(DataSource dataSource) {
            super(
                    dataSource,
                    "postgres",
                    "CREATE TABLE floor_task (id BIGSERIAL PRIMARY KEY, assignee VARCHAR(255) NOT NULL,"
                            + " status VARCHAR(16) NOT NULL, priority INT NOT NULL, created_at TIMESTAMP NOT NULL,"
                            + " description TEXT NOT NULL, comments TEXT NOT NULL, links TEXT NOT NULL)",
                    "CREATE INDEX floor_task_claim ON floor_task (assignee, status, priority DESC, created_at, id)");
        }

        @Override
        FloorTask claim(Connection connection, String assignee) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement(CLAIM)) {
                statement.setString(1, assignee);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? read(row) : null;
                }
            }
        }
    }

    private static final class MariaDb extends FloorClaimTarget {
        private static final String UPDATE = "UPDATE floor_task SET status = 'running' WHERE id = ?";

        MariaDb(DataSource dataSource) {
            super(
                    dataSource,
                    "mariadb",
                    "CREATE TABLE floor_task (id BIGINT AUTO_INCREMENT PRIMARY KEY, assignee VARCHAR(255) NOT NULL,"
                            + " status VARCHAR(16) NOT NULL, priority INT NOT NULL, created_at DATETIME(6) NOT NULL,"
                            + " description TEXT NOT NULL, comments TEXT NOT NULL, links TEXT NOT NULL,"
                            // Serves the ORDER BY exactly, so SKIP LOCKED locks only the row it returns.
                            + " INDEX floor_task_claim (assignee, status, priority DESC, created_at, id))"
                            + " ENGINE=InnoDB");
        }

        @Override
        FloorTask claim(Connection connection, String assignee) throws SQLException {
            // START TRANSACTION … COMMIT rather than setAutoCommit(false/true): two round trips fewer.
            try (Statement transaction = connection.createStatement();
                    PreparedStatement select = connection.prepareStatement(CANDIDATE + " FOR UPDATE SKIP LOCKED");
                    PreparedStatement update = connection.prepareStatement(UPDATE)) {
                transaction.execute("START TRANSACTION");
                try {
                    select.setString(1, assignee);
                    FloorTask task;
                    try (ResultSet row = select.executeQuery()) {
                        task = row.next() ? read(row) : null;
                    }
                    if (task != null) {
                        update.setLong(1, task.id());
                        update.executeUpdate();
                    }
                    transaction.execute("COMMIT");
                    return task;
                } catch (SQLException e) {
                    transaction.execute("ROLLBACK");
                    throw e;
                }
            }
        }
    }

    private static final class H2 extends FloorClaimTarget {
        private static final String UPDATE =
                "UPDATE floor_task SET status = 'running' WHERE id = ? AND status = 'pending'";

        H2(DataSource dataSource) {
            super(
                    dataSource,
                    "h2",
                    "CREATE TABLE floor_task (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                            + " assignee VARCHAR(255) NOT NULL, status VARCHAR(16) NOT NULL, priority INT NOT NULL,"
                            + " created_at TIMESTAMP NOT NULL, description VARCHAR(1048576) NOT NULL,"
                            + " comments VARCHAR(1048576) NOT NULL, links VARCHAR(1048576) NOT NULL)",
                    "CREATE INDEX floor_task_claim ON floor_task (assignee, status, priority DESC, created_at, id)");
        }

        @Override
        FloorTask claim(Connection connection, String assignee) throws SQLException {
            try (PreparedStatement select = connection.prepareStatement(H2_CANDIDATE);
                    PreparedStatement update = connection.prepareStatement(UPDATE)) {
                select.setString(1, assignee);
                while (true) {
                    FloorTask task;
                    try (ResultSet row = select.executeQuery()) {
                        if (!row.next()) {
                            return null;
                        }
                        task = read(row);
                    }
                    update.setLong(1, task.id());
                    if (update.executeUpdate() == 1) {
                        return task;
                    }
                }
            }
        }
    }
}
